// Window frames: for each row of a partition, the rows [frameStart, frameEnd) its frame covers, for
// ROWS (row offsets), RANGE (peers, or sort-key value offsets) and GROUPS (peer-group offsets).

import { EngineError } from '../../errors/engine-error.js';
import type { FrameBoundSpec, FrameSpec } from '../../sql/planner/window-frame.js';

/** The single ORDER BY key of a RANGE frame with offsets, ascending-normalised (negated when DESC). */
export interface RangeKey {
  values: Float64Array;
  nulls: Uint8Array | null;
}

export function frameNeedsRangeKey(frame: FrameSpec): boolean {
  return frame.unit === 'RANGE' && (hasOffset(frame.start) || hasOffset(frame.end));
}

function hasOffset(bound: FrameBoundSpec): boolean {
  return bound.type === 'PRECEDING' || bound.type === 'FOLLOWING';
}

function offsetOf(bound: FrameBoundSpec): number {
  const offset = Number(bound.offset ?? 0);
  if (!(offset >= 0)) throw new EngineError('INVALID_WINDOW_FRAME', 'Window frame offset value must not be negative or null');
  return offset;
}

/** Fills frameStart/frameEnd for rows [start, end) of one partition. */
export function computeFrames(
  frame: FrameSpec,
  start: number,
  end: number,
  peerStart: Int32Array,
  peerEnd: Int32Array,
  rangeKey: RangeKey | null,
  frameStart: Int32Array,
  frameEnd: Int32Array,
): void {
  const groups = frame.unit === 'GROUPS' ? peerGroups(start, end, peerStart) : null;
  const nonNull = rangeKey === null ? null : nonNullRange(rangeKey, start, end);
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
      s = rangeBound(frame.start, i, false, peerStart, peerEnd, rangeKey, nonNull);
      e = rangeBound(frame.end, i, true, peerStart, peerEnd, rangeKey, nonNull);
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
function rowsBound(bound: FrameBoundSpec, i: number, isEnd: boolean): number {
  const past = isEnd ? 1 : 0;
  switch (bound.type) {
    case 'CURRENT_ROW':
      return i + past;
    case 'PRECEDING':
      return i - offsetOf(bound) + past;
    case 'FOLLOWING':
      return i + offsetOf(bound) + past;
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
  bound: FrameBoundSpec,
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
  const g = groups.indexOf[i - start] + (bound.type === 'PRECEDING' ? -offsetOf(bound) : offsetOf(bound));
  if (g < 0) return start;
  if (g >= groups.starts.length) return end;
  const groupStart = groups.starts[g];
  return isEnd ? peerEnd[groupStart] : groupStart;
}

/** The rows of a partition whose range key is not NULL (NULLs sort together at one end). */
function nonNullRange(key: RangeKey, start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  if (key.nulls !== null) {
    while (s < e && key.nulls[s] === 1) s++;
    while (e > s && key.nulls[e - 1] === 1) e--;
  }
  return { start: s, end: e };
}

function rangeBound(
  bound: FrameBoundSpec,
  i: number,
  isEnd: boolean,
  peerStart: Int32Array,
  peerEnd: Int32Array,
  key: RangeKey | null,
  nonNull: { start: number; end: number } | null,
): number {
  if (bound.type === 'CURRENT_ROW') return isEnd ? peerEnd[i] : peerStart[i];
  if (bound.type !== 'PRECEDING' && bound.type !== 'FOLLOWING') return i;
  const k = key as RangeKey;
  // A row with a NULL key: its frame bound is its peer group (the NULLs).
  if (k.nulls !== null && k.nulls[i] === 1) return isEnd ? peerEnd[i] : peerStart[i];
  const range = nonNull as { start: number; end: number };
  const target = k.values[i] + (bound.type === 'PRECEDING' ? -offsetOf(bound) : offsetOf(bound));
  // start: the first row with key >= target; end: one past the last row with key <= target.
  return isEnd ? upperBound(k.values, range.start, range.end, target) : lowerBound(k.values, range.start, range.end, target);
}

function lowerBound(values: Float64Array, lo: number, hi: number, target: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(values: Float64Array, lo: number, hi: number, target: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
