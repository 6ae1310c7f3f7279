// Measures how deeply each nesting construct goes through the engine and how much stack its deepest
// accepted statement needs in each phase: every figure is a run of the real code.
//
//   node engine/dist/scripts/nesting-limits.js [construct ...]
//
// For each construct it reports
//  - accepted: the most levels that run end to end (binary search, in process, up to 200,000), and
//    what one level more fails with;
//  - stack: for the most accepted, the smallest V8 stack (KB) on which the statement still gets
//    through each phase, cumulatively: parse; the statement check; planning (EXPLAIN: analysis,
//    optimization, fragments, plan text); running it. Each runs in a fresh worker thread, so the
//    code runs cold (interpreted), as on a server's first such statement, when frames are largest.
//    Node's default stack is 984 KB; default / stack is the margin left for the frames below the
//    engine (an HTTP handler, say). Some 70 KB of every figure is the worker's own start.

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { parseStatement } from '../src/sql/parser/parser.js';
import { assertSupported } from '../src/sql/analyzer/unsupported-features.js';
import { EngineHarness } from '../test/support/engine-harness.js';

/** Each construct as SQL nesting it `n` levels deep (or with `n` inputs). */
const CONSTRUCTS: Record<string, (n: number) => string> = {
  parentheses: (n) => `SELECT ${'('.repeat(n)}1${')'.repeat(n)}`,
  'function calls': (n) => `SELECT ${'abs('.repeat(n)}1${')'.repeat(n)}`,
  CASE: (n) => `SELECT ${'CASE WHEN true THEN '.repeat(n)}1${' END'.repeat(n)}`,
  NOT: (n) => `SELECT ${'NOT '.repeat(n)}true`,
  signs: (n) => `SELECT ${'- '.repeat(n)}1`,
  'chained +': (n) => `SELECT 1${' + 1'.repeat(n)}`,
  // An operator and a parenthesis a level each; an odd count gets one more parenthesis.
  'nested 1 + (...)': (n) => `SELECT ${'('.repeat(n % 2)}${'1 + ('.repeat(n >> 1)}1${')'.repeat(n >> 1)}${')'.repeat(n % 2)}`,
  'chained ||': (n) => `SELECT 'a'${" || 'a'".repeat(n)}`,
  CAST: (n) => `SELECT ${'CAST('.repeat(n)}1${' AS bigint)'.repeat(n)}`,
  coalesce: (n) => `SELECT ${'coalesce(null, '.repeat(n)}1${')'.repeat(n)}`,
  'calls in WHERE': (n) => `SELECT x FROM (VALUES 1, 2) t(x) WHERE ${'abs('.repeat(n)}x${')'.repeat(n)} = 1`,
  'calls in an aggregate': (n) => `SELECT sum(${'abs('.repeat(n - 1)}x${')'.repeat(n - 1)}) FROM (VALUES 1, 2) t(x)`,
  'scalar subqueries': (n) => `SELECT ${'(SELECT '.repeat(n)}1${')'.repeat(n)}`,
  'derived tables': (n) => `SELECT * FROM ${'(SELECT * FROM '.repeat(n - 1)}(VALUES 1) t(x)${') t'.repeat(n - 1)}`,
  'UNION ALL inputs': (n) => `SELECT 1${' UNION ALL SELECT 1'.repeat(n - 1)}`,
  'EXCEPT inputs': (n) => `SELECT 1${' EXCEPT SELECT 2'.repeat(n - 1)}`,
};

type Phase = 'parse' | 'check' | 'plan' | 'run';
const PHASES: Phase[] = ['parse', 'check', 'plan', 'run'];

interface Outcome {
  ok: boolean;
  /** The phase that failed and its error. */
  phase?: Phase;
  error?: string;
}

/** Runs the statement phase by phase, up to `last`. */
async function attempt(sql: string, harness: EngineHarness, last: Phase = 'run'): Promise<Outcome> {
  let phase: Phase = 'parse';
  try {
    const statement = parseStatement(sql);
    if (last === 'parse') return { ok: true };
    phase = 'check';
    assertSupported(statement);
    if (last === 'check') return { ok: true };
    phase = 'plan';
    await harness.query(`EXPLAIN ${sql}`);
    if (last === 'plan') return { ok: true };
    phase = 'run';
    await harness.query(sql);
    return { ok: true };
  } catch (e) {
    const error = e instanceof Error ? `${'errorName' in e ? String(e.errorName) : e.constructor.name}: ${e.message}` : String(e);
    return { ok: false, phase, error: error.slice(0, 160) };
  }
}

async function mostAccepted(make: (n: number) => string, harness: EngineHarness): Promise<{ most: number; beyond: Outcome }> {
  let low = 1;
  let high = 200_000;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((await attempt(make(middle), harness)).ok) low = middle;
    else high = middle - 1;
  }
  return { most: low, beyond: await attempt(make(low + 1), harness) };
}

/** In a fresh worker with a V8 stack of `stackKb`: does `sql` get through `phase`? */
function getsThrough(sql: string, phase: Phase, stackKb: number): Promise<boolean> {
  // Node keeps 192 KB of a worker's thread stack as a buffer below V8's limit.
  const stackSizeMb = (stackKb + 192) / 1024;
  return new Promise((resolve) => {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { sql, phase }, resourceLimits: { stackSizeMb } });
    worker.once('message', (ok: boolean) => resolve(ok));
    worker.once('error', () => resolve(false));
    worker.once('exit', () => resolve(false));
  });
}

async function smallestStackKb(sql: string, phase: Phase): Promise<number | undefined> {
  // A worker cannot even start on much less than this.
  let low = 64;
  let high = 984;
  if (!(await getsThrough(sql, phase, high))) return undefined;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (await getsThrough(sql, phase, middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const harness = new EngineHarness();
  for (const [name, make] of Object.entries(CONSTRUCTS)) {
    if (wanted.length && !wanted.includes(name)) continue;
    const { most, beyond } = await mostAccepted(make, harness);
    console.log(
      `${name}: ${most} run; ${most + 1}: ${beyond.ok ? 'runs (the search stopped at 200,000)' : `${beyond.phase} fails, ${beyond.error}`}`,
    );
    const needs: string[] = [];
    for (const phase of PHASES) {
      const kb = await smallestStackKb(make(most), phase);
      needs.push(kb === undefined ? `${phase} over 984 KB` : `${phase} ${kb} KB`);
    }
    const last = needs[needs.length - 1].match(/ (\d+) KB$/);
    console.log(`  stack at ${most}: ${needs.join(', ')}${last ? ` (margin ${(984 / Number(last[1])).toFixed(1)}x)` : ''}`);
  }
}

if (isMainThread) {
  await main();
} else {
  const { sql, phase } = workerData as { sql: string; phase: Phase };
  const outcome = await attempt(sql, new EngineHarness(), phase);
  parentPort!.postMessage(outcome.ok);
}
