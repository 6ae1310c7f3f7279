// Session properties that tasks read on any node (planner, executor): their defaults and values.
// The full list of system session properties, with their descriptions and checks, is the
// coordinator's (coordinator/system-session-properties.ts).

import type { PropertyMetadata } from './properties.js';
import type { Session } from './session.js';

/** Defaults of the integer properties that tasks read on any node. */
export const INTEGER_SESSION_DEFAULTS = {
  task_concurrency: 2,
  parallel_min_splits: 2,
  max_recursion_depth: 10,
  parallel_hash_build_min_rows: 65_536,
} as const;

/** An integer session property that tasks read: the session's value, or its default. */
export function integerSessionProperty(session: Session, name: keyof typeof INTEGER_SESSION_DEFAULTS): number {
  const value = session.properties.get(name);
  return value === undefined ? INTEGER_SESSION_DEFAULTS[name] : Number(value);
}

/** A boolean session property (a switch such as `parallel_join_probe`): the session's value, or its default. */
export function booleanSessionProperty(session: Session, property: PropertyMetadata): boolean {
  const value = session.properties.get(property.name);
  return value === undefined ? property.defaultValue === true : value.toLowerCase() === 'true';
}
