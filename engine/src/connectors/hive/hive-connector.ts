// The `hive` connector ("lake"): tables over folders of Parquet, CSV and JSON files, on a local
// folder or an S3-compatible store, with Trino's file metastore. Metadata is read from the
// metastore on every call (another node may have changed it); splits are listed lazily as the
// folders are; writes put files named by their write id in place and commit them in one metastore
// update, so that a reader never sees half a write.

import { EngineError } from '../../errors/engine-error.js';
import type {
  Connector,
  PageSource,
  PropertyValues,
  RowPredicate,
  SchemaTableName,
  Split,
  TableConstraint,
  TableMetadata,
  TableStatistics,
} from '../../spi/connector.js';
import type { Session } from '../../spi/session.js';
import type { WorkerSplitSource } from '../../spi/worker-split.js';
import type { FileEntry, FileSystem } from './file-system/file-system.js';
import { FileSystems } from './file-system/file-systems.js';
import { fileFormat } from './formats/file-formats.js';
import { LAKE_PROPERTIES } from './hive-properties.js';
import type { LakeConfig } from './hive-config.js';
import { newLakeTable } from './lake-tables.js';
import { committedRowCount, readCommitState, retiredFiles } from './metastore/commit-log.js';
import { FileMetastore } from './metastore/file-metastore.js';
import { toHiveType } from './metastore/hive-types.js';
import type { ViewDefinition } from '../../spi/view.js';
import { TABLE_CHANGE_NAMES, type TableChange } from '../../spi/table-change.js';
import { tableMetadata, type LakeTable } from './metastore/lake-table.js';
import { lakePageSource } from './read/lake-page-source.js';
import { LAKE_SPLIT_READER, type LakeWorkerSplit } from './read/lake-split-reader.js';
import { checkLakeSplit, type LakeSplitInfo } from './splits/lake-split.js';
import { listSplits } from './splits/split-lister.js';
import { FooterStatisticsCache } from './statistics/footer-statistics-cache.js';
import { DEFAULT_STATISTICS_LIMITS, lakeTableStatistics } from './statistics/lake-table-statistics.js';
import { LakeWrites } from './write/lake-writes.js';
import type { WriteFragment as LakeWriteFragment, WriteHandle as LakeWriteHandle } from './write/write-handle.js';
import type { ConnectorPageSink, WriteFragment, WriteHandle } from '../../spi/table-write.js';
import { LakeFunctions } from './metastore/lake-functions.js';
import {
  DEFAULT_TIMESTAMP_PRECISION,
  checkTimestampColumns,
  columnsAtTimestampPrecision,
  precisionDigits,
  sessionTimestampPrecision,
  timestampPrecisionProperty,
  type HiveTimestampPrecision,
} from './timestamp-precision.js';
import type { TableProcedures } from '../../spi/table-procedure.js';
import { OPTIMIZE, type OptimizeEnvironment, optimizeTable } from './write/optimize.js';
import { deletePartitions, type PartitionDeleteEnvironment } from './write/partition-delete.js';

export class HiveConnector implements Connector {
  readonly properties;
  readonly infersTableColumns = true;
  private readonly fileSystems: FileSystems;
  /** Every lake table is a non-transactional Hive table: Trino refuses row changes on those with this message. */
  readonly rowChangeRefusal = 'Modifying Hive table rows is only supported for transactional tables';
  private readonly metastore: FileMetastore;
  private readonly writes: LakeWrites;
  private readonly footers = new FooterStatisticsCache();
  readonly languageFunctions: LakeFunctions;

  constructor(
    /** The catalog name this connector serves. */
    readonly name: string,
    private readonly config: LakeConfig,
  ) {
    this.properties = {
      ...LAKE_PROPERTIES,
      session: [...(LAKE_PROPERTIES.session ?? []), timestampPrecisionProperty(this.configuredPrecision())],
    };
    this.fileSystems = new FileSystems(name, config.fileSystem);
    this.metastore = new FileMetastore(name, config.catalogDir, this.fileSystems);
    this.writes = new LakeWrites(name, this.metastore, this.fileSystems, () => this.metadataFileSystem());
    this.languageFunctions = new LakeFunctions(
      config.catalogDir,
      () => this.metadataFileSystem(),
      async (schema) => (await this.metastore.getSchema(schema)) !== undefined,
    );
  }

  listSchemas(): Promise<string[]> {
    return this.metastore.listSchemas();
  }

  async schemaExists(_session: Session, schema: string): Promise<boolean> {
    return (await this.metastore.getSchema(schema)) !== undefined;
  }

