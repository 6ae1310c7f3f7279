// The `memory` connector: schemas and tables created with SQL, rows held as Arrow batches in this
// process (in shared memory, so worker threads scan them too). Every write makes a new immutable
// table snapshot; a scan reads the snapshot fixed when its splits were made, so concurrent readers
// always see a consistent table.

import type { RecordBatch } from 'apache-arrow';
import type { Session } from '../../spi/session.js';
import { EngineError } from '../../errors/engine-error.js';
import type { Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { selectColumnIndexes } from '../column-selection.js';
import {
  splitsOf,
  type Connector,
  type RowPredicate,
  type RowUpdate,
  type TableRewrite,
  type SchemaTableName,
  type Split,
  type TableMetadata,
  type TableConstraint,
  type TableStatistics,
} from '../../spi/connector.js';
import { dynamicFilterRows, filteredPages } from './dynamic-filter-rows.js';
import type { PreparedSplit, WorkerSplitSource } from '../../spi/worker-split.js';
import { batchPage } from './batch-columns.js';
import { MEMORY_SPLIT_READER } from './memory-split-reader.js';
import { MemoryTable } from './memory-table.js';
import { sharedPage, type SharedPage } from './shared-batch.js';
import { SnapshotPins } from './snapshot-pins.js';
import { shapeCheck } from '../../spi/json-shape.js';
import type { TableSnapshot } from './table-snapshot.js';
import type { ConnectorPageSink, WriteFragment, WriteHandle } from '../../spi/table-write.js';
import { MemoryWrites, type MemoryWriteHandle } from './memory-writes.js';
import type { ViewDefinition } from '../../spi/view.js';
import { MemoryViews } from './memory-views.js';
import { MemoryFunctions } from './memory-functions.js';
import type { TableChange } from '../../spi/table-change.js';
import { applyColumnChange } from './memory-table-changes.js';

export const DEFAULT_SCHEMA = 'default';
/** A split covers whole batches, up to this many rows. */
export const MAX_SPLIT_ROWS = 65536;

/** A split's batches for a worker thread (shared) or for this thread (pages). */
export interface MemoryWorkerSplit {
  shared: SharedPage[];
  /** The types of the split's columns, in page order. */
  types: SqlType[];
  pages(): AsyncIterable<Page>;
}

export interface MemoryConnectorOptions {
  /** How long the snapshot behind unread splits is kept once newer writes superseded it. Default 1 hour. */
  snapshotRetentionMillis?: number;
  /** The clock for that retention. */
  now?: () => number;
}

interface MemorySplitInfo {
  tableId: number;
  version: number;
  pin: number;
  /** Batches [firstBatch, endBatch) of the snapshot. */
  firstBatch: number;
  endBatch: number;
}

const COUNT = { type: 'integer', minimum: 0 };
const checkInfoShape = shapeCheck({
  type: 'object',
  required: ['tableId', 'version', 'pin', 'firstBatch', 'endBatch'],
  properties: { tableId: COUNT, version: COUNT, pin: COUNT, firstBatch: COUNT, endBatch: COUNT },
  additionalProperties: false,
});

export class MemoryConnector implements Connector {
  private readonly schemas = new Map<string, Map<string, MemoryTable>>([[DEFAULT_SCHEMA, new Map()]]);
  private readonly tablesById = new Map<number, MemoryTable>();
  private readonly pins: SnapshotPins;
  private nextTableId = 1;
  private readonly writes = new MemoryWrites();
  private readonly views = new MemoryViews();
  readonly languageFunctions = new MemoryFunctions((schema) => this.schemas.has(schema));
  /** Columns keep DEFAULT values, as in Trino's memory connector. */
  readonly columnDefaults = true;

  constructor(
    /** The catalog name this connector serves. */
    readonly name = 'memory',
    options: MemoryConnectorOptions = {},
  ) {
    this.pins = new SnapshotPins({
      retentionMillis: options.snapshotRetentionMillis ?? 60 * 60 * 1000,
      now: options.now ?? Date.now,
    });
  }

  async listSchemas(_session: Session): Promise<string[]> {
    return this.schemaNames();
  }

  async listTables(_session: Session, schema?: string): Promise<SchemaTableName[]> {
    const schemas = schema === undefined ? this.schemaNames() : [schema];
    return schemas.flatMap((s) => [...(this.schemas.get(s)?.keys() ?? [])].sort().map((table) => ({ schema: s, table })));
  }

  async getTable(_session: Session, schema: string, table: string): Promise<TableMetadata | undefined> {
    return this.schemas.get(schema)?.get(table)?.metadata;
  }

  /** The snapshot is fixed (pinned) when the splits are asked for, not when they are read. */
  getSplits(_session: Session, table: TableMetadata): AsyncIterable<Split> {
    return splitsOf(this.snapshotSplits(table));
  }

  private schemaNames(): string[] {
    return [...this.schemas.keys()].sort();
  }

  private snapshotSplits(table: TableMetadata): Split[] {
    const memoryTable = this.requireTable(table.schema, table.name);
    const snapshot = memoryTable.snapshot;
    const ranges = splitRanges(snapshot);
    const pin = this.pins.pin(snapshot, ranges.length);
    return ranges.map(([firstBatch, endBatch]) => {
      const info: MemorySplitInfo = { tableId: memoryTable.id, version: snapshot.version, pin, firstBatch, endBatch };
      return { catalog: this.name, schema: table.schema, table: table.name, info };
    });
  }

  async getTableStatistics(_session: Session, table: TableMetadata): Promise<TableStatistics | undefined> {
    return { rowCount: this.requireTable(table.schema, table.name).snapshot.rowCount };
  }

  createPageSource(
    _session: Session,
    split: Split,
    columns: readonly string[],
    _signal?: AbortSignal,
    dynamicFilter?: TableConstraint,
  ): AsyncIterable<Page> {
    const info = split.info as MemorySplitInfo;
    const snapshot = this.resolveSnapshot(split, info);
    const indexes = selectColumnIndexes(snapshot.columns, columns);
    const types = snapshot.columns.map((c) => c.type);
    const filter = dynamicFilterRows(
      columns,
      indexes.map((i) => types[i]),
      dynamicFilter,
    );
    return filteredPages(this.readBatches(snapshot, info, types, indexes), filter);
  }

  /** Workers read a split's batches as views of their shared memory. */
  workerSplitSource(): WorkerSplitSource {
    const prepare = (split: Split, columns: readonly string[]): PreparedSplit => {
      const data = this.workerSplitData(split, columns);
      const local = (dynamicFilter?: TableConstraint) => filteredPages(data.pages(), dynamicFilterRows(columns, data.types, dynamicFilter));
      return { ready: () => Promise.resolve(), worker: { reader: MEMORY_SPLIT_READER, data: data.shared }, local };
    };
    return { generatesPages: false, prepare };
  }

  /**
   * A split's batches, only `columns`, fixed now: as views of their shared memory for a worker
   * thread (posting them copies nothing), and as pages for this thread should it read them after
   * all. The split counts as read: the batches stay alive through these, so the snapshot's pin is
   * no longer needed.
   */
  workerSplitData(split: Split, columns: readonly string[]): MemoryWorkerSplit {
    const info = split.info as MemorySplitInfo;
    const snapshot = this.resolveSnapshot(split, info);
    try {
      const indexes = selectColumnIndexes(snapshot.columns, columns);
      const types = snapshot.columns.map((c) => c.type);
      const batches = snapshot.batches.slice(info.firstBatch, info.endBatch);
      return {
        shared: batches.map((batch) => sharedPage(batch, types, indexes)),
        types: indexes.map((i) => types[i]),
        pages: () => batchPages(batches, types, indexes),
      };
    } finally {
      this.pins.splitDone(info.pin);
    }
  }

  async createSchema(_session: Session, schema: string): Promise<void> {
    if (this.schemas.has(schema)) throw new EngineError('ALREADY_EXISTS', `Schema '${this.name}.${schema}' already exists`);
    this.schemas.set(schema, new Map());
  }

  async dropSchema(_session: Session, schema: string, cascade: boolean): Promise<void> {
    const tables = this.requireSchema(schema);
    if ((tables.size > 0 || this.views.names(schema).length > 0) && !cascade)
      throw new EngineError('SCHEMA_NOT_EMPTY', `Cannot drop non-empty schema '${schema}'`);
    for (const table of tables.values()) this.tablesById.delete(table.id);
    this.schemas.delete(schema);
    this.views.dropSchema(schema);
    this.languageFunctions.dropSchema(schema);
  }

  async createTable(_session: Session, table: TableMetadata): Promise<void> {
    const tables = this.requireSchema(table.schema);
    if (tables.has(table.name) || this.views.get(table.schema, table.name) !== undefined) {
      throw new EngineError('ALREADY_EXISTS', `Table '${this.name}.${table.schema}.${table.name}' already exists`);
    }
    const seen = new Set<string>();
    for (const c of table.columns) {
      if (seen.has(c.name)) throw new EngineError('DUPLICATE_COLUMN_NAME', `Column name '${c.name}' specified more than once`);
      seen.add(c.name);
    }
    const metadata: TableMetadata = Object.freeze({
      catalog: this.name,
      schema: table.schema,
      name: table.name,
      columns: table.columns.map((c) => Object.freeze({ ...c })),
      ...(table.comment === undefined ? {} : { comment: table.comment }),
    });
    const created = new MemoryTable(this.nextTableId++, metadata);
    tables.set(table.name, created);
    this.tablesById.set(created.id, created);
  }

  async dropTable(_session: Session, schema: string, table: string): Promise<void> {
    const dropped = this.requireTable(schema, table);
    this.schemas.get(schema)?.delete(table);
    this.tablesById.delete(dropped.id);
  }

  async alterTable(_session: Session, schema: string, table: string, change: TableChange): Promise<void> {
    const memoryTable = this.requireTable(schema, table);
    if (change.kind !== 'rename') {
      applyColumnChange(memoryTable, change);
      return;
    }
    const target = this.requireSchema(change.schema);
    if (target.has(change.name) || this.views.get(change.schema, change.name) !== undefined) {
      throw new EngineError('TABLE_ALREADY_EXISTS', `Target table '${this.name}.${change.schema}.${change.name}' already exists`);
    }
    this.schemas.get(schema)?.delete(table);
    target.set(change.name, memoryTable);
    memoryTable.redefine(Object.freeze({ ...memoryTable.metadata, schema: change.schema, name: change.name }));
  }

  /** Appends pages (columns in table order) at once; returns the rows added. */
  insert(_session: Session, schema: string, table: string, pages: readonly Page[]): Promise<number> {
    return this.requireTable(schema, table).insert(pages);
  }

  async beginCreateTable(_session: Session, table: TableMetadata): Promise<WriteHandle> {
    if (this.requireSchema(table.schema).has(table.name))
      throw new EngineError('ALREADY_EXISTS', `Table '${this.name}.${table.schema}.${table.name}' already exists`);
    return this.writes.begin(table.schema, table.name, table);
  }

  async beginInsert(_session: Session, table: TableMetadata): Promise<WriteHandle> {
    this.requireTable(table.schema, table.name);
    return this.writes.begin(table.schema, table.name);
  }

  /** Writers run here, with the tables (the connector is not remotely accessible). */
  createPageSink(_session: Session, handle: WriteHandle): ConnectorPageSink {
    return this.writes.sink(handle);
  }

  async finishCreateTable(session: Session, handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<void> {
    const { create } = handle as MemoryWriteHandle;
    if (create === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', 'Not a write of a new table');
    const pages = this.writes.take(handle, fragments);
    await this.createTable(session, create);
    try {
      await this.insert(session, create.schema, create.name, pages);
    } catch (e) {
      await this.dropTable(session, create.schema, create.name);
      throw e;
    }
  }

  async finishInsert(session: Session, handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<void> {
    const { schema, table } = handle as MemoryWriteHandle;
    await this.insert(session, schema, table, this.writes.take(handle, fragments));
  }

  async abortWrite(_session: Session, handle: WriteHandle): Promise<void> {
    this.writes.abort(handle);
  }

  async deleteRows(_session: Session, schema: string, table: string, predicate: RowPredicate): Promise<number> {
    return this.requireTable(schema, table).deleteRows(predicate);
  }

  async updateRows(_session: Session, schema: string, table: string, predicate: RowPredicate, update: RowUpdate): Promise<number> {
    return this.requireTable(schema, table).updateRows(predicate, update);
  }

  async rewriteRows(_session: Session, schema: string, table: string, rewrite: TableRewrite): Promise<number> {
    return this.requireTable(schema, table).rewriteRows(rewrite);
  }

  async listViews(_session: Session, schema?: string): Promise<SchemaTableName[]> {
    const schemas = schema === undefined ? this.schemaNames() : [schema];
    return schemas.flatMap((s) => this.views.names(s).map((table) => ({ schema: s, table })));
  }

  async getView(_session: Session, schema: string, view: string): Promise<ViewDefinition | undefined> {
    return this.views.get(schema, view);
  }

  async createView(_session: Session, schema: string, view: string, definition: ViewDefinition, replace: boolean): Promise<void> {
    if (this.requireSchema(schema).has(view))
      throw new EngineError('TABLE_ALREADY_EXISTS', `Table already exists: '${this.name}.${schema}.${view}'`);
    this.views.put(schema, view, definition, replace, `${this.name}.${schema}.${view}`);
  }

  async dropView(_session: Session, schema: string, view: string): Promise<void> {
    this.requireSchema(schema);
    this.views.drop(schema, view, `${this.name}.${schema}.${view}`);
  }

  private async *readBatches(
    snapshot: TableSnapshot,
    info: MemorySplitInfo,
    types: readonly SqlType[],
    indexes: readonly number[],
  ): AsyncIterable<Page> {
    try {
      for (let b = info.firstBatch; b < info.endBatch; b++) yield batchPage(snapshot.batches[b], types, indexes);
    } finally {
      this.pins.splitDone(info.pin);
    }
  }

  checkSplit(split: Split): string | undefined {
    const shape = checkInfoShape(split.info, 'info');
    if (shape !== undefined) return shape;
    const info = split.info as MemorySplitInfo;
    const table = this.tablesById.get(info.tableId)?.metadata;
    if (table === undefined || table.schema !== split.schema || table.name !== split.table)
      return `info: table ${info.tableId} is not '${this.name}.${split.schema}.${split.table}'`;
    const snapshot = this.snapshotOf(info);
    if (snapshot === undefined) return `info: ${unavailable(this.name, split, info)}`;
    if (info.firstBatch > info.endBatch || info.endBatch > snapshot.batches.length)
      return `info: batches [${info.firstBatch}, ${info.endBatch}) are not within the ${snapshot.batches.length} of version ${info.version}`;
    return undefined;
  }

  /** The snapshot the split was made from: pinned, or still the table's current one. */
  private resolveSnapshot(split: Split, info: MemorySplitInfo): TableSnapshot {
    const snapshot = this.snapshotOf(info);
    if (snapshot === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', unavailable(this.name, split, info));
    return snapshot;
  }

  private snapshotOf(info: MemorySplitInfo): TableSnapshot | undefined {
    const pinned = this.pins.get(info.pin);
    if (pinned !== undefined) return pinned.tableId === info.tableId && pinned.version === info.version ? pinned : undefined;
    const current = this.tablesById.get(info.tableId)?.snapshot;
    return current !== undefined && current.version === info.version ? current : undefined;
  }

  private requireSchema(schema: string): Map<string, MemoryTable> {
    const tables = this.schemas.get(schema);
    if (tables === undefined) throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${this.name}.${schema}' does not exist`);
    return tables;
  }

  private requireTable(schema: string, table: string): MemoryTable {
    const found = this.requireSchema(schema).get(table);
    if (found === undefined) throw new EngineError('TABLE_NOT_FOUND', `Table '${this.name}.${schema}.${table}' does not exist`);
    return found;
  }
}

/** Consecutive batch ranges of up to MAX_SPLIT_ROWS rows; an empty table still gets one (empty) split. */
function splitRanges(snapshot: TableSnapshot): [number, number][] {
  const ranges: [number, number][] = [];
  let first = 0;
  let rows = 0;
  snapshot.batches.forEach((batch, i) => {
    if (rows > 0 && rows + batch.numRows > MAX_SPLIT_ROWS) {
      ranges.push([first, i]);
      first = i;
      rows = 0;
    }
    rows += batch.numRows;
  });
  if (rows > 0 || ranges.length === 0) ranges.push([first, snapshot.batches.length]);
  return ranges;
}

async function* batchPages(batches: readonly RecordBatch[], types: readonly SqlType[], indexes: readonly number[]): AsyncIterable<Page> {
  for (const batch of batches) yield batchPage(batch, types, indexes);
}

function unavailable(catalog: string, split: Split, info: MemorySplitInfo): string {
  return `Version ${info.version} of table '${catalog}.${split.schema}.${split.table}' is no longer available`;
}
