// Window frames: for each row of a partition, the rows [frameStart, frameEnd) its frame covers, for
// ROWS (row offsets), RANGE (peers, or sort-key values at an offset) and GROUPS (peer-group offsets),
// as Trino frames them. Offsets are per row; RANGE bounds compare each row's sort key with the bound
// value the plan computed (sort key -/+ offset), so any orderable key type and any offset type work
// exactly, and the search is a binary search over the partition's sorted keys.

import { EngineError } from '../../errors/engine-error.js';
import { toFloat64 } from '../../functions/aggregate/accumulator-support.js';
import type { Column, Page } from '../../columnar/page.js';
import type { FrameBoundSpec, FrameBoundType, FrameSpec } from '../../sql/planner/window-frame.js';
import type { SortKey } from '../../functions/scalar/value-ordering.js';
import { prepareValues, valueCompareFor } from '../../functions/scalar/value-ordering.js';

/** A bound made ready for one sorted input. */
interface PreparedBound {
  readonly type: FrameBoundType;
  /** ROWS / GROUPS PRECEDING or FOLLOWING: each row's offset. */
  readonly offsets: Float64Array | null;
  /** RANGE PRECEDING or FOLLOWING: how row j's sort key lies against row i's bound value. */
  readonly compare: ((j: number, i: number) => number) | null;
}

export interface PreparedFrame {
  readonly unit: FrameSpec['unit'];
  readonly start: PreparedBound;
  readonly end: PreparedBound;
  /** The NULL mask of the single sort key (RANGE with offsets), null when it has no NULLs. */
  readonly keyNulls: Uint8Array | null;
}

/**
 * Checks the frame's offsets over the whole sorted input (a NULL or negative offset fails the query,
 * whatever row it is on, as in Trino) and readies its bounds.
 */
export function prepareFrame(frame: FrameSpec<number>, sorted: Page, orderKeys: readonly SortKey[]): PreparedFrame {
  const isRange = frame.unit === 'RANGE';
  const bound = (b: FrameBoundSpec<number>): PreparedBound => {
    if (b.offset === undefined) return { type: b.type, offsets: null, compare: null };
    const offsets = checkedOffsets(sorted.columns[b.offset]);
    if (!isRange) return { type: b.type, offsets, compare: null };
    return { type: b.type, offsets: null, compare: rangeCompare(sorted, b, orderKeys[0]) };
  };
  const start = bound(frame.start);
  const end = bound(frame.end);
  const ranged = start.compare !== null || end.compare !== null;
  const keyNulls = ranged ? sorted.columns[orderKeys[0].channel].nulls : null;
  return { unit: frame.unit, start, end, keyNulls };
}

function checkedOffsets(column: Column): Float64Array {
  const offsets = toFloat64(column);
  for (let i = 0; i < column.length; i++) {
    if ((column.nulls !== null && column.nulls[i] === 1) || offsets[i] < 0) {
      throw new EngineError('INVALID_WINDOW_FRAME', 'Window frame offset value must not be negative or null');
    }
  }
  return offsets;
}

/** Negative when row j's key comes before row i's bound value in the window's order, zero at it. */
function rangeCompare(sorted: Page, bound: FrameBoundSpec<number>, key: SortKey): (j: number, i: number) => number {
  const keys = sorted.columns[bound.sortKey as number];
  const values = sorted.columns[bound.value as number];
  const compare = valueCompareFor(keys.type);
  const k = prepareValues(keys.values);
  const v = prepareValues(values.values);
  return key.ascending ? (j, i) => compare(k, j, v, i) : (j, i) => compare(v, i, k, j);
}

