// A window function's frame as the plan states it: ROWS, RANGE or GROUPS between two bounds.

export type FrameBoundType = 'UNBOUNDED_PRECEDING' | 'PRECEDING' | 'CURRENT_ROW' | 'FOLLOWING' | 'UNBOUNDED_FOLLOWING';

export interface FrameBoundSpec {
  type: FrameBoundType;
  /** The constant offset of PRECEDING / FOLLOWING (in the sort key's value units for RANGE). */
  offset?: number | bigint;
}

export interface FrameSpec {
  unit: 'ROWS' | 'RANGE' | 'GROUPS';
  start: FrameBoundSpec;
  end: FrameBoundSpec;
}
