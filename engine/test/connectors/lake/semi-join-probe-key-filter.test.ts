// A semi or anti join that reads its small probe side first filters the scan of its subquery side by
// the probe keys (enable_semi_join_probe_key_filtering: EXISTS and NOT EXISTS, IN when filtering): on
// one node, over Parquet files and memory tables, in the main thread and on worker threads, every
// semi and anti join of the shared cases (NULL keys on both sides, NOT IN, NOT EXISTS, empty sides,
// marks that are not filtered on) answers as DuckDB does, with the filter on and off; TPC-H q4 on tiny
// too. EXPLAIN shows the filter on the join and the build side's scan; EXPLAIN ANALYZE shows the join
// getting fewer rows.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../../scripts/tpch/queries.js';
import { expectDuckDbAnswer } from '../../cluster/duckdb-answer.js';
import { buildFile, COUNTS, MANY_KEYS, PROBE_SIDE, QUERIES, sorted } from '../../support/mark-join-cases.js';
import { ServerProcess } from '../../support/server-process.js';
import { query } from '../../support/statement-http.js';
import { duckDbRows, lakeConfigFile } from './lake-fixture.js';

const MORE_QUERIES: Record<string, string> = {
  'IN whose mark is not filtered on (FALSE and NULL kept apart)': `SELECT CAST(p.id AS varchar), CAST(p.k IN (SELECT k FROM {build} WHERE small > 20) AS varchar) FROM {probe} p`,
  'IN in a disjunction': `${COUNTS} WHERE p.k IN (SELECT k FROM {build} WHERE small > 30) OR p.small = 3`,
  'EXISTS on varchar': `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.name = p.name AND b.id % 3 = 0)`,
};

const SESSIONS: [label: string, session: string][] = [
  ['filter on, worker threads', ''],
  ['filter off, worker threads', 'enable_semi_join_probe_key_filtering=false'],
  ['filter on, main thread', 'parallel_min_splits=0'],
  ['filter off, main thread', 'enable_semi_join_probe_key_filtering=false,parallel_min_splits=0'],
];

const TABLES = ['lake.default', 'memory.default'];

