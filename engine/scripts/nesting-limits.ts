// Measures how deeply each nesting construct can go through each phase of a statement, and how much
// of the stack 1,000 levels need: every figure is a run of the real code.
//
//   node engine/dist/scripts/nesting-limits.js [construct ...]
//
// For each construct it reports
//  - accepted: the most levels the whole engine runs with Node's default stack (binary search,
//    in process, up to 200,000), and the first phase that fails one level further;
//  - stack at 1,000: the smallest V8 stack (in KB) on which 1,000 levels still run end to end, found
//    by running the statement in worker threads with smaller stacks. Node's default stack is 984 KB;
//    the ratio is the margin left for the frames below the engine (an HTTP handler, say).

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { parseStatement } from '../src/sql/parser/parser.js';
import { assertSupported } from '../src/sql/analyzer/unsupported-features.js';
import { EngineHarness } from '../test/support/engine-harness.js';

/** Each construct as SQL nesting it `n` levels deep. */
export const NESTING_CONSTRUCTS: Record<string, (n: number) => string> = {
  parentheses: (n) => `SELECT ${'('.repeat(n)}1${')'.repeat(n)}`,
  calls: (n) => `SELECT ${'abs('.repeat(n)}-1${')'.repeat(n)}`,
  case: (n) => `SELECT ${'CASE WHEN true THEN '.repeat(n)}1${' END'.repeat(n)}`,
  not: (n) => `SELECT ${'NOT '.repeat(n)}true`,
  signs: (n) => `SELECT ${'- '.repeat(n)}1`,
  'chained +': (n) => `SELECT 1${' + 1'.repeat(n)}`,
  'nested +': (n) => `SELECT ${'1 + ('.repeat(n)}1${')'.repeat(n)}`,
  concat: (n) => `SELECT 'a'${" || 'a'".repeat(n)}`,
  cast: (n) => `SELECT ${'CAST('.repeat(n)}1${' AS bigint)'.repeat(n)}`,
  coalesce: (n) => `SELECT ${'coalesce(null, '.repeat(n)}1${')'.repeat(n)}`,
  'scalar subqueries': (n) => `SELECT ${'(SELECT '.repeat(n)}1${')'.repeat(n)}`,
  'derived tables': (n) => `SELECT * FROM ${'(SELECT * FROM '.repeat(n)}(VALUES 1)${') t'.repeat(n)}`,
  'UNION ALL branches': (n) => `SELECT 1${' UNION ALL SELECT 1'.repeat(n - 1)}`,
};

type Phase = 'parse' | 'check' | 'plan' | 'run';

interface Outcome {
  ok: boolean;
  /** The phase that failed and its error. */
  phase?: Phase;
  error?: string;
}

/** Runs the statement phase by phase: parse, the statement check, planning (EXPLAIN), then the query itself. */
async function attempt(sql: string, harness: EngineHarness): Promise<Outcome> {
  let phase: Phase = 'parse';
  try {
    const statement = parseStatement(sql);
    phase = 'check';
    assertSupported(statement);
    phase = 'plan';
    await harness.query(`EXPLAIN ${sql}`);
    phase = 'run';
    await harness.query(sql);
    return { ok: true };
  } catch (e) {
    const error = e instanceof Error ? `${e.constructor.name}${'errorName' in e ? ` ${String(e.errorName)}` : ''}: ${e.message}` : String(e);
    return { ok: false, phase, error: error.slice(0, 200) };
  }
}

async function mostAccepted(make: (n: number) => string, harness: EngineHarness): Promise<{ most: number; beyond: Outcome }> {
  let low = 0;
  let high = 200_000;
  let beyond: Outcome = { ok: false };
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const outcome = await attempt(make(middle), harness);
    if (outcome.ok) low = middle;
    else {
      high = middle - 1;
      beyond = outcome;
    }
  }
  if (low < 200_000 && !beyond.phase) beyond = await attempt(make(low + 1), harness);
  return { most: low, beyond };
}

/** In a worker with a V8 stack of `stackKb`: does `sql` run? */
function runsOnStack(sql: string, stackKb: number): Promise<boolean> {
  // Node keeps 192 KB of a worker's thread stack as a buffer below V8's limit.
  const stackSizeMb = (stackKb + 192) / 1024;
  return new Promise((resolve) => {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { sql }, resourceLimits: { stackSizeMb } });
    worker.once('message', (ok: boolean) => resolve(ok));
    worker.once('error', () => resolve(false));
    worker.once('exit', () => resolve(false));
  });
}

async function smallestStackKb(sql: string): Promise<number | undefined> {
  if (!(await runsOnStack(sql, 984))) return undefined;
  let low = 8;
  let high = 984;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (await runsOnStack(sql, middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const harness = new EngineHarness();
  for (const [name, make] of Object.entries(NESTING_CONSTRUCTS)) {
    if (wanted.length && !wanted.includes(name)) continue;
    const { most, beyond } = await mostAccepted(make, harness);
    const stack = await smallestStackKb(make(1000));
    const margin = stack === undefined ? 'does not run' : `${stack} KB (${(984 / stack).toFixed(1)}x)`;
    console.log(`${name}: accepted ${most}; at ${most + 1}: ${beyond.phase ?? '-'} ${beyond.error ?? ''}`);
    console.log(`  stack for 1,000: ${margin}`);
  }
}

if (isMainThread) {
  await main();
} else {
  const { sql } = workerData as { sql: string };
  const outcome = await attempt(sql, new EngineHarness());
  parentPort!.postMessage(outcome.ok);
}
