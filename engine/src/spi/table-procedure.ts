// Table procedures (ALTER TABLE t EXECUTE procedure(...) [WHERE ...]), as Trino's connectors offer
// them: each by its canonical (upper-case) name with its properties; the coordinator parses the
// call and hands the connector the values and, for a WHERE on partition columns, the partitions it
// selects.

import type { Scalar } from '../types/scalar.js';
import type { Session } from './session.js';
import type { TableMetadata } from './connector.js';

export interface TableProcedureProperty {
  name: string;
  description: string;
  /** A data size such as '100MB' (the only kind of property table procedures have so far). */
  kind: 'dataSize';
  defaultValue: string;
}

export interface TableProcedureCall {
  /** The canonical name, e.g. OPTIMIZE. */
  procedure: string;
  /** Every property's value: data sizes in bytes. */
  values: ReadonlyMap<string, number>;
  /** With a WHERE: the partition values (in partition column order) of the partitions it selects. */
  partitions?: readonly Scalar[][];
}

export interface TableProcedures {
  /** The procedures by canonical name, with their properties in positional order. */
  readonly procedures: ReadonlyMap<string, readonly TableProcedureProperty[]>;
  /** The columns a WHERE of the call may name (a partitioned table's partition columns). */
  filterColumns(table: TableMetadata): readonly string[];
  execute(session: Session, table: TableMetadata, call: TableProcedureCall): Promise<void>;
}
