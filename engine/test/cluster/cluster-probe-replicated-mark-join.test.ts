// Semi and anti joins (EXISTS, NOT EXISTS, IN, NOT IN) on a coordinator and 2 workers whose small
// probe side is replicated to the tasks of the big build side's scan, marked there against each
// task's part of the build rows, and the marks of each probe row combined (EXPLAIN: distribution =
// PROBE_REPLICATED) give DuckDB's answers over the same Parquet files, with distributed_mark_join on
// and off: NULL keys on both sides, duplicate probe rows (each must come out), keys only one build
// file (so one worker) holds, a build side only one worker reads rows of, empty build and probe
// sides, join filters, two keys, bigint, varchar and decimal keys. Each task's part of the build side
// is filtered by the (replicated, so all the) probe keys: EXISTS, NOT EXISTS and filtering IN; a
// filtering one's tasks send only the rows they marked TRUE, and its combining stage keeps the first
// row of each number.

import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { duckDbRows } from '../connectors/lake/lake-fixture.js';
import { query } from '../support/statement-http.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';
import { buildFile, COUNTS, MANY_KEYS, PROBE_SIDE, QUERIES, sorted } from '../support/mark-join-cases.js';
import { withLakeCluster } from './lake-cluster-fixture.js';

const ON = { 'X-Trino-Session': 'distributed_mark_join=true' };
const OFF = { 'X-Trino-Session': 'distributed_mark_join=false' };

