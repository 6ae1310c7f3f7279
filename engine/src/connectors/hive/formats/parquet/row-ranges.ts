// Sets of rows of a row group as sorted, disjoint [start, end) ranges: what page-index pruning
// leaves to read.

export type RowRanges = readonly (readonly [number, number])[];

export function allRows(rowCount: number): RowRanges {
  return rowCount > 0 ? [[0, rowCount]] : [];
}

export function rowCountOf(ranges: RowRanges): number {
  let n = 0;
  for (const [s, e] of ranges) n += e - s;
  return n;
}

export function intersectRanges(a: RowRanges, b: RowRanges): RowRanges {
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i][0], b[j][0]);
    const end = Math.min(a[i][1], b[j][1]);
    if (start < end) out.push([start, end]);
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return out;
}

/** Appends [start, end) to sorted ranges, merging it with the last when they touch. */
export function appendRange(ranges: [number, number][], start: number, end: number): void {
  const last = ranges[ranges.length - 1];
  if (last !== undefined && last[1] >= start) last[1] = Math.max(last[1], end);
  else ranges.push([start, end]);
}

export function overlaps(ranges: RowRanges, start: number, end: number): boolean {
  for (const [s, e] of ranges) if (s < end && start < e) return true;
  return false;
}
