// A window function's frame as the plan states it: ROWS, RANGE or GROUPS between two bounds. Offsets
// are columns of the window's input (one value per row, as Trino allows any expression there); the
// plan names them by symbol, the operator by channel.

import type { Symbol } from './row-expression.js';

export type FrameBoundType = 'UNBOUNDED_PRECEDING' | 'PRECEDING' | 'CURRENT_ROW' | 'FOLLOWING' | 'UNBOUNDED_FOLLOWING';

export interface FrameBoundSpec<Ref = Symbol> {
  type: FrameBoundType;
  /** PRECEDING / FOLLOWING: the offset of each row (rows, peer groups, or a value for RANGE); never NULL or negative. */
  offset?: Ref;
  /**
   * RANGE PRECEDING / FOLLOWING: the value the bound sits at for each row, the sort key minus or
   * plus the offset (computed with SQL arithmetic, so dates move by calendar months).
   */
  value?: Ref;
  /** RANGE PRECEDING / FOLLOWING: the sort key in `value`'s type, which rows' keys are compared in. */
  sortKey?: Ref;
}

export interface FrameSpec<Ref = Symbol> {
  unit: 'ROWS' | 'RANGE' | 'GROUPS';
  start: FrameBoundSpec<Ref>;
  end: FrameBoundSpec<Ref>;
}

/** The same frame with its column references mapped (symbols to channels). */
export function mapFrame<A, B>(frame: FrameSpec<A>, f: (ref: A) => B): FrameSpec<B> {
  const bound = (b: FrameBoundSpec<A>): FrameBoundSpec<B> => ({
    type: b.type,
    ...(b.offset !== undefined ? { offset: f(b.offset) } : {}),
    ...(b.value !== undefined ? { value: f(b.value) } : {}),
    ...(b.sortKey !== undefined ? { sortKey: f(b.sortKey) } : {}),
  });
  return { unit: frame.unit, start: bound(frame.start), end: bound(frame.end) };
}

/** Every column a frame reads. */
export function frameReferences<Ref>(frame: FrameSpec<Ref>): Ref[] {
  return [frame.start, frame.end].flatMap((b) => [b.offset, b.value, b.sortKey].filter((r): r is Ref => r !== undefined));
}

/** `RANGE frame_start PRECEDING CURRENT_ROW`, as Trino's EXPLAIN prints a frame. */
export function formatFrame<Ref>(frame: FrameSpec<Ref>, name: (ref: Ref) => string): string {
  const bound = (b: FrameBoundSpec<Ref>): string => {
    const shown = b.value ?? b.offset;
    return shown === undefined ? b.type : `${name(shown)} ${b.type}`;
  };
  return `${frame.unit} ${bound(frame.start)} ${bound(frame.end)}`;
}
