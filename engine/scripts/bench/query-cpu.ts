// Each process's CPU per query, cluster against single node: TPC-H over Parquet sf1 files written by
// DuckDB (external lake tables), run on one node or on a coordinator with workers (one of them at a
// time, so that their CPU is not shared with the other), reading every server's CPU time (all threads,
// /proc) before and after each run. With --profile, every server runs under --cpu-prof and, once
// stopped, the top self costs of each are printed (the main thread's, and the other threads').
//
//   node engine/dist/scripts/bench/query-cpu.js --files /tmp/tpch-sf1-duckdb --engine cluster --queries 1-22 --runs 3 [--profile]
//
// The files are written once into --files (DuckDB's COPY of our tpch sf1 rows) and kept for later runs.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { executeStatement, type StatementSession } from '../sqllogictest/statement-client.js';
import type { EngineServerProcess } from '../sqllogictest/server-process.js';
import { duckDbWithTpch } from '../tpch/duckdb-tpch.js';
import { tpchQuery } from '../tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../tpch/tbl-export.js';
import { failOnError, startBenchCluster, startBenchNode } from './cluster-vs-single.js';
import { readThreadProfiles, topCostsByOwnCaller, topSelfCosts } from './cpu-profile.js';
import { parseBenchOptions, parseQueryList } from './options.js';
import { lakeConfig } from './parquet-lake.js';
import { processUsage, usageBetween } from './process-usage.js';
import { median } from './statistics.js';

const OWN_CLI = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'main.js');
const TIMEOUT = { timeoutMillis: 10 * 60 * 1000 };
const SESSION: StatementSession = { user: 'bench', source: 'bench', catalog: 'lake', schema: 'duckdb', properties: {} };

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: join(tmpdir(), 'tpch-sf1-duckdb') },
      engine: { type: 'string', default: 'cluster' },
      queries: { type: 'string', default: '1-22' },
      runs: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
      /** Run every server under --cpu-prof, writing the profiles into this folder (kept), one sub-folder per server. */
      profile: { type: 'string' },
      /** Only print the costs of the profiles a former --profile run kept in this folder. */
      'print-profiles': { type: 'string' },
      requests: { type: 'boolean', default: false },
      /** Another tree's engine/dist/src/cli/main.js (a baseline to compare with). */
      cli: { type: 'string', default: OWN_CLI },
      session: { type: 'string', multiple: true, default: [] },
      /** Statements to run besides (or, with --queries none, instead of) the TPC-H queries, e.g. a query's fixed cost. */
      sql: { type: 'string', multiple: true, default: [] },
    },
  });
  if (values['print-profiles'] !== undefined) {
    for (const own of readdirSync(values['print-profiles']).filter((f) => f !== 'measured-from'))
      printThreads(join(values['print-profiles'], own), own);
    return;
  }
  const files = values.files;
  if (!existsSync(join(files, 'lineitem', 'data.parquet'))) await writeFiles(files);
  for (const p of values.session) {
    const [name, value] = p.split('=');
    SESSION.properties![name] = value;
  }
  const options = parseBenchOptions(['--scale', '1']);
  const statements = [
    ...(values.queries === 'none'
      ? []
      : parseQueryList(values.queries).map((q) => ({ label: `q${String(q).padStart(2, '0')}`, sql: tpchQuery(q) }))),
    ...values.sql.map((sql, i) => ({ label: `s${i + 1}`, sql })),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'engine-query-cpu-'));
  const profileDir = values.profile;
  const nodeArgs = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const config = lakeConfig(dir);
  const names =
    values.engine === 'single'
      ? ['single']
      : ['coordinator', ...Array.from({ length: options.clusterWorkers }, (_, i) => `worker-${i + 1}`)];
  let servers: EngineServerProcess[] = [];
  try {
    servers =
      values.engine === 'single'
        ? [await startBenchNode(values.cli, ['--config', config], nodeArgs)]
        : await startBenchCluster(values.cli, options, ['--config', config], nodeArgs);
    const url = servers[0].url;
    failOnError(await executeStatement(url, 'CREATE SCHEMA lake.duckdb', SESSION, TIMEOUT));
    for (const table of TPCH_TABLE_NAMES)
      failOnError(
        await executeStatement(
          url,
          `CREATE TABLE lake.duckdb.${table} WITH (external_location = 'file://${join(files, table)}/')`,
          SESSION,
          TIMEOUT,
        ),
      );
    console.log(
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )}; ${values.engine}; CPU ms per run (median of ${values.runs}): ${names.join(', ')}, total; wall ms; minor page faults of each run, all servers`,
    );
    const totals = names.map(() => 0);
    if (profileDir !== undefined) {
      // A warm pass first: the profiles are read from the measured pass on (not the servers' start and first compilations).
      console.log('a warm pass...');
      for (const { sql } of statements) failOnError(await executeStatement(url, sql, SESSION, TIMEOUT));
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(join(profileDir, 'measured-from'), String(process.hrtime.bigint() / 1000n));
    }
    for (const { label, sql } of statements) {
      const cpu: number[][] = names.map(() => []);
      const faults: number[] = [];
      const requestsBefore = values.requests ? await Promise.all(servers.map((s) => httpCounts(s.url))) : [];
      const wall: number[] = [];
      for (let i = 0; i < Number(values.warmup) + Number(values.runs); i++) {
        const before = servers.map((s) => processUsage(s.pid));
        const started = performance.now();
        failOnError(await executeStatement(url, sql, SESSION, TIMEOUT));
        const millis = performance.now() - started;
        const after = servers.map((s) => processUsage(s.pid));
        if (i < Number(values.warmup)) continue;
        wall.push(millis);
        servers.forEach((_, n) => cpu[n].push(usageBetween(before[n], after[n])?.cpuMillis ?? NaN));
        faults.push(servers.reduce((sum, _, n) => sum + (usageBetween(before[n], after[n])?.minorFaults ?? NaN), 0));
      }
      const requestsAfter = values.requests ? await Promise.all(servers.map((s) => httpCounts(s.url))) : [];
      const medians = cpu.map((c) => median(c));
      medians.forEach((m, n) => (totals[n] += m));
      const sum = medians.reduce((a, b) => a + b, 0);
      console.log(
        `${label} ${medians.map((m) => m.toFixed(0).padStart(6)).join(' ')} ${sum.toFixed(0).padStart(6)}  ${median(wall).toFixed(0).padStart(6)}  faults ${faults.map((f) => (f / 1000).toFixed(1)).join(' ')}k`,
      );
      if (values.requests) {
        const runs = Number(values.warmup) + Number(values.runs);
        for (const [n, name] of names.entries()) {
          const lines = [...requestsAfter[n]]
            .map(([key, after]) => ({ key, ...differencePerRun(after, requestsBefore[n].get(key), runs) }))
            .filter((d) => d.requests > 0 && !d.key.includes('/metrics'))
            .map((d) => `${d.key} ${d.requests.toFixed(1)} (${(d.bytes / 1024).toFixed(1)} KiB)`);
          console.log(`    ${name}: ${lines.join('; ')}`);
        }
      }
    }
    console.log(
      `sum ${totals.map((m) => m.toFixed(0).padStart(6)).join(' ')} ${totals
        .reduce((a, b) => a + b, 0)
        .toFixed(0)
        .padStart(6)}; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  rmSync(dir, { recursive: true, force: true });
  if (profileDir === undefined) return;
  // Profiles are per process (the pid in each file name): one folder per server, named after it.
  for (const [n, server] of servers.entries()) {
    const own = join(profileDir, names[n]);
    mkdirSync(own, { recursive: true });
    for (const file of readdirSync(profileDir).filter((f) => f.split('.')[3] === String(server.pid)))
      renameSync(join(profileDir, file), join(own, file));
    printThreads(own, names[n]);
  }
}

