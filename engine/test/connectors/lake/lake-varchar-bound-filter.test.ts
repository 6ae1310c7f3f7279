// A table declaring varchar(5) over a Parquet file of plain strings, some longer (read cut to five
// characters): filters on the column answer as DuckDB does over the cut values, whether the reader
// applies them (constants shorter than the bound judge cut and uncut values alike) or leaves them to
// the engine (a constant of the bound's length could equal a cut value); the reader's filters skip
// row groups by their statistics.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerProcess } from '../../support/server-process.js';
import { query } from '../../support/statement-http.js';
import { duckDbRows, lakeConfigFile } from './lake-fixture.js';

/** Strings around the bound: shorter, of its length, longer (cut to 'abcde' or 'abcdz'), non-ASCII, NULL. */
const STRINGS = ['ab', 'abc', 'abcd', 'abcde', 'abcdef', 'abcdefgh', 'abcdz', 'abcdzz', 'abd', 'b', 'bcdefg', 'zé', 'zéèêë€x', 'zz'];

const WHERES = [
  "s = 'abc'",
  "s = 'abcde'",
  "s = 'abcdef'",
  "s IN ('ab', 'abd', 'zz')",
  "s IN ('abcde', 'b')",
  "s < 'abd'",
  "s > 'abcd'",
  "s >= 'abcd' AND s < 'abce'",
  "s BETWEEN 'abc' AND 'abcdz'",
  "s LIKE 'abcd%'",
  "s > 'b'",
  "s = 'zéèêë'",
  "s < 'zé' AND v > 10",
  "s <> 'abcde'",
];

const summary = (from: string, where: string) =>
  `SELECT CAST(count(*) AS varchar), CAST(sum(id) AS varchar), CAST(sum(v) AS varchar), min(s), max(s) FROM ${from} WHERE ${where}`;

describe('lake: filters on a varchar(n) column over longer strings in Parquet answer as DuckDB does over the cut strings', function () {
  this.timeout(180_000);
  let dir: string;
  let server: ServerProcess;
  let path: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-lake-varchar-bound-'));
    path = join(dir, 'data', 'items', 'a.parquet');
    mkdirSync(join(dir, 'data', 'items'), { recursive: true });
    const list = STRINGS.map((s) => `'${s}'`).join(', ');
    // Sorted by the string so that row groups of 2,000 rows hold few distinct values (their statistics prune).
    await duckDbRows(
      `COPY (SELECT i::BIGINT AS id, CASE WHEN i % 11 = 0 THEN NULL ELSE [${list}][(i * 7) % ${STRINGS.length} + 1] END AS s,
        (i % 97)::BIGINT AS v FROM range(30000) r(i) ORDER BY s NULLS LAST, id) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 2000)`,
    );
    server = await ServerProcess.start(['--config', lakeConfigFile(dir, join(dir, 'catalog'))]);
    await query(
      server.uri,
      `CREATE TABLE lake.default.items (id bigint, s varchar(5), v bigint) WITH (external_location = 'file://${join(dir, 'data', 'items')}/')`,
    );
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const where of WHERES) {
    it(where, async () => {
      const cut = `(SELECT id, left(s, 5) AS s, v FROM read_parquet('${path}'))`;
      const expected = await duckDbRows(summary(cut, where));
      expect(await query(server.uri, summary('lake.default.items', where))).to.deep.equal(expected);
    });
  }

  it('an equality with a constant shorter than the bound skips the row groups whose statistics cannot hold it', async () => {
    const plan = String((await query(server.uri, `EXPLAIN ANALYZE ${summary('lake.default.items', "s = 'abd'")}`))[0][0]);
    const metric = (name: string) => Number(new RegExp(`\\b${name} = (\\d+)`).exec(plan)?.[1]);
    expect(metric('rowGroupsSkipped'), plan).to.be.greaterThan(metric('rowGroupsRead'));
  });
});