  async listTables(_session: Session, schema?: string): Promise<SchemaTableName[]> {
    const schemas = schema === undefined ? await this.metastore.listSchemas() : [schema];
    const tables = await Promise.all(schemas.map(async (s) => (await this.metastore.listTables(s)).map((table) => ({ schema: s, table }))));
    return tables.flat();
  }

  async listViews(_session: Session, schema?: string): Promise<SchemaTableName[]> {
    const schemas = schema === undefined ? await this.metastore.listSchemas() : [schema];
    const views = await Promise.all(schemas.map(async (s) => (await this.metastore.listViews(s)).map((table) => ({ schema: s, table }))));
    return views.flat();
  }

  async getView(_session: Session, schema: string, view: string): Promise<ViewDefinition | undefined> {
    return this.metastore.getView(schema, view);
  }

  async createView(_session: Session, schema: string, view: string, definition: ViewDefinition, replace: boolean): Promise<void> {
    if ((await this.metastore.getSchema(schema)) === undefined)
      throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${this.name}.${schema}' does not exist`);
    await this.metastore.createView(schema, view, definition, replace);
  }

  async dropView(_session: Session, schema: string, view: string): Promise<void> {
    await this.metastore.dropView(schema, view);
  }

  async getTable(session: Session, schema: string, table: string): Promise<TableMetadata | undefined> {
    const found = await this.metastore.getTable(schema, table);
    return found === undefined ? undefined : tableMetadata(this.atSessionPrecision(session, found));
  }

  /** Splits as the table's folders are listed, from its committed state now. */
  async *getSplits(session: Session, table: TableMetadata, constraint?: TableConstraint): AsyncIterable<Split> {
    const lake = this.atSessionPrecision(session, await this.requireTable(table.schema, table.name));
    const format = fileFormat(lake.format);
    const state = await this.commitState(lake);
    const committed = new Set(state.writes.map((w) => w.writeId));
    const retired = retiredFiles(state.writes);
    const fs = this.fileSystems.forLocation(lake.location);
    const knownBlocks = lake.format === 'PARQUET' ? (file: FileEntry) => this.footers.knownRowGroups(file) : undefined;
    for await (const info of listSplits({ fs, table: lake, format, committed, retired, constraint, knownBlocks })) {
      yield { catalog: this.name, schema: table.schema, table: table.name, info };
    }
    // A rewrite (optimize) or a DELETE committed while the folders were listed may have deleted
    // files this listing missed: its rows would be missing, so the query fails instead.
    const latest = await this.commitState(lake);
    const seen = new Set(state.writes.map((w) => w.writeId));
    if (latest.writes.some((w) => !seen.has(w.writeId) && w.retired !== undefined)) {
      throw new EngineError(
        'HIVE_CONCURRENT_MODIFICATION_DETECTED',
        `Table '${this.name}.${table.schema}.${table.name}' was rewritten by ALTER TABLE EXECUTE optimize or DELETE while its files were listed`,
      );
    }
  }

  checkSplit(split: Split): string | undefined {
    return checkLakeSplit(split);
  }

  /** From the footers of the table's visible files (see statistics/lake-table-statistics.ts). */
  async getTableStatistics(session: Session, table: TableMetadata): Promise<TableStatistics | undefined> {
    const lake = this.atSessionPrecision(session, await this.requireTable(table.schema, table.name));
    const { writes } = await this.commitState(lake);
    const committed = new Set(writes.map((w) => w.writeId));
    const fs = this.fileSystems.forLocation(lake.location);
    return lakeTableStatistics({
      fs,
      table: lake,
      committed,
      retired: retiredFiles(writes),
      committedRows: committedRowCount(writes),
      footers: this.footers,
      limits: DEFAULT_STATISTICS_LIMITS,
    });
  }

  createPageSource(
    _session: Session,
    split: Split,
    columns: readonly string[],
    _signal?: AbortSignal,
    dynamicFilter?: TableConstraint,
  ): PageSource {
    const info = split.info as LakeSplitInfo;
    return lakePageSource(this.fileSystems.forLocation(info.location), info, columns, dynamicFilter);
  }

  /** Every node reads the same folders (a shared volume, or object storage). */
  remotelyAccessible(): boolean {
    return true;
  }

  /** Worker threads read splits with file systems of their own, made from the catalog's properties. */
  workerSplitSource(): WorkerSplitSource {
    return {
      // Parsing files is work of its own, worth a thread even for a bare scan.
      generatesPages: true,
      prepare: (split, columns, session) => {
        const data: LakeWorkerSplit = {
          catalog: this.name,
          fileSystem: this.config.fileSystem,
          shared: this.fileSystems.shared,
          info: split.info as LakeSplitInfo,
        };
        return {
          ready: () => Promise.resolve(),
          worker: { reader: LAKE_SPLIT_READER, data },
          local: (dynamicFilter) => this.createPageSource(session, split, columns, undefined, dynamicFilter),
        };
      },
    };
  }

