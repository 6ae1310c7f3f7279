// What the optimizer offers a connector to do in its place (as Trino's ConnectorMetadata applyFilter,
// applyLimit, applyTopN and applyAggregation): a filter, a limit, a top-N or an aggregation right
// above a table scan. A connector that takes one answers with a new handle for the scan, plain JSON
// that says what it now does (it travels to workers with the plan and in the splits), and the
// optimizer replaces the nodes it took. A connector that answers nothing leaves the plan as it was.
//
// Expressions reach the connector over its columns, by name, never over the planner's symbols:
// function and operator names are the engine's (`equal`, `less_than`, ... as in row-expression.ts),
// constants are scalars of their type. A connector takes only what it evaluates exactly as the
// engine does; the rest stays in the plan.

import type { ColumnMetadata } from './connector.js';
import type { Scalar } from '../types/scalar.js';
import type { SqlType } from '../types/types.js';

export type ConnectorExpression =
  | { kind: 'column'; name: string; type: SqlType }
  | { kind: 'constant'; value: Scalar; type: SqlType }
  /** A scalar function or operator, by its registry name. */
  | { kind: 'call'; name: string; args: ConnectorExpression[]; type: SqlType }
  | { kind: 'cast'; arg: ConnectorExpression; type: SqlType; safe: boolean }
  /** and, or, not, is_null, in, between, like, ... with the engine's three-valued semantics. */
  | { kind: 'special'; form: string; args: ConnectorExpression[]; type: SqlType };

/** What a connector has taken over for a scan: its own plain-JSON handle, and what EXPLAIN prints of it. */
export interface PushedScan {
  /** Connector-defined and JSON-serialisable (bigints, bytes and non-finite numbers are tagged in transit). */
  handle: unknown;
  /** What the scan does besides reading, one item per pushed part: `filter = (x > 5)`, `limit = 10`. */
  explain: string[];
}

export interface FilterApplication {
  pushed: PushedScan;
  /**
   * The offered conjuncts the connector evaluates exactly (their indexes): the engine no longer
   * checks them. The others stay in a filter above the scan; a connector may still use them (to
   * prune) without taking them.
   */
  enforced: readonly number[];
}

export interface SortItem {
  column: string;
  ascending: boolean;
  nullsFirst: boolean;
}

export interface ConnectorAggregate {
  /** The aggregate function's name: count, sum, min, max, avg, ... */
  function: string;
  /** Its arguments: columns of the scan (none for count(*)). */
  arguments: ConnectorExpression[];
  distinct: boolean;
  /** The type the engine's function returns for these arguments: the connector must produce exactly it. */
  outputType: SqlType;
}

export interface AggregationApplication {
  pushed: PushedScan;
  /**
   * The columns the new scan reads, one per grouping column, then one per aggregate, in the order
   * offered. The scan's rows are the aggregation's complete result: one row per group (one row for
   * a global aggregation, even over no rows), never a partial one.
   */
  columns: ColumnMetadata[];
}
