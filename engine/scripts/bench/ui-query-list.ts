// `make bench`, suite ui: what a refresh of the web interface's query list costs on a coordinator
// holding 10,000 finished queries (issue 18; Trino's UI freezes there, trinodb/trino#24451, #4102).
// A real coordinator runs N statements (most finish, one in ten fails) from several users, keeping
// them all (query.maxHistory); then each refresh the page makes — the default page, a search, a
// state and failure filter sorted by elapsed time, the largest limit — is timed over loopback, with
// the bytes as sent (gzipped) and as JSON, beside GET /v1/query (every query, as Trino's list reads
// them) for comparison. Prints a table and writes bench/results/ui-query-list-<time>.json.

import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { executeStatement } from '../sqllogictest/statement-client.js';
import { startEngineServer } from '../sqllogictest/server-process.js';
import { median } from './statistics.js';

export interface UiBenchOptions {
  cliPath: string;
  resultsDir: string;
  queries: number;
  /** Timed requests per refresh kind. */
  repetitions: number;
}

interface RefreshFigures {
  refresh: string;
  path: string;
  medianMillis: number;
  p95Millis: number;
  bytesSent: number;
  jsonBytes: number;
  rows: number;
}

const USERS = 10;
const SUBMIT_CONCURRENCY = 8;

export async function runUiSuite(options: UiBenchOptions): Promise<void> {
  console.log(`\nui: the query list with ${options.queries} finished queries`);
  const server = await startEngineServer({
    cliPath: options.cliPath,
    args: [
      '--admin-users',
      'admin',
      '--query-max-history',
      String(options.queries),
      '--query-max-history-age',
      '1d',
      '--log-level',
      'warn',
    ],
  });
  try {
    const started = performance.now();
    await submitQueries(server.url, options.queries);
    console.log(`ran ${options.queries} statements in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const cookie = await signIn(server.url, 'admin');
    const refreshes: Array<[string, string]> = [
      ['default page (100 newest)', '/ui/api/queries'],
      ['search SQL text', '/ui/api/queries?search=nation'],
      ['failed user errors by elapsed', '/ui/api/queries?state=failed&failure=USER_ERROR&sort=elapsed'],
      ['largest limit (1000)', '/ui/api/queries?limit=1000'],
      ['GET /v1/query (all, for comparison)', '/v1/query'],
    ];
    const figures: RefreshFigures[] = [];
    for (const [refresh, path] of refreshes) figures.push(await measure(server.url, refresh, path, cookie, options.repetitions));
    printFigures(options.queries, figures);
    mkdirSync(options.resultsDir, { recursive: true });
    const file = join(options.resultsDir, `ui-query-list-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify({ queries: options.queries, repetitions: options.repetitions, figures }, null, 2)}\n`);
    console.log(`written to ${file}`);
  } finally {
    await server.stop();
  }
}

/** N statements from USERS users, SUBMIT_CONCURRENCY at a time; every tenth fails (a table that does not exist). */
async function submitQueries(url: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const sql =
        i % 10 === 9
          ? `SELECT * FROM memory.default.missing_${i}`
          : i % 10 === 0
            ? `SELECT count(*) FROM tpch.tiny.nation WHERE n_nationkey > ${i % 25}`
            : `SELECT ${i} AS n, 'row ${i}' AS label`;
      await executeStatement(
        url,
        sql,
        { user: `user${i % USERS}`, source: `bench-${i % 3}`, catalog: 'tpch', schema: 'tiny' },
        { timeoutMillis: 60_000 },
      );
    }
  };
  await Promise.all(Array.from({ length: SUBMIT_CONCURRENCY }, worker));
}

async function signIn(url: string, user: string): Promise<string> {
  const response = await fetch(`${url}/ui/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ user }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie;
}

async function measure(url: string, refresh: string, path: string, cookie: string, repetitions: number): Promise<RefreshFigures> {
  const times: number[] = [];
  let last = { sent: 0, json: 0, rows: 0 };
  for (let i = 0; i < repetitions; i++) {
    const started = performance.now();
    const answer = await get(`${url}${path}`, { Cookie: cookie, 'X-Engine-User': 'admin', 'Accept-Encoding': 'gzip' });
    times.push(performance.now() - started);
    const json = answer.gzipped ? gunzipSync(answer.body) : answer.body;
    const parsed = JSON.parse(json.toString('utf8')) as { queries?: unknown[] } | unknown[];
    last = {
      sent: answer.body.byteLength,
      json: json.byteLength,
      rows: Array.isArray(parsed) ? parsed.length : (parsed.queries?.length ?? 0),
    };
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    refresh,
    path,
    medianMillis: median(times),
    p95Millis: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!,
    bytesSent: last.sent,
    jsonBytes: last.json,
    rows: last.rows,
  };
}

function get(url: string, headers: Record<string, string>): Promise<{ body: Buffer; gzipped: boolean }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => {
        if ((response.statusCode ?? 0) !== 200) reject(new Error(`GET ${url} answered ${response.statusCode}`));
        else resolve({ body: Buffer.concat(chunks), gzipped: response.headers['content-encoding'] === 'gzip' });
      });
    })
      .on('error', reject)
      .end();
  });
}

function printFigures(queries: number, figures: RefreshFigures[]): void {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `\n${'refresh'.padEnd(38)} ${'rows'.padStart(6)} ${'median'.padStart(9)} ${'p95'.padStart(9)} ${'sent'.padStart(10)} ${'JSON'.padStart(10)}   (${queries} queries held)`,
  );
  for (const f of figures) {
    console.log(
      `${f.refresh.padEnd(38)} ${String(f.rows).padStart(6)} ${`${f.medianMillis.toFixed(1)} ms`.padStart(9)} ${`${f.p95Millis.toFixed(1)} ms`.padStart(9)} ${kb(f.bytesSent).padStart(10)} ${kb(f.jsonBytes).padStart(10)}`,
    );
  }
}