describe('semi joins filter their subquery side by their probe keys, answering as DuckDB does', function () {
  this.timeout(600_000);
  let dir: string;
  let server: ServerProcess;
  let probe = '';
  let build = '';
  let duck: DuckDBConnection | undefined;
  const ask = (sql: string, session: string) => query(server.uri, sql, session === '' ? {} : { 'X-Trino-Session': session });
  const ours = (sql: string, schema: string) =>
    sql.replaceAll('{probe}', `${schema}.probe_side`).replaceAll('{build}', `${schema}.build_side`);
  const duckDbs = (sql: string) =>
    sql.replaceAll('{probe}', `read_parquet('${probe}/*.parquet')`).replaceAll('{build}', `read_parquet('${build}/*.parquet')`);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-semi-join-probe-key-filter-'));
    probe = join(dir, 'probe_side');
    build = join(dir, 'build_side');
    mkdirSync(probe, { recursive: true });
    mkdirSync(build, { recursive: true });
    await duckDbRows(`COPY (${PROBE_SIDE}) TO '${probe}/a.parquet' (FORMAT PARQUET)`);
    for (let file = 0; file < 4; file++)
      await duckDbRows(`COPY (${buildFile(file)}) TO '${build}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 25000)`);
    server = await ServerProcess.start([
      '--config',
      lakeConfigFile(dir, join(dir, 'catalog'), '  - name: memory\n    connector: memory\n'),
    ]);
    for (const [name, folder] of [
      ['probe_side', probe],
      ['build_side', build],
    ]) {
      await query(server.uri, `CREATE TABLE lake.default.${name} WITH (external_location = 'file://${folder}/')`);
      await query(server.uri, `CREATE TABLE memory.default.${name} AS SELECT * FROM lake.default.${name}`);
    }
    for (const table of ['orders', 'lineitem']) {
      await query(server.uri, `CREATE TABLE lake.default.${table} AS SELECT * FROM tpch.tiny.${table}`);
      await query(server.uri, `CREATE TABLE memory.default.${table} AS SELECT * FROM tpch.tiny.${table}`);
    }
    duck = await duckDbWithTpch('tiny', 2);
  });
  after(async () => {
    duck?.closeSync();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, sql] of Object.entries({ ...QUERIES, ...MORE_QUERIES })) {
    it(name, async () => {
      const expected = sorted(await duckDbRows(duckDbs(sql)));
      for (const schema of TABLES)
        for (const [label, session] of SESSIONS)
          expect(sorted(await ask(ours(sql, schema), session)), `${schema}, ${label}`).to.deep.equal(expected);
    });
  }

  it('TPC-H q4 on tiny over Parquet files and memory tables as DuckDB', async () => {
    for (const schema of TABLES) {
      const [catalog, name] = schema.split('.');
      for (const [label, session] of SESSIONS) {
        const headers = { 'X-Trino-Catalog': catalog, 'X-Trino-Schema': name, ...(session === '' ? {} : { 'X-Trino-Session': session }) };
        await expectDuckDbAnswer(server.uri, duck!, tpchQuery(4), headers, { label: `${schema}, ${label}` });
      }
    }
  });

  it('a probe side of more keys than a filter lists filters by a key bitmap (on, off, main thread) as DuckDB answers', async () => {
    const many = join(dir, 'many_keys');
    const wide = join(dir, 'wide_build');
    mkdirSync(many, { recursive: true });
    mkdirSync(wide, { recursive: true });
    await duckDbRows(`COPY (${MANY_KEYS.probe}) TO '${many}/a.parquet' (FORMAT PARQUET)`);
    for (let file = 0; file < MANY_KEYS.buildFiles; file++)
      await duckDbRows(`COPY (${MANY_KEYS.buildFile(file)}) TO '${wide}/part-${file}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 20000)`);
    for (const [name, folder] of [
      ['many_keys', many],
      ['wide_build', wide],
    ]) {
      await query(server.uri, `CREATE TABLE lake.default.${name} WITH (external_location = 'file://${folder}/')`);
      await query(server.uri, `CREATE TABLE memory.default.${name} AS SELECT * FROM lake.default.${name}`);
    }
    const tables = (sql: string, probeTable: string, buildTable: string) =>
      sql.replaceAll('{probe}', probeTable).replaceAll('{build}', buildTable);
    for (const not of ['', 'NOT'] as const) {
      const sql = MANY_KEYS.query(not);
      const expected = sorted(await duckDbRows(tables(sql, `read_parquet('${many}/*.parquet')`, `read_parquet('${wide}/*.parquet')`)));
      for (const schema of TABLES)
        for (const session of ['', 'dynamic_filter_key_bitmap=false', 'parallel_min_splits=0'])
          expect(
            sorted(await ask(tables(sql, `${schema}.many_keys`, `${schema}.wide_build`), session)),
            `${not} EXISTS ${schema} ${session}`,
          ).to.deep.equal(expected);
    }
    // The keys as bits filter the build's scan as the list of them did: the join gets the 60,000 probe rows and the build rows of their keys.
    const analyzed = String(
      (await ask(`EXPLAIN ANALYZE ${tables(MANY_KEYS.query(''), 'lake.default.many_keys', 'lake.default.wide_build')}`, ''))[0][0],
    );
    const lines = analyzed.split('\n');
    const joinLine = lines.findIndex((line) => line.includes('SemiJoin['));
    expect(Number(/Input: (\d+) rows/.exec(lines.slice(joinLine).find((line) => line.includes('Input:')) ?? '')?.[1])).to.be.lessThan(
      200_000,
    );
  });

  it("EXPLAIN shows the probe key filter on the join and the subquery side's scan; EXPLAIN ANALYZE the join getting fewer rows", async () => {
    const sql = ours(QUERIES.EXISTS, 'lake.default');
    const plan = String((await ask(`EXPLAIN ${sql}`, ''))[0][0]);
    const id = /SemiJoin\[[^\n]*probeKeyFilterAssignments = \{k_\d+ -> (#df_\d+)\}/.exec(plan)?.[1];
    expect(id, plan).not.to.equal(undefined);
    expect(plan).to.include(`TableScan[table = lake:default.build_side, columns = [k], dynamicFilters = {"k" = ${id}}]`);
    expect(String((await ask(`EXPLAIN ${sql}`, 'enable_semi_join_probe_key_filtering=false'))[0][0])).not.to.include('probeKeyFilter');
    // An anti join's EXISTS-style mark depends only on the equal-keyed build rows: filtered too. NOT IN's NULL marks depend on every build row: not.
    expect(String((await ask(`EXPLAIN ${ours(QUERIES['NOT EXISTS'], 'lake.default')}`, ''))[0][0])).to.include('probeKeyFilter');
    expect(String((await ask(`EXPLAIN ${ours(QUERIES['NOT IN with NULL build keys'], 'lake.default')}`, ''))[0][0])).not.to.include(
      'probeKeyFilter',
    );
    for (const schema of TABLES) {
      // The rows reaching the join: the 3,000 probe rows and the build rows its scan gave.
      const joinInput = async (session: string) => {
        const analyzed = String((await ask(`EXPLAIN ANALYZE ${ours(QUERIES.EXISTS, schema)}`, session))[0][0]);
        const lines = analyzed.split('\n');
        const join = lines.findIndex((line) => line.includes('SemiJoin['));
        return Number(/Input: (\d+) rows/.exec(lines.slice(join).find((line) => line.includes('Input:')) ?? '')?.[1]);
      };
      expect(await joinInput('enable_semi_join_probe_key_filtering=false'), schema).to.equal(203_000);
      for (const session of ['', 'parallel_min_splits=0']) expect(await joinInput(session), `${schema} ${session}`).to.be.lessThan(100_000);
    }
  });
});
