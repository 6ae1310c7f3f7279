// Wraps a catalog's connector so that schema `information_schema` is served in it: listed among the
// schemas, its tables listed, described and read; everything else goes to the wrapped connector.
// Write and pushdown methods exist exactly when the wrapped connector has them; writes refuse
// information_schema and pushdown leaves its tables alone.

import type { Session } from '../../spi/session.js';
import { EngineError } from '../../errors/engine-error.js';
import type { Page } from '../../columnar/page.js';
import {
  splitsOf,
  type Connector,
  type PropertyValues,
  type RowPredicate,
  type SchemaTableName,
  type Split,
  type TableConstraint,
  type TableMetadata,
  type TableStatistics,
} from '../../spi/connector.js';
import type { WorkerSplitSource } from '../../spi/worker-split.js';
import type { ConnectorProperties } from '../../spi/properties.js';
import type { PushedScan } from '../../spi/pushdown.js';
import { RowTableSet } from '../row-table.js';
import { visibleCatalogView } from '../../security/access-control/visible-catalog-view.js';
import type { FileAccessControl } from '../../security/access-control/file-access-control.js';
import { INFORMATION_SCHEMA, catalogView, informationSchemaTables } from './information-schema-tables.js';

export class InformationSchemaConnector implements Connector {
  private readonly tables: RowTableSet;
  readonly properties?: ConnectorProperties;
  readonly infersTableColumns?: boolean;
  readonly columnDefaults?: boolean;
  readonly rowChangeRefusal?: string;

  createSchema?: (session: Session, schema: string, properties: PropertyValues) => Promise<void>;
  dropSchema?: (session: Session, schema: string, cascade: boolean) => Promise<void>;
  createTable?: (session: Session, table: TableMetadata) => Promise<void>;
  dropTable?: (session: Session, schema: string, table: string) => Promise<void>;
  beginCreateTable?: Connector['beginCreateTable'];
  beginInsert?: Connector['beginInsert'];
  writePartitionColumns?: Connector['writePartitionColumns'];
  checkWriteHandle?: Connector['checkWriteHandle'];
  createPageSink?: Connector['createPageSink'];
  finishCreateTable?: Connector['finishCreateTable'];
  finishInsert?: Connector['finishInsert'];
  abortWrite?: Connector['abortWrite'];
  deleteRows?: (session: Session, schema: string, table: string, predicate: RowPredicate) => Promise<number>;
  deletePartitions?: Connector['deletePartitions'];
  updateRows?: Connector['updateRows'];
  rewriteRows?: Connector['rewriteRows'];
  applyRowChange?: Connector['applyRowChange'];
  executeRowChange?: Connector['executeRowChange'];
  rowLevelChangeRefusal?: Connector['rowLevelChangeRefusal'];
  mergeRows?: Connector['mergeRows'];
  truncateTable?: Connector['truncateTable'];
  alterTable?: Connector['alterTable'];
  listViews?: Connector['listViews'];
  getView?: Connector['getView'];
  createView?: Connector['createView'];
  dropView?: Connector['dropView'];
  /** The inner catalog's stored routines (information_schema stores none, and no catalog may store one there). */
  readonly languageFunctions?: Connector['languageFunctions'];
  /** The inner catalog's table procedures (information_schema's own tables have none: table-execute.ts). */
  readonly tableProcedures?: Connector['tableProcedures'];
  applyFilter?: Connector['applyFilter'];
  applyLimit?: Connector['applyLimit'];
  applyTopN?: Connector['applyTopN'];
  applyAggregation?: Connector['applyAggregation'];

  constructor(
    /** The catalog name this connector is registered under. */
    readonly name: string,
    readonly inner: Connector,
    /** The access rules information_schema shows each user's part of. */
    accessControl: () => FileAccessControl | undefined = () => undefined,
  ) {
    if (inner.properties) this.properties = inner.properties;
    if (inner.infersTableColumns) this.infersTableColumns = true;
    if (inner.columnDefaults) this.columnDefaults = true;
    if (inner.rowChangeRefusal !== undefined) this.rowChangeRefusal = inner.rowChangeRefusal;
    const definitions = informationSchemaTables(
      visibleCatalogView(
        catalogView(name, inner, () => definitions),
        accessControl,
      ),
    );
    this.tables = new RowTableSet(definitions);
    this.bindWrites(inner);
    this.bindPushdown(inner);
    this.bindViews(inner);
    this.languageFunctions = inner.languageFunctions;
    this.tableProcedures = inner.tableProcedures;
  }

  async listSchemas(session: Session): Promise<string[]> {
    const schemas = (await this.inner.listSchemas(session)).filter((s) => s !== INFORMATION_SCHEMA);
    return [...schemas, INFORMATION_SCHEMA];
  }

