// The `system` catalog: read-only views of the running server (schema `runtime`). Its
// information_schema comes from the catalog manager's wrapper, like every catalog's.

import type { Session } from '../../spi/session.js';
import { EngineError } from '../../errors/engine-error.js';
import type { Page } from '../../spi/page.js';
import type { Connector, SchemaTableName, Split, TableMetadata } from '../../spi/connector.js';
import { RowTableSet } from '../row-table.js';
import type { SystemRuntime } from './runtime.js';
import { runtimeTables } from './runtime-tables.js';

export class SystemConnector implements Connector {
  private readonly schemas: Map<string, RowTableSet>;

  constructor(
    runtime: SystemRuntime,
    /** The catalog name this connector serves. */
    readonly name = 'system',
  ) {
    this.schemas = new Map([['runtime', new RowTableSet(runtimeTables(runtime))]]);
  }

  listSchemas(_session: Session): string[] {
    return [...this.schemas.keys()].sort();
  }

  listTables(session: Session, schema?: string): SchemaTableName[] {
    const schemas = schema === undefined ? this.listSchemas(session) : [schema];
    return schemas.flatMap((s) => (this.schemas.get(s)?.names() ?? []).sort().map((table) => ({ schema: s, table })));
  }

  getTable(_session: Session, schema: string, table: string): TableMetadata | undefined {
    return this.schemas.get(schema)?.metadata(this.name, schema, table);
  }

  getSplits(_session: Session, table: TableMetadata): Split[] {
    return [this.tableSet(table.schema).split(table)];
  }

  checkSplit(split: Split): string | undefined {
    const set = this.schemas.get(split.schema);
    return set === undefined ? `schema '${this.name}.${split.schema}' does not exist` : set.checkSplit(split);
  }

  createPageSource(session: Session, split: Split, columns: readonly string[]): AsyncIterable<Page> {
    return this.tableSet(split.schema).pages(session, split, columns);
  }

  private tableSet(schema: string): RowTableSet {
    const set = this.schemas.get(schema);
    if (set === undefined) throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${this.name}.${schema}' does not exist`);
    return set;
  }
}
