// Dynamic filters crossing stages with a key bitmap (dynamic_filter_remote_key_bitmap_max_size), on
// a lake cluster of a coordinator and 2 workers: a build of more integer keys than a filter lists
// (60,000 multiples of 3) reaches the scan below a repartitioned aggregation as a bitmap, so the
// scan drops the rows no key matches where the keys' range alone drops none. A partitioned join's
// tasks each send the bitmap of their partitions' keys, which the coordinator ORs; a broadcast
// build's task sends the whole. DuckDB reading the same files is the oracle, with the bitmap sent
// and not (0B): NULL keys on both sides, an empty build, keys beyond 2^53 (no bitmap, the range
// only), and a filter that arrives after the scan started (no wait).

import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { duckDbRows } from '../connectors/lake/lake-fixture.js';
import { query } from '../support/statement-http.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

describe('dynamic filters across stages with key bitmaps on a lake cluster of a coordinator and 2 workers', function () {
  this.timeout(300_000);
  const lake = withLakeCluster(2, 'engine-remote-key-bitmaps-');
  const { cluster } = lake;
  const folders = { facts: '', builds: '' };

  before(async () => {
    for (const table of ['facts', 'builds'] as const) {
      folders[table] = join(lake.dir, table);
      mkdirSync(folders[table], { recursive: true });
    }
    // 400,000 facts over keys 0..199,999, every 1,000th key of the last file NULL; 4 files of 4 row
    // groups. The other files' row groups lie within the build keys' range, without NULLs: their
    // statistics alone prove nothing, each row is tested against the bitmap.
    for (let file = 0; file < 4; file++) {
      await duckDbRows(
        `COPY (SELECT CASE WHEN i % 1000 = 999 AND i >= 300000 THEN NULL ELSE i // 2 END::BIGINT AS k, (i % 97)::BIGINT AS v
               FROM range(${file * 100_000}, ${file * 100_000 + 100_000}) r(i))
         TO '${folders.facts}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 25000)`,
      );
    }
    // Builds by name: 60,000 keys 0, 3, 6.. (a third of their span), some NULL, and one beyond 2^53 in `huge`.
    await duckDbRows(
      `COPY (SELECT 'thirds' AS name, (3 * i)::BIGINT AS key FROM range(60000) r(i)
             UNION ALL SELECT 'thirds', NULL FROM range(50)
             UNION ALL SELECT 'huge', CASE WHEN i = 0 THEN 9007199254740993 ELSE 3 * i END::BIGINT FROM range(60000) r(i))
       TO '${folders.builds}/builds.parquet' (FORMAT PARQUET)`,
    );
    for (const table of ['facts', 'builds'] as const)
      await query(cluster.coordinator.uri, `CREATE TABLE lake.default.${table} WITH (external_location = 'file://${folders[table]}/')`);
  });

  // The grouped sums are repartitioned by k to the join's stage: the join and the facts' scan are in different fragments.
  const joined = (facts: string, builds: string, name: string) =>
    `SELECT CAST(count(*) AS varchar), CAST(sum(g.s) AS varchar), CAST(sum(g.k) AS varchar)
     FROM (SELECT k, sum(v) AS s FROM ${facts} GROUP BY k) g JOIN (SELECT key FROM ${builds} WHERE name = '${name}') d ON g.k = d.key`;
  const duckDbAnswer = (name: string) =>
    duckDbRows(joined(`read_parquet('${folders.facts}/*.parquet')`, `read_parquet('${folders.builds}/*.parquet')`, name));
  const headers = (session: string): Record<string, string> => ({
    'X-Trino-Session': `single_node_aggregation=false,${session}`,
  });
  /** The rows the facts' scan passed on (the input of its fragment's source operator), and the query's answer. */
  const run = async (name: string, properties: string) => {
    const session = `dynamic_filtering_wait_timeout=60s,${properties}`;
    const sql = joined('lake.default.facts', 'lake.default.builds', name);
    const answer = await query(cluster.coordinator.uri, sql, headers(session));
    const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ANALYZE ${sql}`, headers(session)))[0][0]);
    const fragment = plan.split('\n\n').find((f) => f.includes('TableScan[table = lake:default.facts'));
    const rows = /Input: (\d+) rows/.exec(fragment ?? '');
    expect(fragment, plan).to.match(/#df_\d+ \(remote\)/);
    return { answer, scanRows: Number(rows?.[1]), plan };
  };

  for (const distribution of ['PARTITIONED', 'BROADCAST']) {
    it(`${distribution}: the bitmap reaches the scan, which passes on only the rows of build keys, answering as DuckDB does`, async () => {
      const expected = await duckDbAnswer('thirds');
      const session = `join_distribution_type=${distribution}`;
      const sent = await run('thirds', session);
      const rangeOnly = await run('thirds', `${session},dynamic_filter_remote_key_bitmap_max_size=0B`);
      const off = await run('thirds', `${session},dynamic_filter_key_bitmap=false`);
      for (const r of [sent, rangeOnly, off]) expect(r.answer).to.deep.equal(expected);
      // Keys 0..179,997 are 90% of the facts' rows; a third of those share a key with the build.
      expect(rangeOnly.scanRows, rangeOnly.plan).to.be.above(300_000);
      expect(off.scanRows, off.plan).to.equal(rangeOnly.scanRows);
      expect(sent.scanRows, sent.plan).to.be.below(rangeOnly.scanRows / 2);
      if (distribution === 'PARTITIONED') expect(sent.plan).to.match(/distribution = PARTITIONED/);
    });
  }

  it('keys beyond 2^53 keep only their range; an empty build and NULL keys answer as DuckDB does', async () => {
    for (const name of ['huge', 'none']) {
      const expected = await duckDbAnswer(name);
      for (const session of ['join_distribution_type=PARTITIONED', 'join_distribution_type=BROADCAST']) {
        const r = await run(name, session);
        expect(r.answer, `${name} ${session}`).to.deep.equal(expected);
        if (name === 'huge') expect(r.scanRows, r.plan).to.be.above(300_000);
      }
    }
  });

  it('a bitmap that arrives after the scan started (no wait) changes no answer', async () => {
    const expected = await duckDbAnswer('thirds');
    for (const distribution of ['PARTITIONED', 'BROADCAST']) {
      const sql = joined('lake.default.facts', 'lake.default.builds', 'thirds');
      const session = `join_distribution_type=${distribution},dynamic_filtering_wait_timeout=0s`;
      expect(await query(cluster.coordinator.uri, sql, headers(session)), distribution).to.deep.equal(expected);
    }
  });
});