  async schemaExists(session: Session, schema: string): Promise<boolean> {
    if (schema === INFORMATION_SCHEMA) return true;
    return this.inner.schemaExists ? this.inner.schemaExists(session, schema) : (await this.inner.listSchemas(session)).includes(schema);
  }

  async listTables(session: Session, schema?: string): Promise<SchemaTableName[]> {
    const own = this.tables.names().map((table) => ({ schema: INFORMATION_SCHEMA, table }));
    if (schema === INFORMATION_SCHEMA) return own;
    const inner = (await this.inner.listTables(session, schema)).filter((t) => t.schema !== INFORMATION_SCHEMA);
    return schema === undefined ? [...inner, ...own] : inner;
  }

  async getTable(session: Session, schema: string, table: string): Promise<TableMetadata | undefined> {
    if (schema === INFORMATION_SCHEMA) return this.tables.metadata(this.name, schema, table);
    return this.inner.getTable(session, schema, table);
  }

  getSplits(session: Session, table: TableMetadata, constraint?: TableConstraint, pushed?: PushedScan): AsyncIterable<Split> {
    if (table.schema === INFORMATION_SCHEMA) return splitsOf([this.tables.split(table)]);
    return this.inner.getSplits(session, table, constraint, pushed);
  }

  async getTableStatistics(session: Session, table: TableMetadata): Promise<TableStatistics | undefined> {
    if (table.schema === INFORMATION_SCHEMA) return undefined;
    return this.inner.getTableStatistics?.(session, table);
  }

  checkSplit(split: Split): string | undefined {
    if (split.schema === INFORMATION_SCHEMA) return this.tables.checkSplit(split);
    return this.inner.checkSplit?.(split);
  }

  createPageSource(
    session: Session,
    split: Split,
    columns: readonly string[],
    signal?: AbortSignal,
    dynamicFilter?: TableConstraint,
  ): AsyncIterable<Page> {
    if (split.schema === INFORMATION_SCHEMA) return this.tables.pages(session, split, columns);
    return this.inner.createPageSource(session, split, columns, signal, dynamicFilter);
  }

  remotelyAccessible(table: TableMetadata): boolean {
    return table.schema !== INFORMATION_SCHEMA && this.inner.remotelyAccessible?.(table) === true;
  }

  /** information_schema tables are read here; the inner catalog's as the inner connector says. */
  workerSplitSource(table: TableMetadata): WorkerSplitSource | undefined {
    if (table.schema === INFORMATION_SCHEMA) return undefined;
    return this.inner.workerSplitSource?.(table);
  }

  private bindPushdown(inner: Connector): void {
    const { applyFilter, applyLimit, applyTopN, applyAggregation } = inner;
    const ours = (table: TableMetadata) => table.schema === INFORMATION_SCHEMA;
    if (applyFilter)
      this.applyFilter = (session, table, pushed, conjuncts) =>
        ours(table) ? undefined : applyFilter.call(inner, session, table, pushed, conjuncts);
    if (applyLimit)
      this.applyLimit = (session, table, pushed, count) =>
        ours(table) ? undefined : applyLimit.call(inner, session, table, pushed, count);
    if (applyTopN)
      this.applyTopN = (session, table, pushed, count, orderBy) =>
        ours(table) ? undefined : applyTopN.call(inner, session, table, pushed, count, orderBy);
    if (applyAggregation) {
      this.applyAggregation = (session, table, pushed, aggregates, groupBy) =>
        ours(table) ? undefined : applyAggregation.call(inner, session, table, pushed, aggregates, groupBy);
    }
  }

  /** Views live in the inner catalog's schemas; information_schema has none. */
  private bindViews(inner: Connector): void {
    const { listViews, getView, createView, dropView } = inner;
    if (listViews)
      this.listViews = async (session, schema) =>
        schema === INFORMATION_SCHEMA ? [] : (await listViews.call(inner, session, schema)).filter((v) => v.schema !== INFORMATION_SCHEMA);
    if (getView)
      this.getView = async (session, schema, view) =>
        schema === INFORMATION_SCHEMA ? undefined : getView.call(inner, session, schema, view);
    if (createView) {
      this.createView = async (session, schema, view, definition, replace) => {
        refuseInformationSchema(schema, 'creating views');
        return createView.call(inner, session, schema, view, definition, replace);
      };
    }
    if (dropView) {
      this.dropView = async (session, schema, view) => {
        refuseInformationSchema(schema, 'dropping views');
        return dropView.call(inner, session, schema, view);
      };
    }
  }

