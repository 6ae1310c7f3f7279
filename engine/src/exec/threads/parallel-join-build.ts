// A join's lookup table filled by the node's worker threads instead of the task's main thread: the
// table is made empty in shared memory, cut into regions by key hash (hash/table-regions), and each
// thread inserts the build rows of its regions, reading the key columns in shared memory; the rows'
// hashes are computed first, a range of rows per thread, so that a thread skips the rows of other
// regions by their hash without hashing their keys again. The threads never write the
// same word (a key's slot, chain and filter bit are all in its region), and every chain stays in
// build order, so the table is the one a single thread builds, but for where keys sit. The main
// thread only waits (its event loop free) and lists the rows with NULL keys.
//
// One table in regions rather than a table per thread merged after (DuckDB) or a lookup source
// per partition (Trino): the probe reads one table as before (shared with the threads that probe,
// shared-build-side), and nothing is copied or merged.

import type { Column } from '../../columnar/page.js';
import { sharePage } from '../../columnar/shared-page.js';
import type { SqlType } from '../../types/types.js';
import { toEngineError } from '../../errors/engine-error.js';
import { IntegerJoinHash, isIntegerKeyType } from '../hash/integer-join-hash.js';
import { JoinHash } from '../hash/join-hash.js';
import { nullKeyRowsOf } from '../hash/join-lookup.js';
import { newInt32Array } from '../hash/shared-join-lookup.js';
import { regionBitsFor } from '../hash/table-regions.js';
import { decodePage, encodePage } from './page-transfer.js';
import { errorFromPayload, errorPayload, type FillJoinTable, type ThreadToMain } from './thread-messages.js';
import { newJobId, type PooledThread, type ThreadPool } from './thread-pool.js';

/** Whether threads can fill the table over these key columns: every value in a typed array (strings cannot be shared). */
export function keysShareable(keys: readonly Column[]): boolean {
  return keys.every((k) => !Array.isArray(k.values) && k.children === undefined && k.utf8 === undefined);
}

/**
 * The lookup table over `rows` rows of `keys` (of `keyTypes`), filled by `threads` of `pool`, with its
 * threads' CPU time; undefined when a region ran out of slots (keys too skewed: build it here instead).
 */
export async function fillJoinTableOnThreads(
  pool: ThreadPool,
  keyTypes: readonly SqlType[],
  keys: readonly Column[],
  rows: number,
  threads: number,
): Promise<{ lookup: IntegerJoinHash | JoinHash; cpuMillis: number } | undefined> {
  const sharedKeys = sharePage({ rowCount: rows, columns: [...keys] }).columns;
  const regionBits = regionBitsFor(threads);
  const table =
    keyTypes.length === 1 && isIntegerKeyType(keyTypes[0])
      ? IntegerJoinHash.empty(sharedKeys[0], rows, regionBits, true)
      : JoinHash.empty(keyTypes, sharedKeys, rows, regionBits, true);
  const workers = pool.acquire(threads);
  const base = {
    type: 'fillJoinTable' as const,
    lookup: table.share(),
    keys: encodePage({ rowCount: rows, columns: sharedKeys }).page,
    hashes: table instanceof IntegerJoinHash ? newInt32Array(rows, true) : new Int32Array(0),
  };
  let cpuMillis = 0;
  const run = (worker: PooledThread, step: FillJoinTable['step']): Promise<boolean> =>
    fillStep(pool, worker, { ...base, taskId: newJobId(), step }).then((done) => {
      cpuMillis += done.cpuMillis;
      return done.regionFull;
    });
  const per = Math.ceil(rows / workers.length);
  await Promise.all(workers.map((w, i) => run(w, { kind: 'hash', from: Math.min(rows, i * per), end: Math.min(rows, (i + 1) * per) })));
  const regions = Array.from({ length: 2 ** regionBits }, (_, region) => region);
  const full = await Promise.all(regions.map((region) => run(workers[region % workers.length], { kind: 'insert', region })));
  if (full.includes(true)) return undefined;
  table.nullKeyRows = nullKeyRowsOf(sharedKeys, rows);
  return { lookup: table, cpuMillis };
}

function fillStep(pool: ThreadPool, worker: PooledThread, message: FillJoinTable): Promise<{ cpuMillis: number; regionFull: boolean }> {
  return new Promise((resolve, reject) => {
    pool.startTask(worker, message, {
      onMessage: (answer) => {
        if (answer.type === 'joinTableFilled') resolve(answer);
        else if (answer.type === 'failed') reject(errorFromPayload(answer.error));
      },
      onFailure: reject,
    });
  });
}

/** In the thread: one step of a fill (the table's arrays and the keys are views of the main thread's shared memory). */
export function fillJoinTable(request: FillJoinTable): ThreadToMain {
  const started = performance.now();
  const { taskId, lookup, step } = request;
  try {
    const keys = decodePage(request.keys).columns;
    let regionFull = false;
    if (lookup.kind === 'integer') {
      if (step.kind === 'hash') IntegerJoinHash.hashRange(keys[0], request.hashes, step.from, step.end);
      else regionFull = !IntegerJoinHash.fromShared(lookup).insertRegion(keys[0], request.hashes, step.region);
    } else {
      const table = JoinHash.fromShared(lookup, keys);
      if (step.kind === 'hash') table.hashRange(step.from, step.end);
      else regionFull = !table.insertRegion(step.region);
    }
    return { type: 'joinTableFilled', taskId, cpuMillis: performance.now() - started, regionFull };
  } catch (e) {
    return { type: 'failed', taskId, error: errorPayload(toEngineError(e)) };
  }
}