describe("semi and anti joins with their probe side replicated to the build side's workers equal DuckDB", function () {
  this.timeout(600_000);
  const lake = withLakeCluster(2, 'engine-probe-replicated-mark-join-');
  const { cluster } = lake;
  let probe = '';
  let build = '';
  const ours = (sql: string) => sql.replaceAll('{probe}', 'lake.default.probe_side').replaceAll('{build}', 'lake.default.build_side');
  const duckDbs = (sql: string) =>
    sql.replaceAll('{probe}', `read_parquet('${probe}/*.parquet')`).replaceAll('{build}', `read_parquet('${build}/*.parquet')`);
  const explain = async (sql: string, headers: Record<string, string>) =>
    String((await query(cluster.coordinator.uri, `EXPLAIN ${ours(sql)}`, headers)).map((r) => r[0]).join('\n'));

  before(async () => {
    probe = join(lake.dir, 'probe_side');
    build = join(lake.dir, 'build_side');
    mkdirSync(probe, { recursive: true });
    mkdirSync(build, { recursive: true });
    await duckDbRows(`COPY (${PROBE_SIDE}) TO '${probe}/a.parquet' (FORMAT PARQUET)`);
    for (let file = 0; file < 4; file++)
      await duckDbRows(`COPY (${buildFile(file)}) TO '${build}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 25000)`);
    for (const [name, folder] of [
      ['probe_side', probe],
      ['build_side', build],
    ])
      await query(cluster.coordinator.uri, `CREATE TABLE lake.default.${name} WITH (external_location = 'file://${folder}/')`);
  });

  for (const [name, sql] of Object.entries(QUERIES)) {
    it(`${name}: replicated probe side and moved build side both as DuckDB`, async () => {
      const expected = sorted(await duckDbRows(duckDbs(sql)));
      expect(await explain(sql, ON)).to.contain('distribution = PROBE_REPLICATED');
      expect(sorted(await query(cluster.coordinator.uri, ours(sql), ON)), 'probe replicated').to.deep.equal(expected);
      expect(await explain(sql, OFF)).not.to.contain('PROBE_REPLICATED');
      expect(sorted(await query(cluster.coordinator.uri, ours(sql), OFF)), 'build side moved').to.deep.equal(expected);
    });
  }

  it('EXPLAIN shows the probe rows numbered and replicated, the marks combined per number (its only key) after a repartition', async () => {
    const plan = await explain(QUERIES['NOT EXISTS'], ON);
    expect(plan).to.match(/AssignUniqueId\[probe_row_\d+\]/);
    expect(plan).to.match(/Output partitioning: BROADCAST \[\]\n\s*└─ AssignUniqueId\[probe_row_\d+\]/);
    expect(plan).to.match(/Output partitioning: HASH \[probe_row_\d+\]/);
    expect(plan).to.match(/max\(mark_code_\d+\)/);
    // Grouped by the number alone (an integer key), the probe row's columns carried beside the mark.
    expect(plan).to.match(/Aggregate\(SINGLE\)\[keys = \[probe_row_\d+\]\]/);
    expect(plan).to.match(/:= arbitrary\(id_\d+\)/);
  });

  it("filters each task's build side scan by the probe keys (EXISTS, NOT EXISTS, a filtering IN; not NOT IN): fewer rows reach the joins", async () => {
    const probeKeyFiltered = /SemiJoin\[[^\n]*distribution = PROBE_REPLICATED, probeKeyFilterAssignments = \{k_\d+ -> (#df_\d+)\}/;
    const filteringIn = `${COUNTS} WHERE p.k IN (SELECT k FROM {build} WHERE small > 20)`;
    for (const sql of [QUERIES.EXISTS, QUERIES['NOT EXISTS'], filteringIn]) {
      const plan = await explain(sql, ON);
      const id = probeKeyFiltered.exec(plan)?.[1];
      expect(id, `${sql}: ${plan}`).not.to.equal(undefined);
      expect(plan, sql).to.include(`dynamicFilters = {"k" = ${id}}`);
    }
    expect(sorted(await query(cluster.coordinator.uri, ours(filteringIn), ON))).to.deep.equal(
      sorted(await duckDbRows(duckDbs(filteringIn))),
    );
    const notIn = await explain(QUERIES['NOT IN with NULL build keys'], ON);
    expect(notIn).to.contain('PROBE_REPLICATED');
    expect(notIn).not.to.contain('probeKeyFilter');
    // The rows reaching the joins over both tasks: the probe rows twice and the build rows the scans gave.
    const joinInput = async (session: string) => {
      const headers = { 'X-Trino-Session': `distributed_mark_join=true${session}` };
      const analyzed = (await query(cluster.coordinator.uri, `EXPLAIN ANALYZE ${ours(QUERIES.EXISTS)}`, headers))
        .map((r) => r[0])
        .join('\n');
      const lines = analyzed.split('\n');
      const join = lines.findIndex((line) => line.includes('SemiJoin['));
      return Number(/Input: (\d+) rows/.exec(lines.slice(join).find((line) => line.includes('Input:')) ?? '')?.[1]);
    };
    const unfiltered = await joinInput(',enable_semi_join_probe_key_filtering=false');
    expect(unfiltered).to.equal(2 * 3000 + 200_000);
    expect(await joinInput('')).to.be.lessThan(unfiltered / 2);
  });

  it('sends only the probe rows a task marked TRUE to be combined when only TRUE marks are kept (EXISTS, IN in a WHERE), not for NOT EXISTS', async () => {
    const trueRowsOnly =
      /Filter\[filterPredicate = (\w+)\]\n[^\n]*\n\s*└─ SemiJoin\[[^\n]*mark = (\w+),[^\n]*distribution = PROBE_REPLICATED/;
    for (const sql of [QUERIES.EXISTS, QUERIES['EXISTS with a filter of <> (as q21)'], `${COUNTS} WHERE p.k IN (SELECT k FROM {build})`]) {
      const match = trueRowsOnly.exec(await explain(sql, ON));
      expect(match?.[1], sql).to.equal(match?.[2]);
    }
    expect(await explain(QUERIES['NOT EXISTS'], ON)).not.to.match(trueRowsOnly);
    expect(await explain(QUERIES.EXISTS, { 'X-Trino-Session': 'disabled_optimizer_rules=keep_true_probe_replicated_marks' })).not.to.match(
      trueRowsOnly,
    );
  });

  it('keeps the first row of each number where the tasks send only their TRUE rows (EXISTS, IN in a WHERE), as DuckDB; aggregates the marks otherwise or with keep_first_probe_replicated_true_rows off', async () => {
    const firstRows = /MarkDistinct\[distinct = \[probe_row_\d+\], marker = first_row_\d+\]\n[^\n]*\n\s*└─ RemoteSource/;
    const aggregated = /Aggregate\(SINGLE\)\[keys = \[probe_row_\d+\]\] mark_code_\d+ := max\(mark_code_\d+\)/;
    const ruleOff = { 'X-Trino-Session': 'disabled_optimizer_rules=keep_first_probe_replicated_true_rows' };
    const keptTrue = [
      QUERIES.EXISTS,
      QUERIES['EXISTS with a filter of <> (as q21)'],
      QUERIES['EXISTS, every probe row kept (duplicates too)'],
      QUERIES['EXISTS on two keys'],
      `${COUNTS} WHERE p.k IN (SELECT k FROM {build})`,
    ];
    for (const sql of keptTrue) {
      const plan = await explain(sql, ON);
      expect(plan, sql).to.match(firstRows);
      expect(plan, sql).not.to.match(aggregated);
      expect(plan, sql).not.to.contain('mark_code');
      const off = await explain(sql, ruleOff);
      expect(off, sql).not.to.contain('MarkDistinct');
      expect(off, sql).to.match(aggregated);
      const expected = sorted(await duckDbRows(duckDbs(sql)));
      expect(sorted(await query(cluster.coordinator.uri, ours(sql), ON)), sql).to.deep.equal(expected);
      expect(sorted(await query(cluster.coordinator.uri, ours(sql), ruleOff)), `${sql} (rule off)`).to.deep.equal(expected);
    }
    for (const sql of [
      QUERIES['NOT EXISTS'],
      QUERIES['EXISTS whose mark is projected (TRUE and FALSE kept)'],
      QUERIES['NOT EXISTS in a disjunction'],
    ]) {
      const plan = await explain(sql, ON);
      expect(plan, sql).not.to.contain('MarkDistinct');
      expect(plan, sql).to.match(aggregated);
    }
  });

  it('answers TPC-H q4, q21 and q22 on tiny as DuckDB does, their EXISTS and NOT EXISTS probe-replicated', async () => {
    const duck = await duckDbWithTpch('tiny', 2);
    try {
      for (const [q, replicated] of [
        [4, true],
        [21, true],
        [22, true],
      ] as const) {
        for (const headers of [ON, OFF]) {
          const tiny = { ...headers, 'X-Trino-Catalog': 'tpch', 'X-Trino-Schema': 'tiny' };
          const sql = tpchQuery(q);
          const plan = String((await query(cluster.coordinator.uri, `EXPLAIN ${sql}`, tiny)).map((r) => r[0]).join('\n'));
          expect(plan.includes('PROBE_REPLICATED'), `q${q}`).to.equal(replicated && headers === ON);
          await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, tiny, { label: `q${q}` });
        }
      }
    } finally {
      duck.closeSync();
    }
  });

  it('numbers the probe rows in the tasks that scan them, each apart (4 files of the same rows over both workers), as DuckDB', async () => {
    const split = join(lake.dir, 'probe_split');
    mkdirSync(split, { recursive: true });
    for (let file = 0; file < 4; file++) await duckDbRows(`COPY (${PROBE_SIDE}) TO '${split}/part-${file}.parquet' (FORMAT PARQUET)`);
    await query(cluster.coordinator.uri, `CREATE TABLE lake.default.probe_split WITH (external_location = 'file://${split}/')`);
    for (const sql of [QUERIES['EXISTS, every probe row kept (duplicates too)'], QUERIES['NOT EXISTS with a filter on strings']]) {
      const spread = sql.replaceAll('{probe}', 'lake.default.probe_split');
      const plan = await explain(spread, ON);
      expect(plan).to.match(
        /Fragment \d+ \[SOURCE\]\n[^\n]*\n\s*Output partitioning: BROADCAST \[\]\n\s*└─ AssignUniqueId\[probe_row_\d+\]/,
      );
      const expected = sorted(
        await duckDbRows(
          spread
            .replaceAll('lake.default.probe_split', `read_parquet('${split}/*.parquet')`)
            .replaceAll('{build}', `read_parquet('${build}/*.parquet')`),
        ),
      );
      expect(sorted(await query(cluster.coordinator.uri, ours(spread), ON))).to.deep.equal(expected);
    }
  });

  it('marks a probe side of more keys than a filter lists (its probe key filter a key bitmap, or a list with dynamic_filter_key_bitmap off) as DuckDB', async () => {
    const many = join(lake.dir, 'many_keys');
    const wide = join(lake.dir, 'wide_build');
    mkdirSync(many, { recursive: true });
    mkdirSync(wide, { recursive: true });
    await duckDbRows(`COPY (${MANY_KEYS.probe}) TO '${many}/a.parquet' (FORMAT PARQUET)`);
    for (let file = 0; file < MANY_KEYS.buildFiles; file++)
      await duckDbRows(`COPY (${MANY_KEYS.buildFile(file)}) TO '${wide}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 20000)`);
    await query(cluster.coordinator.uri, `CREATE TABLE lake.default.many_keys WITH (external_location = 'file://${many}/')`);
    await query(cluster.coordinator.uri, `CREATE TABLE lake.default.wide_build WITH (external_location = 'file://${wide}/')`);
    for (const not of ['', 'NOT'] as const) {
      const sql = MANY_KEYS.query(not);
      const expected = sorted(
        await duckDbRows(
          sql.replaceAll('{probe}', `read_parquet('${many}/*.parquet')`).replaceAll('{build}', `read_parquet('${wide}/*.parquet')`),
        ),
      );
      const ours = sql.replaceAll('{probe}', 'lake.default.many_keys').replaceAll('{build}', 'lake.default.wide_build');
      expect(String((await query(cluster.coordinator.uri, `EXPLAIN ${ours}`, ON)).map((r) => r[0]).join('\n'))).to.contain(
        'distribution = PROBE_REPLICATED',
      );
      for (const bitmap of ['true', 'false']) {
        const headers = { 'X-Trino-Session': `distributed_mark_join=true,dynamic_filter_key_bitmap=${bitmap}` };
        expect(sorted(await query(cluster.coordinator.uri, ours, headers)), `${not} EXISTS, bitmap ${bitmap}`).to.deep.equal(expected);
      }
    }
  });

  it('keeps a big probe side to the partitioned join (the build side is not bigger over the nodes)', async () => {
    const sql = 'SELECT count(*) FROM {build} p WHERE EXISTS (SELECT 1 FROM {probe} b WHERE b.k = p.k)';
    expect(await explain(sql, ON)).not.to.contain('PROBE_REPLICATED');
  });
});
