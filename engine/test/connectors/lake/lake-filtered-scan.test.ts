// Queries whose filters the lake reader applies itself (it decodes the filtered columns first and
// the others only for the rows left) answer as DuckDB does over the same Parquet file: decimal
// comparisons with literals of the column's scale, of other scales and integers, BETWEEN, IN, and
// filters on several columns at once; a decimal range prunes row groups by their statistics.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerProcess } from '../../support/server-process.js';
import { query } from '../../support/statement-http.js';
import { duckDbRows, lakeConfigFile } from './lake-fixture.js';

const WHERES = [
  'price BETWEEN 100.05 AND 250.5',
  'qty < 24',
  'qty > 23.995',
  'qty >= 24.00 AND qty <= 24.01',
  'price IN (10.5, 20.25, 999.99, 1000.001)',
  "big >= 5.5 AND flag = 'A'",
  "big < -99990.0000000001 OR flag = 'B'",
  "d >= DATE '1995-03-15' AND price < 30",
  'price = 0.1',
  'price > 5000',
];

const summary = (from: string, where: string) =>
  `SELECT CAST(count(*) AS varchar), CAST(sum(price) AS varchar), CAST(sum(qty) AS varchar), CAST(sum(big) AS varchar), CAST(min(id) AS varchar), CAST(max(d) AS varchar) FROM ${from} WHERE ${where}`;

describe('lake: filters applied while reading Parquet answer as DuckDB does', function () {
  this.timeout(180_000);
  let dir: string;
  let server: ServerProcess;
  let path: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-lake-filtered-'));
    path = join(dir, 'data', 'items', 'a.parquet');
    mkdirSync(join(dir, 'data', 'items'), { recursive: true });
    await duckDbRows(
      `COPY (SELECT i::BIGINT AS id, (i / 100)::DECIMAL(12,2) AS price, CASE WHEN i % 9 = 0 THEN NULL ELSE ((i * 37) % 5001 / 100)::DECIMAL(12,2) END AS qty,
        ((i - 50000) * 2.0000000001)::DECIMAL(38,10) AS big, CASE WHEN i % 7 = 0 THEN NULL ELSE ['A', 'B', 'C'][i % 3 + 1] END AS flag,
        DATE '1992-01-01' + (i * 17 % 2500)::INTEGER AS d FROM range(100000) r(i)) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 10000)`,
    );
    server = await ServerProcess.start(['--config', lakeConfigFile(dir, join(dir, 'catalog'))]);
    await query(server.uri, `CREATE TABLE lake.default.items WITH (external_location = 'file://${join(dir, 'data', 'items')}/')`);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const where of WHERES) {
    it(where, async () => {
      const expected = await duckDbRows(summary(`read_parquet('${path}')`, where));
      expect(await query(server.uri, summary('lake.default.items', where))).to.deep.equal(expected);
    });
  }

  it('a decimal range reads only the row groups whose statistics can hold it, and the scan returns only the matching rows', async () => {
    const where = 'price BETWEEN 100.05 AND 250.5';
    const [[matching]] = await duckDbRows(`SELECT count(*) FROM read_parquet('${path}') WHERE ${where}`);
    const plan = String((await query(server.uri, `EXPLAIN ANALYZE ${summary('lake.default.items', where)}`))[0][0]);
    const metric = (name: string) => Number(new RegExp(`\\b${name} = (\\d+)`).exec(plan)?.[1]);
    // DuckDB's row groups of 10,240 rows: rows 10005..25050 lie in three of them.
    expect([metric('rowGroupsRead'), metric('rowGroupsSkipped')], plan).to.deep.equal([3, 7]);
    const scanOutput = /TableScan\[[^\n]*\n[^\n]*\n\s*Output: (\d+) rows/.exec(plan)?.[1];
    expect(scanOutput, plan).to.equal(String(matching));
  });
});