/** Fills frameStart/frameEnd for rows [start, end) of one partition. */
export function computeFrames(
  frame: PreparedFrame,
  start: number,
  end: number,
  peerStart: Int32Array,
  peerEnd: Int32Array,
  frameStart: Int32Array,
  frameEnd: Int32Array,
): void {
  const groups = frame.unit === 'GROUPS' ? peerGroups(start, end, peerStart) : null;
  const nonNull = nonNullRange(frame.keyNulls, start, end);
  for (let i = start; i < end; i++) {
    let s: number;
    let e: number;
    if (frame.unit === 'ROWS') {
      s = rowsBound(frame.start, i, false);
      e = rowsBound(frame.end, i, true);
    } else if (frame.unit === 'GROUPS') {
      s = groupsBound(frame.start, i, false, start, end, peerStart, peerEnd, groups as PeerGroups);
      e = groupsBound(frame.end, i, true, start, end, peerStart, peerEnd, groups as PeerGroups);
    } else {
      s = rangeBound(frame.start, i, false, peerStart, peerEnd, frame.keyNulls, nonNull);
      e = rangeBound(frame.end, i, true, peerStart, peerEnd, frame.keyNulls, nonNull);
    }
    if (frame.start.type === 'UNBOUNDED_PRECEDING') s = start;
    if (frame.end.type === 'UNBOUNDED_FOLLOWING') e = end;
    s = Math.min(Math.max(s, start), end);
    e = Math.min(Math.max(e, start), end);
    frameStart[i] = s;
    frameEnd[i] = e;
  }
}

/** A bound as a row index: the first row of the frame (start) or one past its last row (end). */
function rowsBound(bound: PreparedBound, i: number, isEnd: boolean): number {
  const past = isEnd ? 1 : 0;
  switch (bound.type) {
    case 'CURRENT_ROW':
      return i + past;
    case 'PRECEDING':
      return i - (bound.offsets as Float64Array)[i] + past;
    case 'FOLLOWING':
      return i + (bound.offsets as Float64Array)[i] + past;
    default:
      return i; // unbounded: replaced by the partition edge
  }
}

interface PeerGroups {
  /** The first row of each peer group of the partition. */
  starts: number[];
  /** The index of row (start + k)'s peer group. */
  indexOf: Int32Array;
}

function peerGroups(start: number, end: number, peerStart: Int32Array): PeerGroups {
  const starts: number[] = [];
  const indexOf = new Int32Array(end - start);
  for (let i = start; i < end; i++) {
    if (peerStart[i] === i) starts.push(i);
    indexOf[i - start] = starts.length - 1;
  }
  return { starts, indexOf };
}

function groupsBound(
  bound: PreparedBound,
  i: number,
  isEnd: boolean,
  start: number,
  end: number,
  peerStart: Int32Array,
  peerEnd: Int32Array,
  groups: PeerGroups,
): number {
  if (bound.type === 'CURRENT_ROW') return isEnd ? peerEnd[i] : peerStart[i];
  if (bound.type !== 'PRECEDING' && bound.type !== 'FOLLOWING') return i;
  const offset = (bound.offsets as Float64Array)[i];
  const g = groups.indexOf[i - start] + (bound.type === 'PRECEDING' ? -offset : offset);
  if (g < 0) return start;
  if (g >= groups.starts.length) return end;
  const groupStart = groups.starts[g];
  return isEnd ? peerEnd[groupStart] : groupStart;
}

/** The rows of a partition whose sort key is not NULL (NULLs sort together at one end). */
function nonNullRange(nulls: Uint8Array | null, start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  if (nulls !== null) {
    while (s < e && nulls[s] === 1) s++;
    while (e > s && nulls[e - 1] === 1) e--;
  }
  return { start: s, end: e };
}

function rangeBound(
  bound: PreparedBound,
  i: number,
  isEnd: boolean,
  peerStart: Int32Array,
  peerEnd: Int32Array,
  keyNulls: Uint8Array | null,
  nonNull: { start: number; end: number },
): number {
  if (bound.compare === null) return isEnd ? peerEnd[i] : peerStart[i]; // CURRENT ROW (unbounded is replaced later)
  // A row with a NULL key: an offset bound acts as CURRENT ROW, its frame is the NULLs (SQL standard).
  if (keyNulls !== null && keyNulls[i] === 1) return isEnd ? peerEnd[i] : peerStart[i];
  // Rows with a non-NULL key frame only non-NULL keys. start: the first row at or after the bound
  // value; end: one past the last row at or before it.
  const compare = bound.compare;
  let lo = nonNull.start;
  let hi = nonNull.end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compare(mid, i);
    if (c < 0 || (isEnd && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
