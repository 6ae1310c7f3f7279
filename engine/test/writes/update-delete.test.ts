// UPDATE, DELETE and TRUNCATE on memory tables: the same statements run on the same random rows in
// the engine and in DuckDB, and after each the update count and the whole table must agree. A
// statement that fails part-way changes nothing (all or nothing), and bad input gets Trino's errors.

import { expect } from 'chai';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EngineHarness } from '../support/engine-harness.js';

/** Deterministic pseudo-random numbers (a 32-bit LCG), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ROWS = 10_000;
const COLUMNS = 'id bigint, k integer, v double, s varchar, d decimal(12,2), b boolean';

function randomValues(next: () => number): string {
  const rows: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const k = next() < 0.05 ? 'NULL' : String(Math.floor(next() * 100) - 20);
    const v = next() < 0.05 ? 'NULL' : (Math.floor(next() * 100000) / 100).toFixed(2);
    const s = next() < 0.05 ? 'NULL' : `'${['alpha', 'beta', 'gamma', 'delta', ''][Math.floor(next() * 5)]}${Math.floor(next() * 10)}'`;
    const d = next() < 0.05 ? 'NULL' : `${(Math.floor(next() * 2000000) - 1000000) / 100}`;
    const b = next() < 0.05 ? 'NULL' : next() < 0.5 ? 'true' : 'false';
    rows.push(`(${i}, ${k}, ${v}, ${s}, ${d}, ${b})`);
  }
  return rows.join(', ');
}

/** Statements both engines run alike: [engine SQL, DuckDB SQL when its spelling differs]. */
const STATEMENTS: [string, string?][] = [
  ['UPDATE t SET v = v * 2 + k WHERE k % 7 = 3'],
  ["UPDATE t SET s = s || '!', b = NOT b WHERE s LIKE 'a%' OR k IS NULL"],
  ['DELETE FROM t WHERE v > 900 AND b'],
  ['UPDATE t SET d = d * 3, k = NULL WHERE d BETWEEN -100 AND 100'],
  ['UPDATE t SET k = k + 1'],
  ["DELETE FROM t WHERE s IN ('beta1', 'gamma2') OR d IS NULL"],
  ['UPDATE t SET v = CAST(id AS double) / 3, s = CAST(k AS varchar) WHERE id % 5 = 0'],
  ['UPDATE t SET id = id + 1000000 WHERE false'],
  ["UPDATE t SET s = CASE WHEN k > 40 THEN 'big' ELSE s END, d = coalesce(d, 0) WHERE v IS NOT NULL AND v < 50"],
  ['DELETE FROM t WHERE id % 3 = 1'],
  ['DELETE FROM t'],
];

