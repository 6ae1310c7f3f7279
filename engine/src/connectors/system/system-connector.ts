// The `system` catalog: read-only views of the running server (schema `runtime`). Its
// information_schema comes from the catalog manager's wrapper, like every catalog's.

import type { Session } from '../../spi/session.js';
import { EngineError } from '../../errors/engine-error.js';
import type { Page } from '../../columnar/page.js';
import { splitsOf, type Connector, type SchemaTableName, type Split, type TableMetadata } from '../../spi/connector.js';
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

  async listSchemas(_session: Session): Promise<string[]> {
    return [...this.schemas.keys()].sort();
  }

  async listTables(session: Session, schema?: string): Promise<SchemaTableName[]> {
    const schemas = schema === undefined ? await this.listSchemas(session) : [schema];
    return schemas.flatMap((s) => (this.schemas.get(s)?.names() ?? []).sort().map((table) => ({ schema: s, table })));
  }

  async getTable(_session: Session, schema: string, table: string): Promise<TableMetadata | undefined> {
    return this.schemas.get(schema)?.metadata(this.name, schema, table);
  }

  getSplits(_session: Session, table: TableMetadata): AsyncIterable<Split> {
    return splitsOf([this.tableSet(table.schema).split(table)]);
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
