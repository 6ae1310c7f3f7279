// MarkDistinct: passes every row on with a boolean column, TRUE where the row's distinct channels
// take a combination no earlier row had (NULLs compare equal, as in GROUP BY). Only the hash of the
// combinations is held, never the rows, so the operator streams.

import { BOOLEAN, type SqlType } from '../../types/types.js';
import { newKeyGroupTable } from '../hash/key-group-table.js';
import type { OperatorContext, PageStream } from './operator.js';
import { MemoryReservation, throwIfCanceled } from './operator-support.js';

export interface MarkDistinctSpec {
  inputTypes: readonly SqlType[];
  distinctChannels: number[];
}

export async function* markDistinct(ctx: OperatorContext, input: PageStream, spec: MarkDistinctSpec): PageStream {
  const seen = newKeyGroupTable(spec.distinctChannels.map((c) => spec.inputTypes[c]));
  const reservation = new MemoryReservation(ctx.memory);
  let ids = new Int32Array(0);
  try {
    for await (const page of input) {
      throwIfCanceled(ctx);
      const n = page.rowCount;
      if (ids.length < n) ids = new Int32Array(n);
      let next = seen.groupCount;
      seen.putRows(
        spec.distinctChannels.map((c) => page.columns[c]),
        n,
        ids,
      );
      // A combination's first row is the one that made its (dense, increasing) id.
      const marker = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        if (ids[i] === next) {
          marker[i] = 1;
          next++;
        }
      }
      reservation.set(seen.sizeInBytes() + ids.byteLength);
      yield { rowCount: n, columns: [...page.columns, { type: BOOLEAN, length: n, values: marker, nulls: null }] };
    }
  } finally {
    seen.release();
    reservation.release();
  }
}
