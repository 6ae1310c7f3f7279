// Trino's AccessDeniedException as an engine error: PERMISSION_DENIED, "Access Denied: ...".

import { EngineError } from '../../errors/engine-error.js';

export function accessDenied(reason: string): EngineError {
  return new EngineError('PERMISSION_DENIED', `Access Denied: ${reason}`);
}

/** A table's name as Trino prints it in denials: catalog.schema.table. */
export interface TableName {
  catalog: string;
  schema: string;
  name: string;
}

export function tableText(table: TableName): string {
  return `${table.catalog}.${table.schema}.${table.name}`;
}
