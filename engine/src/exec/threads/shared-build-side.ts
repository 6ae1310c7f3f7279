// The build sides of the joins a scan pipeline probes, made once in the main thread and shared
// with every worker thread of the run. The rows and the lookup table are built in shared memory
// (buildSide with `shared`), so a thread receives views of the same buffers, not a copy, and probes
// them read only; only string, long decimal and binary columns (which cannot live in shared
// memory) are copied to each thread, and each thread counts that copy in its memory.
//
// One table for all threads rather than one per thread: a table per thread would repeat the
// build's work in every thread (after the main thread has gathered the build rows anyway) and
// multiply its memory by the threads; sharing costs one copy of the rows into shared memory.

import { lookupFromShared } from '../hash/shared-join-lookup-revival.js';
import type { SharedJoinLookup } from '../hash/shared-join-lookup.js';
import type { BuildSide } from '../operators/join-build-side.js';
import { yieldIfDue } from '../../columnar/cooperative.js';
import type { OperatorContext } from '../operators/operator.js';
import { decodePage, encodePage, type EncodedPage } from './page-transfer.js';

const DICTIONARY_MIN_REPEATS = 4;
/** Rows of a column's dictionary made between two chances of a turn of the event loop. */
const DICTIONARY_SLICE_ROWS = 65_536;

export interface SharedBuildSide {
  /** The rows; a column in `dictionaries` travels without its values. */
  page: EncodedPage;
  /** String columns whose values repeat: their distinct values, and each row's index among them in shared memory. */
  dictionaries: { column: number; values: string[]; indexes: Int32Array }[];
  lookup: SharedJoinLookup | null;
  /** The chain through every row, for a join without keys (a nested loop). */
  next: Int32Array;
}

/**
 * A build side made with `shared`, as a message for every thread of a run. A big build's string
 * columns took a worker's loop 20-46 ms in one piece under 8 clients: the loop gets a turn, when one
 * is due, between the columns and between the slices of a column's dictionary.
 */
export async function shareBuildSide(side: BuildSide, ctx: Pick<OperatorContext, 'signal' | 'stats'>): Promise<SharedBuildSide> {
  const dictionaries: SharedBuildSide['dictionaries'] = [];
  const { rowCount } = side.page;
  const columns: EncodedPage['columns'] = [];
  for (let i = 0; i < side.page.columns.length; i++) {
    await yieldIfDue(ctx.signal, ctx.stats);
    const column = side.page.columns[i];
    const dictionary =
      column.type.kind === 'varchar' || column.type.kind === 'char'
        ? await dictionaryOf(column.values as string[], column.length, ctx)
        : undefined;
    if (dictionary !== undefined) dictionaries.push({ column: i, ...dictionary });
    await yieldIfDue(ctx.signal, ctx.stats);
    // Nothing is transferred: the message goes to every thread (only packed binaries are copied).
    const encoded = encodePage({ rowCount, columns: [dictionary === undefined ? column : { ...column, values: [] }] });
    columns.push(encoded.page.columns[0]);
  }
  return { page: { rowCount, columns }, dictionaries, lookup: side.hash === null ? null : side.hash.share(), next: side.next };
}

/** This thread's view of a shared build side, whose lookup table is over the columns `keys`. */
export function buildSideFromShared(shared: SharedBuildSide, keys: readonly number[]): BuildSide {
  const decoded = decodePage(shared.page);
  const columns = [...decoded.columns];
  for (const { column, values, indexes } of shared.dictionaries) {
    const strings = new Array<string>(indexes.length);
    for (let row = 0; row < indexes.length; row++) strings[row] = values[indexes[row]];
    columns[column] = { ...columns[column], values: strings };
  }
  const page = { rowCount: decoded.rowCount, columns };
  const hash =
    shared.lookup === null
      ? null
      : lookupFromShared(
          shared.lookup,
          keys.map((c) => page.columns[c]),
        );
  return { page, hash, next: hash === null ? shared.next : hash.next };
}

/**
 * The distinct values of a string column and each row's index among them, when they repeat enough
 * (at most one distinct value in DICTIONARY_MIN_REPEATS rows) that sending them so costs less than
 * copying every row's string to every thread.
 */
async function dictionaryOf(
  strings: readonly string[],
  length: number,
  ctx: Pick<OperatorContext, 'signal' | 'stats'>,
): Promise<{ values: string[]; indexes: Int32Array } | undefined> {
  const limit = Math.max(1, Math.floor(length / DICTIONARY_MIN_REPEATS));
  const ids = new Map<string, number>();
  const indexes = new Int32Array(new SharedArrayBuffer(length * 4));
  for (let start = 0; start < length; start += DICTIONARY_SLICE_ROWS) {
    if (start > 0) await yieldIfDue(ctx.signal, ctx.stats);
    const end = Math.min(length, start + DICTIONARY_SLICE_ROWS);
    for (let row = start; row < end; row++) {
      const value = strings[row];
      let id = ids.get(value);
      if (id === undefined) {
        if (ids.size === limit) return undefined;
        id = ids.size;
        ids.set(value, id);
      }
      indexes[row] = id;
    }
  }
  return { values: [...ids.keys()], indexes };
}
