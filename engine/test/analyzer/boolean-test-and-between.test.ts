// IS [NOT] TRUE / FALSE / UNKNOWN and BETWEEN [NOT] SYMMETRIC / ASYMMETRIC answer as DuckDB does on
// the same rows, NULLs in every position. DuckDB (1.5) has no BETWEEN SYMMETRIC: it evaluates the
// SQL standard's definition, `(x BETWEEN a AND b) OR (x BETWEEN b AND a)`, which is what Trino runs.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';

const BOOLEANS = ['true', 'false', 'NULL'];
const NUMBERS = ['NULL', '0', '2', '5'];

/** Every combination of a boolean, a value and two bounds, NULL among each. */
function rows(): string[] {
  const out: string[] = [];
  for (const b of BOOLEANS)
    for (const x of NUMBERS) for (const lo of NUMBERS) for (const hi of NUMBERS) out.push(`(${out.length}, ${b}, ${x}, ${lo}, ${hi})`);
  return out;
}

/** DuckDB returns BigInt for BIGINT and numbers for INTEGER; compare as text. */
function normalized(result: unknown[][]): string[][] {
  return result.map((row) => row.map((v) => (v === null ? 'NULL' : String(v))));
}

describe('IS TRUE / FALSE / UNKNOWN and BETWEEN SYMMETRIC equal DuckDB', () => {
  let h: EngineHarness;
  let duck: DuckDBConnection;
  const values = rows();

  before(async () => {
    h = new EngineHarness();
    duck = await openDuckDb(1);
    const create = 'CREATE TABLE v (id integer, b boolean, x integer, lo integer, hi integer)';
    await h.run(create, `INSERT INTO v VALUES ${values.join(', ')}`);
    await duck.run(create);
    await duck.run(`INSERT INTO v VALUES ${values.join(', ')}`);
  });

  after(() => duck.closeSync());

  async function expectSame(engineSql: string, duckSql: string = engineSql): Promise<string[][]> {
    const ours = normalized((await h.query(engineSql)).rows);
    const theirs = normalized(await duckRows(duck, duckSql));
    expect(ours, engineSql).to.deep.equal(theirs);
    return ours;
  }

  it('IS [NOT] TRUE | FALSE | UNKNOWN on TRUE, FALSE and NULL is never NULL', async () => {
    const tests = [
      'b IS TRUE',
      'b IS NOT TRUE',
      'b IS FALSE',
      'b IS NOT FALSE',
      'b IS UNKNOWN',
      'b IS NOT UNKNOWN',
      '(x > lo) IS TRUE',
      '(x > lo) IS NOT FALSE',
      'NOT b IS TRUE',
    ];
    const result = await expectSame(`SELECT id, ${tests.join(', ')} FROM v ORDER BY id`);
    expect(result).to.have.length(values.length);
    expect(result.flat().slice(1)).to.not.include('NULL');
    await expectSame('SELECT id FROM v WHERE b IS NOT TRUE AND x IS NOT NULL ORDER BY id');
    await expectSame('SELECT NULL IS TRUE, NULL IS NOT TRUE, NULL IS FALSE, NULL IS NOT FALSE, NULL IS UNKNOWN, NULL IS NOT UNKNOWN');
  });

  it('BETWEEN SYMMETRIC accepts the bounds in either order, with NULL bounds and values', async () => {
    const symmetric = (x: string, a: string, b: string) => `((${x} BETWEEN ${a} AND ${b}) OR (${x} BETWEEN ${b} AND ${a}))`;
    await expectSame(
      'SELECT id, x BETWEEN SYMMETRIC lo AND hi, x NOT BETWEEN SYMMETRIC lo AND hi, x BETWEEN ASYMMETRIC lo AND hi, x NOT BETWEEN ASYMMETRIC hi AND lo FROM v ORDER BY id',
      `SELECT id, ${symmetric('x', 'lo', 'hi')}, NOT ${symmetric('x', 'lo', 'hi')}, x BETWEEN lo AND hi, x NOT BETWEEN hi AND lo FROM v ORDER BY id`,
    );
    await expectSame(
      'SELECT id FROM v WHERE x BETWEEN SYMMETRIC hi AND lo ORDER BY id',
      `SELECT id FROM v WHERE ${symmetric('x', 'hi', 'lo')} ORDER BY id`,
    );
    await expectSame(
      "SELECT 'b' BETWEEN SYMMETRIC 'c' AND 'a', DECIMAL '1.5' BETWEEN SYMMETRIC 2 AND 1, DATE '2020-02-01' BETWEEN SYMMETRIC DATE '2020-03-01' AND DATE '2020-01-01'",
      `SELECT ${symmetric("'b'", "'c'", "'a'")}, ${symmetric('1.5', '2', '1')}, ${symmetric("DATE '2020-02-01'", "DATE '2020-03-01'", "DATE '2020-01-01'")}`,
    );
  });

  it('counts what the filters keep the way DuckDB does', async () => {
    await expectSame(
      'SELECT count(*) FILTER (WHERE b IS NOT FALSE), count(*) FILTER (WHERE x BETWEEN SYMMETRIC hi AND lo), count(*) FILTER (WHERE x NOT BETWEEN SYMMETRIC hi AND lo) FROM v',
      'SELECT count(*) FILTER (WHERE b IS NOT FALSE), count(*) FILTER (WHERE (x BETWEEN hi AND lo) OR (x BETWEEN lo AND hi)), count(*) FILTER (WHERE NOT ((x BETWEEN hi AND lo) OR (x BETWEEN lo AND hi))) FROM v',
    );
  });

  it('refuses a boolean test on a value that is not boolean, as Trino words it', async () => {
    const error = await h.failure('SELECT x IS TRUE FROM v');
    expect([error.errorName, error.message]).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:8: Boolean test value must evaluate to a boolean (actual: integer)',
    ]);
  });
});