  private bindWrites(inner: Connector): void {
    const {
      createSchema,
      dropSchema,
      createTable,
      dropTable,
      beginCreateTable,
      beginInsert,
      deleteRows,
      deletePartitions,
      updateRows,
      rewriteRows,
      alterTable,
    } = inner;
    if (createSchema) {
      this.createSchema = async (session, schema, properties) => {
        if (schema === INFORMATION_SCHEMA) {
          throw new EngineError('ALREADY_EXISTS', `Schema '${this.name}.${schema}' already exists`);
        }
        return createSchema.call(inner, session, schema, properties);
      };
    }
    if (dropSchema) {
      this.dropSchema = async (session, schema, cascade) => {
        refuseInformationSchema(schema, 'dropping schemas');
        return dropSchema.call(inner, session, schema, cascade);
      };
    }
    if (createTable) {
      this.createTable = async (session, table) => {
        refuseInformationSchema(table.schema, 'creating tables');
        return createTable.call(inner, session, table);
      };
    }
    if (dropTable) {
      this.dropTable = async (session, schema, table) => {
        refuseInformationSchema(schema, 'dropping tables');
        return dropTable.call(inner, session, schema, table);
      };
    }
    if (beginCreateTable) {
      this.beginCreateTable = async (session, table) => {
        refuseInformationSchema(table.schema, 'creating tables');
        return beginCreateTable.call(inner, session, table);
      };
    }
    if (beginInsert) {
      this.beginInsert = async (session, table) => {
        refuseInformationSchema(table.schema, 'inserts');
        return beginInsert.call(inner, session, table);
      };
    }
    // A write that began is of the inner catalog's tables: the rest of it is the inner connector's.
    this.writePartitionColumns = inner.writePartitionColumns?.bind(inner);
    this.checkWriteHandle = inner.checkWriteHandle?.bind(inner);
    this.createPageSink = inner.createPageSink?.bind(inner);
    this.finishCreateTable = inner.finishCreateTable?.bind(inner);
    this.finishInsert = inner.finishInsert?.bind(inner);
    this.abortWrite = inner.abortWrite?.bind(inner);
    if (deleteRows) {
      this.deleteRows = async (session, schema, table, predicate) => {
        refuseInformationSchema(schema, 'modifying table rows');
        return deleteRows.call(inner, session, schema, table, predicate);
      };
    }
    if (deletePartitions) {
      this.deletePartitions = async (session, schema, table, selects) => {
        refuseInformationSchema(schema, 'modifying table rows');
        return deletePartitions.call(inner, session, schema, table, selects);
      };
    }
    if (updateRows) {
      this.updateRows = async (session, schema, table, predicate, update) => {
        refuseInformationSchema(schema, 'modifying table rows');
        return updateRows.call(inner, session, schema, table, predicate, update);
      };
    }
    this.bindRowChangesInPlace(inner);
    if (alterTable) {
      this.alterTable = async (session, schema, table, change) => {
        refuseInformationSchema(schema, 'altering tables');
        if (change.kind === 'rename') refuseInformationSchema(change.schema, 'altering tables');
        return alterTable.call(inner, session, schema, table, change);
      };
    }
    if (rewriteRows) {
      this.rewriteRows = async (session, schema, table, rewrite) => {
        refuseInformationSchema(schema, 'modifying table rows');
        return rewriteRows.call(inner, session, schema, table, rewrite);
      };
    }
  }

  private bindRowChangesInPlace(inner: Connector): void {
    const { applyRowChange, rowLevelChangeRefusal } = inner;
    if (applyRowChange) {
      this.applyRowChange = async (session, schema, table, change) => {
        refuseInformationSchema(schema, 'modifying table rows');
        return applyRowChange.call(inner, session, schema, table, change);
      };
    }
    this.executeRowChange = inner.executeRowChange?.bind(inner);
    const { mergeRows, truncateTable } = inner;
    if (mergeRows) {
      this.mergeRows = async (session, schema, table, merge) => {
        refuseInformationSchema(schema, 'modifying table rows');
        return mergeRows.call(inner, session, schema, table, merge);
      };
    }
    if (truncateTable) {
      this.truncateTable = async (session, schema, table) => {
        refuseInformationSchema(schema, 'truncating tables');
        return truncateTable.call(inner, session, schema, table);
      };
    }
    if (rowLevelChangeRefusal) {
      this.rowLevelChangeRefusal = async (session, schema, table) =>
        schema === INFORMATION_SCHEMA
          ? 'This connector does not support modifying table rows'
          : rowLevelChangeRefusal.call(inner, session, schema, table);
    }
  }
}

/** information_schema is read-only; Trino words the refusal as a connector without the feature. */
function refuseInformationSchema(schema: string, what: string): void {
  if (schema === INFORMATION_SCHEMA) throw new EngineError('NOT_SUPPORTED', `This connector does not support ${what}`);
}
