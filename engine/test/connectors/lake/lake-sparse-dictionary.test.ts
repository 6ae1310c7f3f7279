// When a filter the lake reader applies keeps few rows of a page, the other dictionary-encoded columns
// decode only those rows' indices (parquet/rle-picks.ts): read from bit-packed runs of several bit
// widths and from RLE runs, in files of DuckDB's layouts (v1 and v2 pages, dictionaries or not),
// every row and value answers as DuckDB does over the same file, and so do denser filters (which
// decode whole pages), filters keeping one row or none, and further filters tested on picked rows.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerProcess } from '../../support/server-process.js';
import { query } from '../../support/statement-http.js';
import { DUCKDB_PARQUET_LAYOUTS, duckDbRows, lakeConfigFile } from './lake-fixture.js';

/** k is a permutation of the rows, so a filter on it keeps rows scattered over every page. */
const COLUMNS = `(i * 7919) % 200000 AS k, ['x', 'y', 'z'][i % 3 + 1] AS small, ((i * 31) % 300)::INTEGER AS mid,
  ((i * 13) % 5000)::INTEGER AS wide, (i // 1000)::INTEGER AS runs, DATE '1992-01-01' + (i * 17 % 2500)::INTEGER AS d,
  (((i * 37) % 5001) / 100)::DECIMAL(12,2) AS price, 'name#' || (i % 700) AS name, ((i % 40000) * 1000003)::BIGINT AS big,
  'same' AS same`;

/** DuckDB's layouts, and row groups of many pages. */
const LAYOUTS: ReadonlyArray<[label: string, options: string]> = [
  ...DUCKDB_PARQUET_LAYOUTS,
  ['dictionaries, row groups of 100,000 rows', 'ROW_GROUP_SIZE 100000'],
];

const WHERES = [
  'k < 3000',
  'k BETWEEN 100000 AND 100400',
  'k IN (0, 1, 7919, 199999, 123457, 55555)',
  'k = 12345',
  'k < 0',
  'k < 40000',
  'k >= 150000',
  // A second filter on a dictionary column, tested on the picked rows only.
  "k < 3000 AND small = 'y'",
  'mid < 100 AND k < 5000',
  'k BETWEEN 1000 AND 9000 AND wide BETWEEN 10 AND 2000 AND runs >= 50',
  "k < 20000 AND d >= DATE '1995-01-01' AND name IN ('name#3', 'name#77', 'name#699')",
];

const rowsOf = (from: string, where: string) =>
  `SELECT CAST(k AS varchar), small, CAST(mid AS varchar), CAST(wide AS varchar), CAST(runs AS varchar), CAST(d AS varchar),
    CAST(price AS varchar), name, CAST(big AS varchar), same FROM ${from} WHERE ${where} ORDER BY k`;

describe('lake: columns decoded only at the few rows a filter keeps answer as DuckDB does', function () {
  this.timeout(300_000);
  let dir: string;
  let server: ServerProcess;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-lake-sparse-dict-'));
    server = await ServerProcess.start(['--config', lakeConfigFile(dir, join(dir, 'catalog'))]);
    for (const [index, [, options]] of LAYOUTS.entries()) {
      const folder = join(dir, 'data', `t${index}`);
      mkdirSync(folder, { recursive: true });
      await duckDbRows(`COPY (SELECT ${COLUMNS} FROM range(200000) r(i)) TO '${join(folder, 'a.parquet')}' (FORMAT PARQUET, ${options})`);
      await query(server.uri, `CREATE TABLE lake.default.t${index} WITH (external_location = 'file://${folder}/')`);
    }
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [index, [label]] of LAYOUTS.entries()) {
    for (const where of WHERES) {
      it(`${label}: ${where}`, async () => {
        const expected = await duckDbRows(rowsOf(`read_parquet('${join(dir, 'data', `t${index}`, 'a.parquet')}')`, where));
        expect(await query(server.uri, rowsOf(`lake.default.t${index}`, where))).to.deep.equal(expected);
      });
    }
  }
});
