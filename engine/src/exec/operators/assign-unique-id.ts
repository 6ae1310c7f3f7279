// Appends a bigint column with a distinct id per row (decorrelation needs a row identity).
// `idBase` keeps ids of parallel instances apart (e.g. the task number shifted into the high bits).

import { int64Words } from '../../columnar/hash-functions.js';
import type { PageStream } from './operator.js';
import { BIGINT } from '../../types/types.js';
import { EngineError } from '../../errors/engine-error.js';

const TWO_32 = 4294967296;

/** Ids one task may give: 2^40 (a task's rows); the task number goes above them, below 2^53 (exact in a number). */
const IDS_PER_TASK = 2 ** 40;
const MAX_TASKS = 2 ** 13;

/**
 * The first id a task gives, by its number (the last part of the coordinator's task ids,
 * query.fragment.number): tasks of one stage number their rows apart, so their rows need not meet
 * in one task first. An id of another form (a test's own) numbers from 0.
 */
export function taskIdBase(taskId: string): number {
  const taskNumber = Number(taskId.slice(taskId.lastIndexOf('.') + 1));
  if (!Number.isInteger(taskNumber) || taskNumber < 0) return 0;
  if (taskNumber >= MAX_TASKS)
    throw new EngineError('GENERIC_INTERNAL_ERROR', `Task ${taskId}: its number is beyond the unique ids' range`);
  return taskNumber * IDS_PER_TASK;
}

export async function* assignUniqueId(input: PageStream, idBase = 0): PageStream {
  let next = idBase;
  for await (const page of input) {
    const n = page.rowCount;
    const values = new BigInt64Array(n);
    const words = int64Words(values);
    for (let i = 0; i < n; i++, next++) {
      const hi = Math.floor(next / TWO_32);
      words[2 * i] = (next - hi * TWO_32) | 0;
      words[2 * i + 1] = hi;
    }
    yield { rowCount: n, columns: [...page.columns, { type: BIGINT, length: n, values, nulls: null }] };
  }
}
