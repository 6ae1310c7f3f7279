// The thresholds of a parallel scan's adaptive decisions (physical-plan.ts), shared by the planner
// that declares them and the worker threads that apply them (measured on two cores).

/** Threads from which on the threads finish a grouped aggregation themselves (see exec/threads/partitioned-final; partitioned_aggregation). */
export const PARTITIONED_FINAL_MIN_THREADS = 2;
/** Input rows a partial aggregation on the threads aggregates before it checks it pays (about one split). */
export const PARTIAL_PROBE_ROWS = 65536;
/** Groups per input row above which a partial aggregation does not pay. */
export const PARTIAL_MAX_GROUPS_PER_ROW = 0.2;
/** Probe rows up to which a mark join's probe side counts as small: read ahead, hashed, and the build side streamed past it (exec/operators/probe-head). */
export const PROBE_FIRST_MAX_ROWS = 1 << 19;
