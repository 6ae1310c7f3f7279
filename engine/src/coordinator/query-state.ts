// The states of a query as clients see them (Trino's QueryState), in lifecycle order.

export const QUERY_STATES = ['QUEUED', 'PLANNING', 'STARTING', 'RUNNING', 'FINISHING', 'FINISHED', 'FAILED'] as const;
export type QueryState = (typeof QUERY_STATES)[number];

export function isDone(state: QueryState): boolean {
  return state === 'FINISHED' || state === 'FAILED';
}

/** True once `state` is `reference` or later in the lifecycle. */
export function isAtLeast(state: QueryState, reference: QueryState): boolean {
  return QUERY_STATES.indexOf(state) >= QUERY_STATES.indexOf(reference);
}