describe('UPDATE, DELETE and TRUNCATE on memory tables', () => {
  let h: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    duck = await (await DuckDBInstance.create(':memory:')).connect();
  });

  after(() => duck.closeSync());

  beforeEach(async () => {
    h = new EngineHarness();
  });

  /** The same random rows (more than one stored batch) in `t` on both sides. */
  async function randomTable(): Promise<void> {
    const values = randomValues(random(19));
    await h.run(`CREATE TABLE t (${COLUMNS})`, `INSERT INTO t VALUES ${values}`);
    await duck.run('DROP TABLE IF EXISTS t');
    await duck.run(`CREATE TABLE t (${COLUMNS})`);
    await duck.run(`INSERT INTO t VALUES ${values}`);
  }

  async function tablesAgree(after: string): Promise<void> {
    const select = 'SELECT id, k, v, s, CAST(d AS varchar), b FROM t ORDER BY id';
    const ours = (await h.rows(select)).map((r) => r.map((x) => (x === null ? null : String(x))));
    const theirs = (await duck.runAndReadAll(select)).getRowsJS().map((r) => r.map((x) => (x === null ? null : String(x))));
    expect(ours.length, after).to.equal(theirs.length);
    expect(ours, after).to.deep.equal(theirs);
  }

  it('changes the same rows as DuckDB, statement after statement, and reports the same counts', async () => {
    await randomTable();
    for (const [sql, duckSql] of STATEMENTS) {
      const ours = await h.query(sql);
      const theirs = await duck.runAndReadAll(duckSql ?? sql);
      expect(ours.result.updateType, sql).to.equal(sql.split(' ')[0]);
      expect(ours.result.updateCount, sql).to.equal(theirs.rowsChanged);
      expect(ours.rows, sql).to.deep.equal([[BigInt(theirs.rowsChanged)]]);
      await tablesAgree(sql);
    }
  });

  it('changes nothing when a statement fails part-way (all or nothing)', async () => {
    // 60,175 rows in several stored batches; only the row of the last id fails, after the others were computed.
    await h.run(
      'CREATE TABLE t AS SELECT l_orderkey * 8 + l_linenumber AS id, l_linenumber AS k, l_extendedprice AS v FROM tpch.tiny.lineitem',
    );
    const before = await h.rows('SELECT count(*), sum(k), sum(v), max(id) FROM t');
    const last = before[0][3] as bigint;
    const e = await h.failure(`UPDATE t SET k = k + 1, v = v / (id - ${last})`);
    expect([e.errorName, e.message]).to.deep.equal(['DIVISION_BY_ZERO', 'Division by zero']);
    expect(await h.rows('SELECT count(*), sum(k), sum(v), max(id) FROM t')).to.deep.equal(before);
    const d = await h.failure(`DELETE FROM t WHERE k / (id - ${last}) >= 0`);
    expect([d.errorName, d.message]).to.deep.equal(['DIVISION_BY_ZERO', 'Division by zero']);
    expect(await h.rows('SELECT count(*), sum(k), sum(v), max(id) FROM t')).to.deep.equal(before);
    await h.run('CREATE TABLE small (x tinyint NOT NULL)', 'INSERT INTO small VALUES 1, 2, 100');
    expect((await h.failure('UPDATE small SET x = x + 100')).errorName).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
    expect((await h.failure('UPDATE small SET x = NULL WHERE x = 2')).message).to.equal('NULL value not allowed for NOT NULL column: x');
    expect(await h.rows('SELECT x FROM small ORDER BY x')).to.deep.equal([[1], [2], [100]]);
  });

  it('casts SET values to the column type as Trino does, and truncates', async () => {
    await h.run('CREATE TABLE c (i bigint, s varchar(3), d decimal(5,1))', "INSERT INTO c VALUES (1, 'a', 1.5)");
    expect(await h.rows("UPDATE c SET i = 7, s = 'xyz', d = 2.25")).to.deep.equal([[1n]]);
    expect(await h.rows('SELECT i, s, CAST(d AS varchar) FROM c')).to.deep.equal([[7n, 'xyz', '2.3']]);
    await h.run('CREATE TABLE t AS SELECT * FROM tpch.tiny.nation');
    const truncated = await h.query('TRUNCATE TABLE t');
    expect([truncated.result.updateType, truncated.rows]).to.deep.equal(['TRUNCATE TABLE', []]);
    expect(await h.rows('SELECT count(*) FROM t')).to.deep.equal([[0n]]);
  });

  it('runs prepared UPDATE and DELETE with parameters, and describes their output', async () => {
    await h.run('CREATE TABLE p (id bigint, k integer)', 'INSERT INTO p VALUES (1, 10), (2, 20), (3, 30)');
    await h.run('PREPARE change FROM UPDATE p SET k = k + ? WHERE id >= ?', 'PREPARE remove FROM DELETE FROM p WHERE k = ?');
    expect(await h.rows('EXECUTE change USING 5, 2')).to.deep.equal([[2n]]);
    expect(await h.rows('EXECUTE remove USING 35')).to.deep.equal([[1n]]);
    expect(await h.rows('SELECT id, k FROM p ORDER BY id')).to.deep.equal([
      [1n, 10],
      [2n, 25],
    ]);
    expect(await h.rows('DESCRIBE OUTPUT change')).to.deep.equal([['rows', '', '', '', 'bigint', 8n, false]]);
  });

  it("fails with Trino's errors for bad input", async () => {
    await h.run(`CREATE TABLE t (${COLUMNS})`);
    const cases: [string, string, string][] = [
      ['UPDATE t SET nosuch = 1', 'COLUMN_NOT_FOUND', "line 1:14: The UPDATE SET target column nosuch doesn't exist"],
      [
        "UPDATE t SET k = 'x'",
        'TYPE_MISMATCH',
        "line 1:1: UPDATE table column types don't match SET expressions: Table: [integer], Expressions: [varchar(1)]",
      ],
      ['UPDATE t SET k = 1 WHERE v', 'TYPE_MISMATCH', 'line 1:26: WHERE clause must evaluate to a boolean: actual type double'],
      ['UPDATE t SET k = 1 WHERE nosuch = 1', 'COLUMN_NOT_FOUND', "line 1:26: Column 'nosuch' cannot be resolved"],
      ['UPDATE nosuch SET k = 1', 'TABLE_NOT_FOUND', "line 1:8: Table 'memory.default.nosuch' does not exist"],
      ['TRUNCATE TABLE nosuch', 'TABLE_NOT_FOUND', "line 1:16: Table 'memory.default.nosuch' does not exist"],
      ["UPDATE tpch.tiny.nation SET n_name = 'x'", 'NOT_SUPPORTED', 'line 1:1: This connector does not support modifying table rows'],
      ['TRUNCATE TABLE tpch.tiny.nation', 'NOT_SUPPORTED', 'line 1:1: This connector does not support truncating tables'],
    ];
    for (const [sql, name, message] of cases) {
      const e = await h.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal([name, message]);
    }
  });
});