  async createSchema(session: Session, schema: string, properties: PropertyValues): Promise<void> {
    const location = properties.location === undefined ? undefined : String(properties.location);
    await this.metastore.createSchema({ name: schema, ...(location === undefined ? {} : { location }), owner: session.user });
  }

  async dropSchema(session: Session, schema: string, cascade: boolean): Promise<void> {
    if (cascade) {
      for (const table of await this.metastore.listTables(schema)) await this.dropTable(session, schema, table);
      for (const view of await this.metastore.listViews(schema)) await this.metastore.dropView(schema, view);
    }
    await this.metastore.dropSchema(schema);
  }

  async createTable(session: Session, table: TableMetadata): Promise<void> {
    const schema = await this.metastore.getSchema(table.schema);
    if (schema === undefined) throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${this.name}.${table.schema}' does not exist`);
    checkTimestampColumns(table.columns, this.sessionPrecision(session));
    await this.metastore.createTable(await newLakeTable(table, schema, this.metastore, this.fileSystems, session.user));
  }

  /**
   * A lake table's entry changes; its files and folders stay as they are. Columns are added or dropped
   * only where the files are read by column name (Parquet, JSON): a file written before a column was
   * added reads NULL for it, and a dropped column is no longer read.
   */
  async alterTable(_session: Session, schema: string, table: string, change: TableChange): Promise<void> {
    const lake = await this.requireTable(schema, table);
    if (change.kind === 'addColumn' || change.kind === 'dropColumn') return this.metastore.replaceTable(changeDataColumns(lake, change));
    const withComment = <T extends { comment?: string }>(item: T, comment: string | undefined): T => {
      const { comment: _old, ...rest } = item;
      return (comment === undefined ? rest : { ...rest, comment }) as T;
    };
    switch (change.kind) {
      case 'setComment':
        return this.metastore.replaceTable(withComment(lake, change.comment));
      case 'setColumnComment': {
        const columns = (list: LakeTable['dataColumns']) =>
          list.map((c) => (c.name === change.column ? withComment(c, change.comment) : c));
        return this.metastore.replaceTable({
          ...lake,
          dataColumns: columns(lake.dataColumns),
          partitionColumns: columns(lake.partitionColumns),
        });
      }
      default:
        throw new EngineError('NOT_SUPPORTED', `This connector does not support ${TABLE_CHANGE_NAMES[change.kind]}`);
    }
  }

  /** ALTER TABLE ... EXECUTE optimize (write/optimize.ts). */
  readonly tableProcedures: TableProcedures = {
    procedures: new Map([
      [
        OPTIMIZE,
        [
          {
            name: 'file_size_threshold',
            description: 'Only compact files smaller than given threshold in bytes',
            kind: 'dataSize',
            defaultValue: '100MB',
          },
        ],
      ],
    ]),
    filterColumns: (table) => this.writePartitionColumns(table),
    execute: async (session, table, call) => {
      const lake = await this.requireTable(table.schema, table.name);
      const environment: OptimizeEnvironment = {
        catalog: this.name,
        session,
        table: lake,
        dataFs: this.fileSystems.forLocation(lake.location),
        metadataFs: this.metadataFileSystem(),
        beginWrite: () => this.writes.beginInsert(session, lake),
        pageSink: (handle) => this.writes.createPageSink(handle),
        read: (info, columns) =>
          this.createPageSource(session, { catalog: this.name, schema: lake.schema, table: lake.name, info }, columns),
      };
      await optimizeTable(environment, call.values.get('file_size_threshold') ?? 0, call.partitions);
    },
  };

  /** DELETE of whole partitions, or of a whole unpartitioned table (write/partition-delete.ts). */
  async deletePartitions(session: Session, schema: string, table: string, selects: RowPredicate): Promise<void> {
    const lake = await this.requireTable(schema, table);
    const environment: PartitionDeleteEnvironment = {
      table: lake,
      queryId: session.queryId,
      dataFs: this.fileSystems.forLocation(lake.location),
      metadataFs: this.metadataFileSystem(),
      metadataDirectory: this.metastore.tableDirectory(schema, table),
      read: (info, columns) => this.createPageSource(session, { catalog: this.name, schema, table, info }, columns),
    };
    await deletePartitions(environment, selects);
  }