/** One server's profiles (a folder of them): each thread's top costs by self time, and by the engine's nearest function. */
function printThreads(folder: string, name: string): void {
  const from = join(folder, '..', 'measured-from');
  const fromMicros = existsSync(from) ? Number(readFileSync(from, 'utf8')) : undefined;
  const { mainThread, otherThreads } = readThreadProfiles(folder);
  for (const [thread, profile] of [['main thread', mainThread], ...otherThreads.map((p, i) => [`thread ${i + 1}`, p] as const)] as const) {
    if (profile === undefined) continue;
    const top = topSelfCosts(profile, 40, undefined, fromMicros);
    console.log(`\n${name} ${thread}: sampled ${top.sampledMillis.toFixed(0)} ms (idle ${top.idleMillis.toFixed(0)} ms), by self time:`);
    for (const c of top.costs)
      console.log(`  ${c.selfMillis.toFixed(1).padStart(8)} ms ${(c.share * 100).toFixed(1).padStart(5)}%  ${c.frame}`);
    const byCaller = topCostsByOwnCaller(profile, 40, /\/dist\/src\//, fromMicros);
    console.log(`${name} ${thread}: by the engine's nearest function (${byCaller.unattributedMillis.toFixed(0)} ms had none):`);
    for (const c of byCaller.costs)
      console.log(`  ${c.selfMillis.toFixed(1).padStart(8)} ms ${(c.share * 100).toFixed(1).padStart(5)}%  ${c.frame}`);
  }
}

interface Counted {
  requests: number;
  bytes: number;
}

/** A node's HTTP requests answered so far by "METHOD route", with their body bytes both ways (GET /metrics). */
async function httpCounts(url: string): Promise<Map<string, Counted>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts = new Map<string, Counted>();
  for (const match of text.matchAll(
    /^engine_http_(requests|request_body_bytes|response_body_bytes)_total\{method="([^"]*)",route="([^"]*)"\} (\S+)$/gm,
  )) {
    const key = `${match[2]} ${match[3]}`;
    const count = counts.get(key) ?? { requests: 0, bytes: 0 };
    if (match[1] === 'requests') count.requests += Number(match[4]);
    else count.bytes += Number(match[4]);
    counts.set(key, count);
  }
  return counts;
}

function differencePerRun(after: Counted, before: Counted | undefined, runs: number): Counted {
  return { requests: (after.requests - (before?.requests ?? 0)) / runs, bytes: (after.bytes - (before?.bytes ?? 0)) / runs };
}

async function writeFiles(files: string): Promise<void> {
  console.log(`writing tpch sf1 as Parquet with DuckDB into ${files}...`);
  const duck = await duckDbWithTpch('sf1');
  for (const table of TPCH_TABLE_NAMES) {
    mkdirSync(join(files, table), { recursive: true });
    await duck.run(`COPY ${table} TO '${join(files, table, 'data.parquet')}' (FORMAT PARQUET)`);
  }
  duck.closeSync();
}

await main();
