// Appends a bigint column with a distinct id per row (decorrelation needs a row identity).
// `idBase` keeps ids of parallel instances apart (e.g. the task number shifted into the high bits).

import { int64Words } from '../../columnar/hash-functions.js';
import type { PageStream } from './operator.js';
import { BIGINT } from '../../types/types.js';

const TWO_32 = 4294967296;

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
