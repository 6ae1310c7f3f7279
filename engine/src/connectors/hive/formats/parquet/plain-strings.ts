// Plain-encoded strings (BYTE_ARRAY values, each after its 4-byte length) decoded straight from the
// page: when the region holding them, length prefixes included, is ASCII, it is one latin1 string
// and each value a substring of it, without first copying the values into a compacted buffer (a
// copy per value, which was most of the cost of a comment column). Otherwise the caller decodes them
// as before (decodePlain, then decodeStrings), which gives the same strings for ASCII bytes. With
// picks (the rows a filter on another column left), only their substrings are made.

import { isAscii } from 'node:buffer';
import type { RowPicks } from './column-chunk-decoder.js';
import type { PageScratch } from './page-scratch.js';
import { ParquetDataError } from './parquet-errors.js';

/**
 * The `count` values in bytes[pos, end) as strings, or undefined when their region is not ASCII.
 * With `picks`, only the values at positions rows[j] - first (j in [from, to)) are set.
 */
export function plainAsciiStrings(
  bytes: Uint8Array,
  pos: number,
  end: number,
  count: number,
  scratch?: PageScratch,
  picks?: RowPicks,
): string[] | undefined {
  // starts[i]: where value i starts, from pos; value i ends 4 bytes before starts[i + 1].
  const starts = scratch?.offsets(count + 1) ?? new Int32Array(count + 1);
  let p = pos;
  for (let i = 0; i < count; i++) {
    if (p + 4 > end) throw new ParquetDataError('byte array length past the end of the page');
    const length = (bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24)) >>> 0;
    starts[i] = p + 4 - pos;
    p += 4 + length;
    if (p > end) throw new ParquetDataError('byte array value past the end of the page');
  }
  starts[count] = p + 4 - pos;
  const region = bytes.subarray(pos, p);
  if (!isAscii(region)) return undefined;
  const all = Buffer.from(region.buffer, region.byteOffset, region.byteLength).toString('latin1');
  const out = new Array<string>(count);
  if (picks === undefined) for (let i = 0; i < count; i++) out[i] = all.substring(starts[i], starts[i + 1] - 4);
  else {
    const { rows, from, to, first } = picks;
    for (let j = from; j < to; j++) {
      const i = rows[j] - first;
      out[i] = all.substring(starts[i], starts[i + 1] - 4);
    }
  }
  return out;
}
