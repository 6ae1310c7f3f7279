// WITH RECURSIVE: number series, graph walks and hierarchies against DuckDB on the same rows (its
// recursion is iterative; Trino's unrolled one gives the same rows while the recursion converges
// within max_recursion_depth), Trino's documented example, and Trino's errors: the depth limit
// and each misshaped query its analyzer refuses.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineAndDuckDb, sortedRowTexts } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';

describe('WITH RECURSIVE', function () {
  this.timeout(120_000);
  let both: EngineAndDuckDb;
  let engine: EngineHarness;

  before(async () => {
    both = await EngineAndDuckDb.open();
    engine = both.engine;
    // A layered graph (edges only go to the next layer: every walk ends within 7 steps) with random edges, some repeated.
    const next = seededRandom(19);
    const edges: string[] = [];
    for (let layer = 0; layer < 7; layer++) {
      for (let i = 0; i < 40; i++) edges.push(`(${layer * 10 + Math.floor(next() * 10)}, ${(layer + 1) * 10 + Math.floor(next() * 10)})`);
    }
    // A tree of 300 employees: each one's manager has a smaller id, with 9 levels at most.
    const employees = ["(1, NULL, 'e1')"];
    const level = new Map<number, number>([[1, 0]]);
    for (let id = 2; id <= 300; id++) {
      let manager = 1 + Math.floor(next() * (id - 1));
      while ((level.get(manager) as number) >= 8) manager = 1 + Math.floor(next() * (id - 1));
      level.set(id, (level.get(manager) as number) + 1);
      employees.push(`(${id}, ${manager}, 'e${id}')`);
    }
    await both.runOnBoth(
      'CREATE TABLE edges (src integer, dst integer)',
      `INSERT INTO edges VALUES ${edges.join(', ')}`,
      'CREATE TABLE employees (id integer, manager integer, name varchar)',
      `INSERT INTO employees VALUES ${employees.join(', ')}`,
    );
  });

  after(() => both.close());

  const expectSameAsDuckDb = (sql: string) => both.expectSame(sql);

  it("gives the documented sum of Trino's example", async () => {
    const rows = await engine.rows('WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 4) SELECT sum(n) FROM t');
    expect(rows).to.deep.equal([[10n]]);
  });

  it('makes a number series as DuckDB does', async () => {
    const rows = await expectSameAsDuckDb(
      'WITH RECURSIVE t(n, square) AS (SELECT 1, 1 UNION ALL SELECT n + 1, (n + 1) * (n + 1) FROM t WHERE n < 10) SELECT n, square FROM t',
    );
    expect(rows).to.have.length(10);
  });

  it('walks a graph as DuckDB does, every path counted (UNION ALL)', async () => {
    const rows = await expectSameAsDuckDb(
      `WITH RECURSIVE walk(node, steps) AS (SELECT src, 0 FROM edges WHERE src < 3 UNION ALL SELECT e.dst, w.steps + 1 FROM walk w JOIN edges e ON e.src = w.node)
       SELECT node, steps, count(*) FROM walk GROUP BY node, steps`,
    );
    expect(rows.length).to.be.greaterThan(20);
  });

  it('walks a graph as DuckDB does, reachable nodes once (UNION)', async () => {
    await expectSameAsDuckDb(
      'WITH RECURSIVE reach(node) AS (SELECT 5 UNION SELECT e.dst FROM reach r, edges e WHERE e.src = r.node) SELECT node FROM reach',
    );
  });

  it('builds the paths of a hierarchy as DuckDB does', async () => {
    const rows = await expectSameAsDuckDb(
      `WITH RECURSIVE chain(id, depth, path) AS (
         SELECT id, 0, CAST(name AS varchar) FROM employees WHERE manager IS NULL
         UNION ALL
         SELECT e.id, c.depth + 1, c.path || '/' || e.name FROM chain c JOIN employees e ON e.manager = c.id)
       SELECT id, depth, path FROM chain`,
    );
    expect(rows).to.have.length(300);
  });

  it('sees earlier queries of the list, and one recursive query from another', async () => {
    await expectSameAsDuckDb(
      `WITH RECURSIVE roots(id) AS (SELECT id FROM employees WHERE manager = 1),
         below(id, root) AS (SELECT id, id FROM roots UNION ALL SELECT e.id, b.root FROM below b JOIN employees e ON e.manager = b.id),
         counted(root, n) AS (SELECT root, count(*) FROM below GROUP BY root)
       SELECT root, n FROM counted`,
    );
  });

  it("has the anchor's column types, the step's values coerced to them", async () => {
    const result = await engine.query(
      "WITH RECURSIVE t(n, s) AS (SELECT BIGINT '1', CAST('a' AS varchar) UNION ALL SELECT n + 1, s || 'b' FROM t WHERE n < 3) SELECT n, s, typeof(n) FROM t",
    );
    expect(result.types.slice(0, 2)).to.deep.equal(['bigint', 'varchar']);
    expect(result.rows).to.deep.equal([
      [1n, 'a', 'bigint'],
      [2n, 'ab', 'bigint'],
      [3n, 'abb', 'bigint'],
    ]);
  });

  it("fails with Trino's error when the recursion does not end within max_recursion_depth, which a session raises", async () => {
    const series = 'WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 15) SELECT max(n) FROM t';
    const error = await engine.failure(series);
    expect(error.errorName).to.equal('NOT_SUPPORTED');
    expect(error.message).to.equal("Recursion depth limit exceeded (10). Use 'max_recursion_depth' session property to modify the limit.");
    // Ten steps after the anchor converge: the 11th yields nothing.
    expect(
      await engine.rows('WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 11) SELECT max(n) FROM t'),
    ).to.deep.equal([[11]]);
    try {
      await engine.run('SET SESSION max_recursion_depth = 14');
      expect(await engine.rows(series)).to.deep.equal([[15]]);
      expect((await engine.failure('WITH RECURSIVE t(n) AS (VALUES (1) UNION SELECT n FROM t) SELECT n FROM t')).message).to.contain(
        'Recursion depth limit exceeded (14)',
      );
    } finally {
      await engine.run('RESET SESSION max_recursion_depth');
    }
  });

  it('runs a deep recursion level by level (a depth of 2000 takes no quadratic plan)', async () => {
    try {
      await engine.run('SET SESSION max_recursion_depth = 2000');
      const sql =
        "WITH RECURSIVE t(n, total) AS (SELECT 1, BIGINT '1' UNION ALL SELECT n + 1, total + n + 1 FROM t WHERE n < 2000) SELECT count(*), max(n), max(total) FROM t";
      expect(await engine.rows(sql)).to.deep.equal(
        sortedRowTexts(await duckRows(both.duck, sql)).map((r) => r.split('|').map((v, i) => (i === 1 ? Number(v) : BigInt(v)))),
      );
      const [[plan]] = await engine.rows(`EXPLAIN ${sql}`);
      expect(plan).to.contain('RecursiveUnion[maxDepth = 2000]');
    } finally {
      await engine.run('RESET SESSION max_recursion_depth');
    }
  });

  it('counts the levels it holds against the query memory limit', async () => {
    const small = new EngineHarness({ memoryLimitBytes: 8 << 20 });
    const levels = (last: number) =>
      `WITH RECURSIVE t(n, s) AS (SELECT 1, rpad('x', 1000, 'x') UNION ALL SELECT n + 1, s FROM t CROSS JOIN UNNEST(sequence(1, 4)) WHERE n < ${last}) SELECT count(*) FROM t`;
    expect(await small.rows(levels(5))).to.deep.equal([[341n]]);
    // Level 7 alone holds 4^6 rows of 1 kB: more than the 8 MB the query may use.
    expect((await small.failure(levels(8))).errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
  });

  it("refuses misshaped recursive queries with Trino's errors", async () => {
    const cases: [string, string, string][] = [
      [
        'WITH RECURSIVE t AS (SELECT 1 UNION ALL SELECT 1 FROM t) SELECT * FROM t',
        'MISSING_COLUMN_ALIASES',
        'line 1:16: missing column aliases in recursive WITH query',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT n FROM t) SELECT * FROM t',
        'INVALID_RECURSIVE_REFERENCE',
        'line 1:39: recursive reference not allowed in this context',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT n FROM t UNION ALL SELECT n FROM t) SELECT * FROM t',
        'INVALID_RECURSIVE_REFERENCE',
        'line 1:39: WITH table name is referenced in the base relation of recursion',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT a.n FROM t a, t b) SELECT * FROM t',
        'INVALID_RECURSIVE_REFERENCE',
        'line 1:65: multiple recursive references in the step relation of recursion',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT (SELECT max(n) FROM t)) SELECT * FROM t',
        'INVALID_RECURSIVE_REFERENCE',
        'line 1:71: recursive reference outside of FROM clause of the step relation of recursion',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n FROM edges LEFT JOIN t ON true) SELECT * FROM t',
        'INVALID_RECURSIVE_REFERENCE',
        'line 1:74: recursive reference in right source of LEFT join',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n FROM (SELECT 1 EXCEPT SELECT n FROM t) x(n)) SELECT * FROM t',
        'INVALID_RECURSIVE_REFERENCE',
        'line 1:89: recursive reference in right relation of EXCEPT DISTINCT',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t ORDER BY 1) SELECT * FROM t',
        'NOT_SUPPORTED',
        'immediate ORDER BY clause in recursive query',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t LIMIT 3) SELECT * FROM t',
        'INVALID_LIMIT_CLAUSE',
        'line 1:70: immediate FETCH FIRST / LIMIT clause in recursive query',
      ],
      [
        "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT BIGINT '1' FROM t) SELECT * FROM t",
        'TYPE_MISMATCH',
        'line 1:44: recursion step relation output type (bigint) is not coercible to recursion base relation output type (integer) at column 1',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 1, 2 FROM t) SELECT * FROM t',
        'TYPE_MISMATCH',
        'line 1:44: base and step relations of recursion have different number of fields: 1, 2',
      ],
      [
        'WITH RECURSIVE t(n, m) AS (SELECT 1 UNION ALL SELECT 1 FROM t) SELECT * FROM t',
        'MISMATCHED_COLUMN_ALIASES',
        'line 1:18: Column alias list has 2 entries but relation has 1 columns',
      ],
      [
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n FROM (WITH RECURSIVE u(m) AS (SELECT 1) SELECT m AS n FROM u, t)) SELECT * FROM t',
        'NESTED_RECURSIVE',
        'line 1:59: nested recursive WITH query',
      ],
    ];
    for (const [sql, name, message] of cases) {
      const error = await engine.failure(sql);
      expect([error.errorName, error.message], sql).to.deep.equal([name, message.startsWith('line') ? message : error.message]);
      expect(error.message, sql).to.contain(message);
    }
  });
});