  /** Removes the table's entry; a managed table's files go with it, an external table's stay. */
  async dropTable(_session: Session, schema: string, table: string): Promise<void> {
    const lake = await this.requireTable(schema, table);
    await this.metastore.dropTable(lake);
    if (lake.managed) await this.fileSystems.forLocation(lake.location).deleteDirectory(lake.location);
  }

  // Writes (write/lake-writes.ts): files named by the write id, committed in one metastore update.
  async beginCreateTable(session: Session, table: TableMetadata): Promise<WriteHandle> {
    checkTimestampColumns(table.columns, this.sessionPrecision(session));
    return this.writes.beginCreateTable(session, table);
  }

  async beginInsert(session: Session, table: TableMetadata): Promise<WriteHandle> {
    return this.writes.beginInsert(session, this.atSessionPrecision(session, await this.requireTable(table.schema, table.name)));
  }

  /** A partitioned table's rows go to one writer per partition. */
  writePartitionColumns(table: TableMetadata): readonly string[] {
    const partitionedBy = table.properties?.partitioned_by;
    return Array.isArray(partitionedBy) ? partitionedBy.map(String) : [];
  }

  checkWriteHandle(handle: WriteHandle): string | undefined {
    return this.writes.checkWriteHandle(handle);
  }

  createPageSink(_session: Session, handle: WriteHandle): ConnectorPageSink {
    return this.writes.createPageSink(handle as LakeWriteHandle);
  }

  async finishCreateTable(_session: Session, handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<void> {
    await this.writes.finishCreateTable(handle as LakeWriteHandle, fragments as LakeWriteFragment[]);
  }

  async finishInsert(_session: Session, handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<void> {
    await this.writes.finishInsert(handle as LakeWriteHandle, fragments as LakeWriteFragment[]);
  }

  async abortWrite(_session: Session, handle: WriteHandle): Promise<void> {
    await this.writes.abort(handle as LakeWriteHandle);
  }

  private commitState(table: LakeTable): ReturnType<typeof readCommitState> {
    return readCommitState(this.metadataFileSystem(), this.metastore.tableDirectory(table.schema, table.name), table.tableId);
  }

  private configuredPrecision(): HiveTimestampPrecision {
    return this.config.timestampPrecision ?? DEFAULT_TIMESTAMP_PRECISION;
  }

  private sessionPrecision(session: Session): HiveTimestampPrecision {
    return sessionTimestampPrecision(session, this.name, this.configuredPrecision());
  }

  /** The table as this session sees it: every timestamp column at the session's precision (timestamp-precision.ts). */
  private atSessionPrecision(session: Session, lake: LakeTable): LakeTable {
    const digits = precisionDigits(this.sessionPrecision(session));
    return {
      ...lake,
      dataColumns: columnsAtTimestampPrecision(lake.dataColumns, digits),
      partitionColumns: columnsAtTimestampPrecision(lake.partitionColumns, digits),
    };
  }

  private metadataFileSystem(): FileSystem {
    return this.fileSystems.forLocation(this.config.catalogDir);
  }

  private async requireTable(schema: string, table: string): Promise<LakeTable> {
    const found = await this.metastore.getTable(schema, table);
    if (found === undefined) throw new EngineError('TABLE_NOT_FOUND', `Table '${this.name}.${schema}.${table}' does not exist`);
    return found;
  }
}

/** The table with a data column added (after the others) or dropped, where its format reads columns by name. */
function changeDataColumns(lake: LakeTable, change: Extract<TableChange, { kind: 'addColumn' | 'dropColumn' }>): LakeTable {
  const qualified = `${lake.catalog}.${lake.schema}.${lake.name}`;
  if (lake.format === 'CSV')
    throw new EngineError(
      'NOT_SUPPORTED',
      `This connector does not support ${TABLE_CHANGE_NAMES[change.kind]} of CSV tables: their files are read by column position (${qualified})`,
    );
  if (change.kind === 'addColumn') {
    if (change.column.nullable === false)
      throw new EngineError('NOT_SUPPORTED', `Catalog '${lake.catalog}' does not support NOT NULL for column '${change.column.name}'`);
    toHiveType(change.column.type, change.column.name);
    return { ...lake, dataColumns: [...lake.dataColumns, change.column] };
  }
  if (lake.partitionColumns.some((c) => c.name === change.column))
    throw new EngineError('NOT_SUPPORTED', `Cannot drop partition column '${change.column}' of ${qualified}`);
  const dataColumns = lake.dataColumns.filter((c) => c.name !== change.column);
  if (dataColumns.length === 0) throw new EngineError('NOT_SUPPORTED', `Cannot drop the only data column of ${qualified}`);
  return { ...lake, dataColumns };
}
