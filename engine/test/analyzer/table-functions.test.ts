// Trino's built-in table functions, TABLE(sequence(...)) and TABLE(exclude_columns(...)), and the
// invocation rules every table function follows (arguments by name or position, TABLE(...) and
// DESCRIPTOR(...) arguments, Trino's errors at Trino's positions). Oracles: the results and
// messages of Trino's TestSequenceFunction and TestExcludeColumnsFunction, and DuckDB's
// generate_series (stop included, as sequence's) and SELECT * EXCLUDE on the same rows.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';

const MIN = -9223372036854775808n;
const MAX = 9223372036854775807n;
/** Trino's sequence split size, less one: the divisor of its big-step cases. */
const SPLIT_LESS_ONE = 999_999n;

/** A bigint as SQL text (the least one, -9223372036854775808, is a bigint literal as in Trino). */
const sql = (value: bigint): string => String(value);

const text = (rows: unknown[][]): string[][] => rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

describe('table functions', function () {
  this.timeout(120_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await duckDbWithTpch('tiny', 1);
  });

  after(() => duck?.closeSync());

  const values = async (sql: string): Promise<string[]> => text(await engine.rows(sql)).map((r) => r.join('|'));
  const failure = async (sql: string): Promise<[string, string]> => {
    const error = await engine.failure(sql);
    return [error.errorName, error.message];
  };
  const expectDuckDb = async (ours: string, theirs: string): Promise<void> => {
    expect(text(await engine.rows(ours)), ours).to.deep.equal(text(await duckRows(duck, theirs)));
  };

  describe('sequence', () => {
    it("gives Trino's documented sequences (TestSequenceFunction)", async () => {
      const cases: [string, string[]][] = [
        ['1, 10, 3', ['1', '4', '7', '10']],
        ['1, 10, 6', ['1', '7']],
        ['-1, -10, -3', ['-1', '-4', '-7', '-10']],
        ['-1, -10, -6', ['-1', '-7']],
        ['-5, 5, 3', ['-5', '-2', '1', '4']],
        ['5, -5, -3', ['5', '2', '-1', '-4']],
        ['0, 10, 3', ['0', '3', '6', '9']],
        ['0, -10, -3', ['0', '-3', '-6', '-9']],
      ];
      for (const [args, expected] of cases) expect(await values(`SELECT * FROM TABLE(sequence(${args}))`), args).to.deep.equal(expected);
    });

    it("names its column sequential_number, of type bigint, and takes Trino's defaults (start 0, step 1)", async () => {
      const result = await engine.query('SELECT * FROM TABLE(sequence(start => 1, stop => 5))');
      expect(result.columns.map((c) => c.name)).to.deep.equal(['sequential_number']);
      expect(result.types).to.deep.equal(['bigint']);
      expect(text(result.rows).flat()).to.deep.equal(['1', '2', '3', '4', '5']);
      expect(await values('SELECT * FROM TABLE(sequence(stop => 10))')).to.deep.equal(
        await values('SELECT * FROM UNNEST(sequence(0, 10, 1))'),
      );
      expect(await values('SELECT * FROM TABLE(sequence(2, 4))')).to.deep.equal(['2', '3', '4']);
      expect(await values('SELECT * FROM TABLE(system.builtin.sequence(stop => 2, step => 1, start => 1))')).to.deep.equal(['1', '2']);
    });

    it("answers as DuckDB's generate_series, and as the sequence() array function", async () => {
      await expectDuckDb('SELECT * FROM TABLE(sequence(0, 8000, 3))', 'SELECT * FROM generate_series(0, 8000, 3)');
      expect(await values('SELECT * FROM TABLE(sequence(0, 8000, 3))')).to.deep.equal(
        await values('SELECT * FROM UNNEST(sequence(0, 8000, 3))'),
      );
      for (const [start, stop, step] of [
        [-17, 40, 7],
        [100, -3, -9],
        [5, 5, 3],
        [-1000, 1000, 999],
      ]) {
        await expectDuckDb(
          `SELECT * FROM TABLE(sequence(${start}, ${stop}, ${step}))`,
          `SELECT * FROM generate_series(${start}, ${stop}, ${step})`,
        );
      }
    });

    it('has one row when start equals stop, whatever the step', async () => {
      for (const step of ['2', '-2', '0'])
        expect(await values(`SELECT * FROM TABLE(sequence(start => 10, stop => 10, step => ${step}))`)).to.deep.equal(['10']);
    });

    it("fails with Trino's messages for NULL arguments and steps that lead away from stop", async () => {
      const error = (args: string) => failure(`SELECT *\nFROM TABLE(sequence(\n  ${args}))`);
      expect(await error('start => -5, stop => 10, step => -2')).to.deep.equal([
        'INVALID_FUNCTION_ARGUMENT',
        'Step must be positive for sequence [-5, 10]',
      ]);
      expect(await error('start => 10, stop => -5, step => 2')).to.deep.equal([
        'INVALID_FUNCTION_ARGUMENT',
        'Step must be negative for sequence [10, -5]',
      ]);
      expect(await error('start => 1, stop => 2, step => 0')).to.deep.equal([
        'INVALID_FUNCTION_ARGUMENT',
        'Step must be positive for sequence [1, 2]',
      ]);
      expect(await error('start => null, stop => -5, step => 2')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'Start is null']);
      expect(await error('start => 10, stop => null, step => 2')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'Stop is null']);
      expect(await error('start => 10, stop => -5, step => null')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'Step is null']);
    });

    it("reaches the ends of the bigint range with big steps exactly (Trino's testBigStep and testEdgeValues)", async () => {
      const seq = (start: bigint, stop: bigint, step: bigint) =>
        `TABLE(sequence(start => ${sql(start)}, stop => ${sql(stop)}, step => ${sql(step)}))`;
      for (const step of [MIN / SPLIT_LESS_ONE, MIN / SPLIT_LESS_ONE - 1n, MIN])
        expect(await values(`SELECT * FROM ${seq(10n, -5n, step)}`)).to.deep.equal(['10']);
      for (const step of [MAX / SPLIT_LESS_ONE, MAX / SPLIT_LESS_ONE + 1n, MAX])
        expect(await values(`SELECT * FROM ${seq(-5n, 10n, step)}`)).to.deep.equal(['-5']);
      const down = MIN / SPLIT_LESS_ONE - 1n;
      expect(
        await values(`SELECT DISTINCT x - lag(x, 1) OVER (ORDER BY x DESC) FROM ${seq(MAX, MIN, down)} t(x) ORDER BY 1 NULLS FIRST`),
      ).to.deep.equal(['NULL', String(down)]);
      const up = MAX / SPLIT_LESS_ONE + 1n;
      expect(
        await values(`SELECT DISTINCT x - lag(x, 1) OVER (ORDER BY x) FROM ${seq(MIN, MAX, up)} t(x) ORDER BY 1 NULLS FIRST`),
      ).to.deep.equal(['NULL', String(up)]);
      expect(await values(`SELECT * FROM ${seq(MIN + 15n, MIN + 3n, -10n)}`)).to.deep.equal([String(MIN + 15n), String(MIN + 5n)]);
      expect(await values(`SELECT * FROM ${seq(MAX - 15n, MAX - 3n, 10n)}`)).to.deep.equal([String(MAX - 15n), String(MAX - 5n)]);
      expect(await values(`SELECT * FROM ${seq(MAX - 2n, MAX, 1n)}`)).to.deep.equal([String(MAX - 2n), String(MAX - 1n), String(MAX)]);
      expect(await values(`SELECT * FROM ${seq(MIN + 2n, MIN, -1n)}`)).to.deep.equal([String(MIN + 2n), String(MIN + 1n), String(MIN)]);
    });

    it('reads a sequence of several splits whole, as DuckDB counts it', async () => {
      // 2,500,000 values: splits of 1,000,000, 1,000,000 and 500,000.
      await expectDuckDb(
        'SELECT count(x), min(x), max(x), sum(x) FROM TABLE(sequence(start => 10, stop => 12499995, step => 5)) t(x)',
        'SELECT count(x), min(x), max(x), sum(x)::BIGINT FROM generate_series(10, 12499995, 5) t(x)',
      );
      await expectDuckDb(
        'SELECT count(x), max(x), min(x) FROM TABLE(sequence(10, -12499990, -5)) t(x)',
        'SELECT count(x), max(x), min(x) FROM generate_series(10, -12499990, -5) t(x)',
      );
    });

    it('streams: a range of 2^64 values answers a LIMIT at once, never held in memory', async () => {
      expect(await values(`SELECT count(*) FROM (SELECT * FROM TABLE(sequence(${sql(MIN)}, ${MAX})) LIMIT 3)`)).to.deep.equal(['3']);
      expect(await values(`SELECT count(*) FROM (SELECT * FROM TABLE(sequence(${MAX}, 0, -7)) LIMIT 1000000)`)).to.deep.equal(['1000000']);
    });

    it("reads only the splits of a filter's range on the column: a range of 2^64 values, filtered, ends", async () => {
      const huge = `TABLE(sequence(${sql(MIN)}, ${MAX}))`;
      expect(await values(`SELECT * FROM ${huge} WHERE sequential_number BETWEEN 6 AND 8 ORDER BY 1`)).to.deep.equal(['6', '7', '8']);
      expect(await values(`SELECT * FROM ${huge} t(x) WHERE x > ${MAX - 3n} ORDER BY 1`)).to.deep.equal(
        [MAX - 2n, MAX - 1n, MAX].map(String),
      );
      expect(await values(`SELECT * FROM ${huge} t(x) WHERE x <= ${MIN + 2n} ORDER BY 1`)).to.deep.equal(
        [MIN, MIN + 1n, MIN + 2n].map(String),
      );
      expect(
        await values(
          `SELECT * FROM TABLE(sequence(${MAX}, ${sql(MIN)}, -1000000007)) t(x) WHERE x IN (${MAX - 2000000014n}, 5, ${MAX}) ORDER BY 1`,
        ),
      ).to.deep.equal([MAX - 2000000014n, MAX].map(String));
      expect(await values(`SELECT count(*) FROM ${huge} WHERE sequential_number < ${MIN + 1n}`)).to.deep.equal(['1']);
      expect(await values(`SELECT count(*) FROM ${huge} WHERE sequential_number > 5 AND sequential_number < 3`)).to.deep.equal(['0']);
      await expectDuckDb(
        'SELECT x FROM TABLE(sequence(100, -100, -7)) t(x) WHERE x > -20 AND x <= 30 ORDER BY 1',
        'SELECT x FROM generate_series(100, -100, -7) t(x) WHERE x > -20 AND x <= 30 ORDER BY 1',
      );
    });
  });

  describe('sequence in EXPLAIN and SHOW STATS', () => {
    // Trino prints a table function's arguments as `NAME => ScalarArgument{type=..., value=...}`.
    it('shows the arguments of the scan, defaults included, as Trino prints a table function call', async () => {
      const [[plan]] = await engine.rows('EXPLAIN SELECT * FROM TABLE(sequence(stop => 10, step => 3))');
      const lines = String(plan)
        .split('\n')
        .map((l) => l.trim());
      const scan = lines.findIndex((l) => l.startsWith('└─ TableScan[table = $table_functions:builtin.sequence'));
      expect(lines.slice(scan + 2, scan + 6)).to.deep.equal([
        'Arguments:',
        'START => ScalarArgument{type=bigint, value=0}',
        'STOP => ScalarArgument{type=bigint, value=10}',
        'STEP => ScalarArgument{type=bigint, value=3}',
      ]);
    });

    it('gives the row count, distinct values, NULLs and the lowest and highest value, as DuckDB counts them', async () => {
      for (const [start, stop, step] of [
        [1, 9, 3],
        [10, 0, -4],
        [5, 5, 7],
      ]) {
        const stats = await engine.rows(`SHOW STATS FOR (SELECT * FROM TABLE(sequence(${start}, ${stop}, ${step})))`);
        const [[rows, distinct, low, high]] = await duckRows(
          duck,
          `SELECT count(*), count(DISTINCT x), min(x), max(x) FROM generate_series(${start}, ${stop}, ${start === stop ? 1 : step}) t(x)`,
        );
        expect(stats, `${start}, ${stop}, ${step}`).to.deep.equal([
          ['sequential_number', null, Number(distinct), 0, null, String(low), String(high)],
          [null, null, null, null, Number(rows), null, null],
        ]);
      }
    });
  });

  describe('exclude_columns', () => {
    const nation = (columns: string) =>
      `SELECT * FROM TABLE(exclude_columns(\n  input => TABLE(tpch.tiny.nation),\n  columns => ${columns}))`;

    it("keeps the input's other columns in order (TestExcludeColumnsFunction), as DuckDB's EXCLUDE", async () => {
      const result = await engine.query(nation('DESCRIPTOR(n_comment)'));
      expect(result.columns.map((c) => c.name)).to.deep.equal(['n_nationkey', 'n_name', 'n_regionkey']);
      await expectDuckDb(`${nation('DESCRIPTOR(n_comment)')} ORDER BY 1`, 'SELECT * EXCLUDE (n_comment) FROM nation ORDER BY 1');
      await expectDuckDb(
        `${nation('DESCRIPTOR(n_regionkey, n_nationkey)')} ORDER BY 1`,
        'SELECT * EXCLUDE (n_regionkey, n_nationkey) FROM nation ORDER BY 1',
      );
      await expectDuckDb(
        `${nation('DESCRIPTOR(n_comment, n_name, n_comment)')} ORDER BY 1`,
        'SELECT n_nationkey, n_regionkey FROM nation ORDER BY 1',
      );
      const orders =
        'TABLE(system.builtin.exclude_columns(input => TABLE(tpch.tiny.orders), columns => DESCRIPTOR(o_orderstatus, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)))';
      expect((await engine.query(`SELECT * FROM ${orders} LIMIT 1`)).columns.map((c) => c.name)).to.deep.equal([
        'o_orderkey',
        'o_custkey',
        'o_totalprice',
      ]);
      await expectDuckDb(`SELECT o_orderkey, o_custkey FROM ${orders} ORDER BY 1`, 'SELECT o_orderkey, o_custkey FROM orders ORDER BY 1');
    });

    it('matches names case-insensitively, keeps the names as given, unnamed columns, and drops every column of an excluded name', async () => {
      const input = 'TABLE(SELECT 1, 2, 3, 4, 5) t(a, B, "c", "D", e)';
      expect(await values(`SELECT * FROM TABLE(exclude_columns(input => ${input}, columns => DESCRIPTOR("A", "b", C, d)))`)).to.deep.equal([
        '5',
      ]);
      // (Trino's case selects a, b, c, d of t(a, B, "c", "D", e); this engine resolves no unquoted name to a quoted upper-case one anywhere.)
      const returned = await engine.query(`SELECT * FROM TABLE(exclude_columns(input => ${input}, columns => DESCRIPTOR(e)))`);
      expect(returned.columns.map((c) => c.name)).to.deep.equal(['a', 'b', 'c', 'D']);
      expect(text(returned.rows)).to.deep.equal([['1', '2', '3', '4']]);
      expect(
        await values('SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 1 a, 2, 3 c, 4), columns => DESCRIPTOR(a, c)))'),
      ).to.deep.equal(['2|4']);
      expect(
        await values(
          'SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 1, 2, 3, 4, 5) t(a, b, c, a, b), columns => DESCRIPTOR(a, b)))',
        ),
      ).to.deep.equal(['3']);
    });

    it("fails with Trino's messages and positions", async () => {
      expect(await failure(nation('CAST(null AS DESCRIPTOR)'))).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'COLUMNS descriptor is null']);
      expect(await failure(nation('DESCRIPTOR()'))).to.deep.equal([
        'INVALID_FUNCTION_ARGUMENT',
        "line 3:3: Invalid descriptor argument COLUMNS. Descriptors should be formatted as 'DESCRIPTOR(name [type], ...)'",
      ]);
      expect(await failure(nation('DESCRIPTOR(foo, n_comment, bar)'))).to.deep.equal([
        'INVALID_FUNCTION_ARGUMENT',
        'Excluded columns: [foo, bar] not present in the table',
      ]);
      expect(await failure(nation('DESCRIPTOR(n_nationkey bigint, n_comment)'))).to.deep.equal([
        'INVALID_FUNCTION_ARGUMENT',
        'COLUMNS descriptor contains types',
      ]);
      expect(await failure(nation('DESCRIPTOR(n_nationkey, n_name, n_regionkey, n_comment)'))).to.deep.equal([
        'INVALID_FUNCTION_ARGUMENT',
        'All columns are excluded',
      ]);
      expect(await failure('SELECT * FROM TABLE(exclude_columns(input => TABLE(nosuch), columns => DESCRIPTOR(a)))')).to.deep.equal([
        'TABLE_NOT_FOUND',
        "line 1:52: Table 'memory.default.nosuch' does not exist",
      ]);
    });
  });

  describe('invocations', () => {
    it("names unknown table functions as Trino does, at the function's name", async () => {
      expect(await failure('SELECT * FROM TABLE(foo(1))')).to.deep.equal([
        'FUNCTION_NOT_FOUND',
        "line 1:21: Table function 'foo' not registered",
      ]);
      expect(await failure('SELECT * FROM TABLE(system.sequence(start => 1, stop => 5))')).to.deep.equal([
        'FUNCTION_NOT_FOUND',
        "line 1:21: Table function 'system.sequence' not registered",
      ]);
      expect(await failure('SELECT * FROM TABLE(tpch.builtin.sequence(stop => 5))')).to.deep.equal([
        'FUNCTION_NOT_FOUND',
        "line 1:21: Table function 'tpch.builtin.sequence' not registered",
      ]);
      expect(await values('SELECT * FROM TABLE("SEQUENCE"(1, 2))')).to.deep.equal(['1', '2']);
    });

    it("binds arguments by name or by position, with Trino's errors", async () => {
      const cases: [string, string, string][] = [
        ['sequence(1, 2, 3, 4)', 'INVALID_ARGUMENTS', 'line 1:21: Too many arguments. Expected at most 3 arguments, got 4 arguments'],
        [
          'sequence(1, stop => 2)',
          'INVALID_ARGUMENTS',
          'line 1:21: All arguments must be passed by name or all must be passed positionally',
        ],
        ['sequence(stop => 2, STOP => 3)', 'INVALID_FUNCTION_ARGUMENT', 'line 1:41: Duplicate argument name: STOP'],
        ['sequence(stop => 2, finish => 3)', 'INVALID_FUNCTION_ARGUMENT', 'line 1:41: Unexpected argument name: FINISH'],
        ['sequence("stop" => 2)', 'INVALID_FUNCTION_ARGUMENT', 'line 1:30: Unexpected argument name: stop'],
        ['sequence(start => 2)', 'MISSING_ARGUMENT', 'line 1:21: Missing argument: STOP'],
        ['sequence()', 'MISSING_ARGUMENT', 'line 1:21: Missing argument: STOP'],
        ["sequence(stop => 'a')", 'TYPE_MISMATCH', 'line 1:38: Cannot cast type varchar(1) to bigint'],
        ['sequence(stop => 2.5)', 'TYPE_MISMATCH', 'line 1:38: Cannot cast type decimal(2,1) to bigint'],
        ['sequence(stop => x)', 'COLUMN_NOT_FOUND', "line 1:38: Column 'x' cannot be resolved"],
        ['sequence(stop => (SELECT 1))', 'EXPRESSION_NOT_CONSTANT', 'line 1:38: Constant expression cannot contain a subquery'],
        ['sequence(stop => TABLE(t))', 'INVALID_FUNCTION_ARGUMENT', 'line 1:30: Invalid argument STOP. Expected expression, got table'],
        [
          'sequence(stop => DESCRIPTOR(a))',
          'INVALID_FUNCTION_ARGUMENT',
          'line 1:30: Invalid argument STOP. Expected expression, got descriptor',
        ],
        [
          'exclude_columns(input => 1, columns => DESCRIPTOR(a))',
          'INVALID_FUNCTION_ARGUMENT',
          'line 1:37: Invalid argument INPUT. Expected table, got expression',
        ],
        [
          'exclude_columns(input => sequence(1, 2), columns => DESCRIPTOR(a))',
          'NOT_SUPPORTED',
          'line 1:37: Invalid table argument INPUT. Table functions are not allowed as table function arguments',
        ],
        [
          'exclude_columns(input => TABLE(t), columns => 1)',
          'INVALID_FUNCTION_ARGUMENT',
          'line 1:56: Invalid argument COLUMNS. Expected descriptor, got expression',
        ],
        [
          'exclude_columns(input => TABLE(t) PARTITION BY a, columns => DESCRIPTOR(a))',
          'INVALID_FUNCTION_ARGUMENT',
          'line 1:37: Invalid argument INPUT. Partitioning specified for table argument with row semantics',
        ],
        [
          'exclude_columns(input => TABLE(t) ORDER BY (a), columns => DESCRIPTOR(a))',
          'INVALID_FUNCTION_ARGUMENT',
          'line 1:37: Invalid argument INPUT. Ordering specified for table argument with row semantics',
        ],
        [
          'exclude_columns(TABLE(t), DESCRIPTOR(a) COPARTITION (t, u))',
          'INVALID_COPARTITIONING',
          'line 1:77: No table argument found for name: u',
        ],
        [
          'exclude_columns(TABLE(t), DESCRIPTOR(a) COPARTITION (t, t))',
          'INVALID_COPARTITIONING',
          'line 1:77: Multiple references to table argument: t in COPARTITION clause',
        ],
      ];
      await engine.run('CREATE TABLE IF NOT EXISTS t (a bigint, b varchar)');
      for (const [call, name, message] of cases) expect(await failure(`SELECT * FROM TABLE(${call})`), call).to.deep.equal([name, message]);
    });

    it('joins, nests in subqueries, CTEs and other table functions, and takes aliases', async () => {
      await expectDuckDb(
        'SELECT n_name, s.x FROM tpch.tiny.nation JOIN TABLE(sequence(0, 4)) s(x) ON n_regionkey = s.x WHERE n_nationkey < 8 ORDER BY 1',
        'SELECT n_name, s.x FROM nation JOIN generate_series(0, 4) s(x) ON n_regionkey = s.x WHERE n_nationkey < 8 ORDER BY 1',
      );
      await expectDuckDb(
        'SELECT count(*) FROM tpch.tiny.nation WHERE n_regionkey IN (SELECT sequential_number FROM TABLE(sequence(1, 2)))',
        'SELECT count(*) FROM nation WHERE n_regionkey IN (SELECT * FROM generate_series(1, 2))',
      );
      expect(
        await values(
          'WITH w AS (SELECT sequential_number AS a, sequential_number * 10 AS b FROM TABLE(sequence(1, 3))) SELECT * FROM TABLE(exclude_columns(input => TABLE(w), columns => DESCRIPTOR(a)))',
        ),
      ).to.deep.equal(['10', '20', '30']);
      expect(await values('SELECT f.n FROM TABLE(sequence(1, 2)) AS f(n) CROSS JOIN TABLE(sequence(1, 2)) ORDER BY 1')).to.deep.equal([
        '1',
        '1',
        '2',
        '2',
      ]);
      expect(await values('SELECT (SELECT max(sequential_number) FROM TABLE(sequence(1, 7)))')).to.deep.equal(['7']);
      expect(await failure('SELECT * FROM TABLE(sequence(1, 2)) t(a, b)')).to.deep.equal([
        'MISMATCHED_COLUMN_ALIASES',
        'line 1:15: Column alias list has 2 entries but table function has 1 proper columns',
      ]);
      expect(await values('SELECT * FROM TABLE(sequence(1, 3)) WHERE sequential_number <> 2 UNION ALL SELECT 9 ORDER BY 1')).to.deep.equal([
        '1',
        '3',
        '9',
      ]);
    });

    it('runs in views and prepared statements; DESCRIBE of a parameter argument fails as in Trino', async () => {
      await engine.run('CREATE OR REPLACE VIEW tf_view AS SELECT * FROM TABLE(sequence(1, 3)) t(x)');
      expect(await values('SELECT x * 2 FROM tf_view')).to.deep.equal(['2', '4', '6']);
      await engine.run('PREPARE tf_statement FROM SELECT * FROM TABLE(sequence(1, ?))');
      expect(await values('EXECUTE tf_statement USING 3')).to.deep.equal(['1', '2', '3']);
      // (The position is the `?`'s in the prepared text.)
      expect(await failure('DESCRIBE OUTPUT tf_statement')).to.deep.equal([
        'NOT_SUPPORTED',
        'line 1:33: DESCRIBE is not supported if a table function uses parameters',
      ]);
    });
  });
});
