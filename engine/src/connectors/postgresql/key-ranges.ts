// The key ranges a table is read in by several splits: [min, max] of an integer key cut into
// `count` ranges of equal width. The first and the last are open-ended, so a row written after the
// bounds were read still falls in exactly one split.

import type { KeyRange } from './scan-query.js';

export function keyRanges(column: string, min: bigint, max: bigint, count: number): KeyRange[] {
  const span = max - min + 1n;
  const parts = span < BigInt(count) ? Number(span) : count;
  const width = (span + BigInt(parts) - 1n) / BigInt(parts);
  const ranges: KeyRange[] = [];
  for (let i = 0; i < parts; i++) {
    const low = i === 0 ? undefined : String(min + width * BigInt(i));
    const high = i === parts - 1 ? undefined : String(min + width * BigInt(i + 1));
    ranges.push({ column, ...(low === undefined ? {} : { low }), ...(high === undefined ? {} : { high }) });
  }
  return ranges;
}
