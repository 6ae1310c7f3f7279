// A lake catalog on a coordinator and 2 workers sharing one folder (all nodes are local): a
// partitioned table's files are read by the workers (DuckDB reading the same files is the oracle),
// Parquet list columns read on the workers cross the exchange as arrays, CREATE TABLE AS from tpch
// writes a table (array columns too) every node then reads, and bad files fail their query on
// the coordinator with the error the worker raised (name and message naming the file); a file of a
// few large row groups is read one row group per split.

import { expect } from 'chai';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { duckDbRows, explainMetricTotal, ROW_GROUPS_SUMMARY, writeFourLargeRowGroups } from '../connectors/lake/lake-fixture.js';
import { query, runStatement } from '../support/statement-http.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

describe('lake on a cluster of a coordinator and 2 workers', function () {
  this.timeout(180_000);
  const lake = withLakeCluster(2, 'engine-lake-cluster-');
  const { cluster } = lake;

  it('reads a partitioned table on the workers as DuckDB reads its files, pruning partitions', async () => {
    for (let day = 1; day <= 4; day++) {
      for (let file = 0; file < 3; file++) {
        const folder = join(lake.dir, 'events', `day=2024-01-0${day}`);
        mkdirSync(folder, { recursive: true });
        const rows = Array.from({ length: 200 }, (_, i) => `${day * 10000 + file * 1000 + i},${(i * 7) % 13},"e ${i}"`);
        writeFileSync(join(folder, `part-${file}.csv`), `${rows.join('\n')}\n`);
      }
    }
    const uri = cluster.coordinator.uri;
    await query(
      uri,
      `CREATE TABLE lake.default.events (id bigint, kind integer, label varchar, day date) WITH (format = 'CSV', partitioned_by = ARRAY['day'], external_location = 'file://${lake.dir}/events/')`,
    );
    const sql = (from: string) =>
      `SELECT kind, count(*), sum(id), min(label), CAST(max(day) AS varchar) FROM ${from} WHERE day >= DATE '2024-01-02' GROUP BY kind ORDER BY kind`;
    const duck = await duckDbRows(
      sql(
        `read_csv('${lake.dir}/events/*/*.csv', header = false, columns = {'id': 'BIGINT', 'kind': 'INTEGER', 'label': 'VARCHAR'}, hive_partitioning = true, hive_types = {'day': DATE})`,
      ),
    );
    const ours = await query(uri, sql('lake.default.events'));
    expect(ours).to.deep.equal(duck.map((r) => r.map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v))));
    const plan = String((await query(uri, `EXPLAIN ANALYZE ${sql('lake.default.events')}`))[0][0]);
    // The tasks read the 9 files of the 3 days asked for (on worker threads, or in the task), not the 12.
    const filesRead = explainMetricTotal(plan, 'filesRead');
    expect(filesRead, plan).to.equal(9);
  });

  it('a join filters its probe scan on the workers with its build keys (dynamic filtering), answering as DuckDB does', async () => {
    const folder = join(lake.dir, 'facts');
    mkdirSync(folder, { recursive: true });
    for (let file = 0; file < 4; file++) {
      await duckDbRows(
        `COPY (SELECT i::BIGINT AS id, (i // 10)::INTEGER AS k FROM range(${file * 20000}, ${file * 20000 + 20000}) r(i)) TO '${folder}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 5000)`,
      );
    }
    const uri = cluster.coordinator.uri;
    await query(uri, `CREATE TABLE lake.default.facts WITH (external_location = 'file://${folder}/')`);
    const sql = (facts: string) =>
      `SELECT CAST(count(*) AS varchar), CAST(sum(f.id) AS varchar) FROM ${facts} f JOIN (VALUES (7), (4321), (7999)) d(k) ON f.k = d.k`;
    const [expected] = await duckDbRows(sql(`read_parquet('${folder}/*.parquet')`));
    for (const session of ['', 'enable_dynamic_filtering=false']) {
      const headers: Record<string, string> = session === '' ? {} : { 'X-Trino-Session': session };
      expect(await query(uri, sql('lake.default.facts'), headers), session).to.deep.equal([expected]);
      const plan = String((await query(uri, `EXPLAIN ANALYZE ${sql('lake.default.facts')}`, headers))[0][0]);
      const total = (metric: string) => explainMetricTotal(plan, metric);
      // Keys 7, 4321 and 7999 lie in 3 of the 16 row groups.
      expect([total('rowGroupsRead'), total('dynamicFilterSplitsProcessed')], plan).to.deep.equal(session === '' ? [3, 4] : [16, 0]);
    }
  });

  it('reads Parquet list columns on the workers: arrays cross the exchange equal to DuckDB, and cardinality / UNNEST answer as DuckDB does', async () => {
    const folder = join(lake.dir, 'lists');
    mkdirSync(folder, { recursive: true });
    for (let file = 0; file < 3; file++) {
      await duckDbRows(
        `COPY (SELECT i AS id, CASE WHEN i % 10 = 0 THEN NULL WHEN i % 10 = 1 THEN [] ELSE [i, NULL, -i] END AS ints, ['w' || (i % 4), NULL] AS words, CASE WHEN i % 3 = 0 THEN [[i], NULL, []] ELSE NULL END AS nested FROM range(${file * 3000}, ${file * 3000 + 3000}) r(i)) TO '${folder}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)`,
      );
    }
    const uri = cluster.coordinator.uri;
    await query(uri, `CREATE TABLE lake.default.lists WITH (external_location = 'file://${folder}/')`);
    const files = `read_parquet('${folder}/*.parquet')`;
    const json = (rows: unknown[][]) =>
      rows.map(([id, ...lists]) => [Number(id), ...lists.map((l) => (l === null ? null : JSON.parse(l as string)))]);
    const duck = json(
      await duckDbRows(
        `SELECT id, to_json(ints)::VARCHAR, to_json(words)::VARCHAR, to_json(nested)::VARCHAR FROM ${files} WHERE id % 7 = 2 ORDER BY id`,
      ),
    );
    expect(await query(uri, 'SELECT id, ints, words, nested FROM lake.default.lists WHERE id % 7 = 2 ORDER BY id')).to.deep.equal(duck);
    const numbers = (rows: unknown[][]) => rows.map((r) => r.map((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v)));
    expect(await query(uri, 'SELECT count(*), sum(cardinality(ints)), sum(cardinality(nested)) FROM lake.default.lists')).to.deep.equal(
      numbers(await duckDbRows(`SELECT count(*), sum(len(ints)), sum(len(nested)) FROM ${files}`)),
    );
    expect(
      await query(uri, 'SELECT w, count(*) FROM lake.default.lists CROSS JOIN UNNEST(words) AS u(w) GROUP BY w ORDER BY w NULLS FIRST'),
    ).to.deep.equal(
      numbers(await duckDbRows(`SELECT w, count(*) FROM (SELECT unnest(words) AS w FROM ${files}) GROUP BY w ORDER BY w NULLS FIRST`)),
    );
  });

  it('a file of 4 large row groups is read as 4 splits, one row group each, every row once as DuckDB reads it', async () => {
    mkdirSync(join(lake.dir, 'groups'));
    const file = join(lake.dir, 'groups', 'a.parquet');
    await writeFourLargeRowGroups(file);
    const uri = cluster.coordinator.uri;
    await query(uri, `CREATE TABLE lake.default.groups WITH (external_location = 'file://${lake.dir}/groups/')`);
    const [expected] = await duckDbRows(ROW_GROUPS_SUMMARY(`read_parquet('${file}')`));
    expect(await query(uri, ROW_GROUPS_SUMMARY('lake.default.groups'))).to.deep.equal([expected]);
    const plan = String((await query(uri, `EXPLAIN ANALYZE ${ROW_GROUPS_SUMMARY('lake.default.groups')}`))[0][0]);
    const total = (metric: string) => explainMetricTotal(plan, metric);
    // As byte ranges of 16 MiB, 3 splits held 2, 2 and 0 row groups.
    expect([total('splitsRead'), total('rowGroupsRead')], plan).to.deep.equal([4, 4]);
  });

  it('CREATE TABLE AS writes array columns that DuckDB reads back equal', async () => {
    const uri = cluster.coordinator.uri;
    const select =
      'SELECT o_orderkey AS id, CASE WHEN o_orderkey % 4 = 0 THEN NULL ELSE ARRAY[o_custkey, NULL, o_orderkey] END AS keys, ARRAY[ARRAY[o_orderstatus], CAST(ARRAY[] AS array(varchar))] AS nested FROM tpch.tiny.orders';
    expect(await query(uri, `CREATE TABLE lake.default.arrays_written AS ${select}`)).to.deep.equal([[15000]]);
    const duck = await duckDbRows(
      `SELECT id, to_json(keys)::VARCHAR, to_json(nested)::VARCHAR FROM read_parquet('${join(lake.dir, 'catalog', 'default', 'arrays_written')}/*.parquet') WHERE id % 11 = 3 ORDER BY id`,
    );
    const expected = await query(uri, `SELECT id, keys, nested FROM (${select}) WHERE id % 11 = 3 ORDER BY id`);
    expect(duck.map(([id, ...lists]) => [Number(id), ...lists.map((l) => (l === null ? null : JSON.parse(l as string)))])).to.deep.equal(
      expected,
    );
    expect(await query(uri, 'SELECT id, keys, nested FROM lake.default.arrays_written WHERE id % 11 = 3 ORDER BY id')).to.deep.equal(
      expected,
    );
  });

  it('CREATE TABLE AS from tpch writes a table that every node reads', async () => {
    const uri = cluster.coordinator.uri;
    expect(
      await query(
        uri,
        "CREATE TABLE lake.default.orders WITH (format = 'JSON', partitioned_by = ARRAY['o_orderstatus']) AS SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate, o_orderstatus FROM tpch.tiny.orders",
      ),
    ).to.deep.equal([[15000]]);
    const sql = (from: string) =>
      `SELECT o_orderstatus, count(*), sum(o_orderkey), CAST(sum(o_totalprice) AS varchar), CAST(max(o_orderdate) AS varchar) FROM ${from} GROUP BY o_orderstatus ORDER BY o_orderstatus`;
    expect(await query(uri, sql('lake.default.orders'))).to.deep.equal(await query(uri, sql('tpch.tiny.orders')));
  });

  it('a corrupt Parquet file and a bad CSV value fail their query with the error the worker raised, naming the file; the cluster goes on serving', async () => {
    const uri = cluster.coordinator.uri;
    mkdirSync(join(lake.dir, 'pq'));
    const good = join(lake.dir, 'pq', 'good.parquet');
    await duckDbRows(`COPY (SELECT i AS id FROM range(1000) r(i)) TO '${good}' (FORMAT PARQUET)`);
    const bytes = readFileSync(good);
    const corrupt = join(lake.dir, 'pq', 'corrupt.parquet');
    writeFileSync(corrupt, bytes.subarray(0, bytes.length - 20));
    await query(uri, `CREATE TABLE lake.default.pq (id bigint) WITH (external_location = 'file://${lake.dir}/pq/')`);
    mkdirSync(join(lake.dir, 'csv'));
    writeFileSync(join(lake.dir, 'csv', 'a.csv'), '1,x\n2,y\n');
    writeFileSync(join(lake.dir, 'csv', 'b.csv'), '3,z\nfour,w\n');
    await query(
      uri,
      `CREATE TABLE lake.default.csv (id bigint, v varchar) WITH (format = 'CSV', external_location = 'file://${lake.dir}/csv/')`,
    );
    // In the worker's task (one split at a time), and on the worker's threads (any number of splits).
    for (const minSplits of [0, 1]) {
      const session = { 'X-Trino-Session': `parallel_min_splits=${minSplits}` };
      const parquet = (await runStatement(uri, 'SELECT sum(id) FROM lake.default.pq', session)).final.error;
      expect(parquet?.errorName, parquet?.message).to.equal('HIVE_BAD_DATA');
      expect(parquet?.message).to.equal(
        `Corrupt Parquet file file://${corrupt}: it does not end with the Parquet magic bytes PAR1 (not a Parquet file, or truncated)`,
      );
      const csv = (await runStatement(uri, 'SELECT sum(id) FROM lake.default.csv', session)).final.error;
      expect(csv?.errorName, csv?.message).to.equal('HIVE_BAD_DATA');
      expect(csv?.message).to.equal(`file://${lake.dir}/csv/b.csv:2:1: column 'id': Cannot cast 'four' to BIGINT`);
    }
    rmSync(corrupt);
    expect(await query(uri, 'SELECT count(*), sum(id) FROM lake.default.pq')).to.deep.equal([[1000, 499500]]);
  });
});
