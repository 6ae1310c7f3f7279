// The `postgresql` connector: the schemas, tables and columns of one PostgreSQL database, read with
// binary COPY, with filters, limits, top-N and aggregations pushed down to the server where it
// computes exactly what the engine would (scan-query.ts, filter-sql.ts), tables read in key ranges
// by several workers at once, and CREATE TABLE [AS], INSERT (writers on every worker COPY into a
// table of the write's own, moved into place at the commit: postgresql-writes.ts) and DROP TABLE.

import { EngineError } from '../../errors/engine-error.js';
import type {
  ColumnMetadata,
  Connector,
  InPlaceRowChange,
  PushedRowChange,
  PageSource,
  PropertyValues,
  RowMerge,
  RowPredicate,
  RowUpdate,
  SchemaTableName,
  Split,
  TableConstraint,
  TableMetadata,
  TableStatistics,
} from '../../spi/connector.js';
import type { ConnectorProperties } from '../../spi/properties.js';
import type {
  AggregationApplication,
  ConnectorAggregate,
  ConnectorExpression,
  FilterApplication,
  PushedScan,
  SortItem,
} from '../../spi/pushdown.js';
import type { Session } from '../../spi/session.js';
import { shapeCheck } from '../../spi/json-shape.js';
import { takePage, type Page } from '../../columnar/page.js';
import * as catalogQueries from './catalog-queries.js';
import { mapColumn, type PostgresColumn } from './column-mapping.js';
import * as writes from './postgresql-writes.js';
import { rowChangeSql, runRowChange } from './row-changes.js';
import { changeRowsByKey, freshName, NO_PRIMARY_KEY } from './keyed-changes.js';
import { columnDefinitions } from './postgresql-writes.js';
import type { ConnectorPageSink, WriteHandle } from '../../spi/table-write.js';
import { keyRanges } from './key-ranges.js';
import { readQuery } from './page-source.js';
import { PostgresClient } from './postgresql-client.js';
import type { PostgresConfig } from './postgresql-config.js';
import { postgresSessionProperties, sessionSettings } from './postgresql-session.js';
import { pushedFilterSql } from './filter-sql.js';
import {
  EMPTY_HANDLE,
  ScanQueryError,
  aggregateSql,
  columnLookup,
  explainHandle,
  groupable,
  orderBySql,
  scanQuery,
  type PostgresHandle,
  type PostgresSplitInfo,
  type PushedAggregate,
} from './scan-query.js';
import { tableStatistics } from './table-statistics.js';
import { qualifiedTable, quoteIdentifier } from './sql-text.js';

/** A table as the connector reads it. */
interface PostgresTable {
  columns: PostgresColumn[];
  /** The single column of the primary key, when it has one column (key ranges). */
  primaryKey: PostgresColumn | undefined;
  /** Every column of the primary key (row-level changes find rows by it). */
  keyColumns: string[];
  estimatedRows: number;
  utf8: boolean;
}

const AGGREGATES = new Set(['count', 'sum', 'min', 'max', 'avg']);
const KEY_TYPES = new Set(['smallint', 'integer', 'bigint']);

const checkInfoShape = shapeCheck({
  type: 'object',
  required: ['columns', 'orderedText', 'handle'],
  properties: {
    columns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'type', 'read', 'notNull'],
        properties: {
          name: { type: 'string' },
          type: { type: 'object' },
          read: { enum: ['value', 'text', 'bit'] },
          notNull: { type: 'boolean' },
        },
      },
    },
    orderedText: { type: 'boolean' },
    handle: { type: 'object', required: ['filters'], properties: { filters: { type: 'array' }, limit: { type: 'integer', minimum: 0 } } },
    range: {
      type: 'object',
      required: ['column'],
      properties: {
        column: { type: 'string' },
        low: { type: 'string', pattern: '^-?[0-9]+$' },
        high: { type: 'string', pattern: '^-?[0-9]+$' },
      },
    },
  },
});

export class PostgresConnector implements Connector {
  readonly properties: ConnectorProperties;
  private readonly client: PostgresClient;
  /** Tables as last described (getTable runs for each statement before it is planned). */
  private readonly tables = new Map<string, PostgresTable>();

  constructor(
    readonly name: string,
    private readonly config: PostgresConfig,
  ) {
    this.client = new PostgresClient(name, config);
    this.properties = { session: postgresSessionProperties(config) };
  }

  async listSchemas(_session: Session): Promise<string[]> {
    return catalogQueries.listSchemas(this.client);
  }

  async schemaExists(_session: Session, schema: string): Promise<boolean> {
    return catalogQueries.schemaExists(this.client, schema);
  }

  async listTables(_session: Session, schema?: string): Promise<SchemaTableName[]> {
    return catalogQueries.listTables(this.client, schema);
  }

  async getTable(_session: Session, schema: string, table: string): Promise<TableMetadata | undefined> {
    const described = await this.describe(schema, table);
    if (described === undefined) return undefined;
    return {
      catalog: this.name,
      schema,
      name: table,
      columns: described.columns.map((c) => ({ name: c.name, type: c.type, nullable: !c.notNull })),
    };
  }

  async getTableStatistics(_session: Session, table: TableMetadata): Promise<TableStatistics | undefined> {
    const described = this.tables.get(tableKey(table.schema, table.name));
    if (described === undefined || described.estimatedRows < 0) return undefined;
    return tableStatistics(
      described.estimatedRows,
      described.columns,
      await catalogQueries.columnStatistics(this.client, table.schema, table.name),
    );
  }

  /** Every node connects to the server itself. */
  remotelyAccessible(): boolean {
    return true;
  }

  applyFilter(
    session: Session,
    table: TableMetadata,
    pushed: PushedScan | undefined,
    conjuncts: readonly ConnectorExpression[],
  ): FilterApplication | undefined {
    const scan = this.pushdownTarget(session, table, pushed, 'filter_pushdown_enabled');
    // A filter above a limit or an aggregation is not a WHERE of the same query.
    if (scan === undefined || scan.handle.aggregation !== undefined || scan.handle.limit !== undefined) return undefined;
    // A conjunct with integer arithmetic narrows the rows read; the engine checks it again (arithmetic-sql.ts).
    const rendered = conjuncts.map((c) => pushedFilterSql(c, scan.lookup));
    const taken = conjuncts.filter((_, i) => rendered[i] !== undefined);
    if (taken.length === 0) return undefined;
    const enforced = rendered.flatMap((r, i) => (r?.exact ? [i] : []));
    const handle = { ...scan.handle, filters: [...scan.handle.filters, ...taken] };
    return { pushed: this.pushedScan(handle, scan.table), enforced };
  }

  applyLimit(session: Session, table: TableMetadata, pushed: PushedScan | undefined, count: number): PushedScan | undefined {
    const scan = this.pushdownTarget(session, table, pushed, 'limit_pushdown_enabled');
    if (scan === undefined || (scan.handle.limit !== undefined && scan.handle.limit <= count)) return undefined;
    return this.pushedScan({ ...scan.handle, limit: count }, scan.table);
  }

  applyTopN(
    session: Session,
    table: TableMetadata,
    pushed: PushedScan | undefined,
    count: number,
    orderBy: readonly SortItem[],
  ): PushedScan | undefined {
    const scan = this.pushdownTarget(session, table, pushed, 'topn_pushdown_enabled');
    if (scan === undefined || scan.handle.limit !== undefined || scan.handle.orderBy !== undefined) return undefined;
    if (orderBySql(orderBy, scan.handle, scan.lookup) === undefined) return undefined;
    return this.pushedScan({ ...scan.handle, orderBy: [...orderBy], limit: count }, scan.table);
  }

  applyAggregation(
    session: Session,
    table: TableMetadata,
    pushed: PushedScan | undefined,
    aggregates: readonly ConnectorAggregate[],
    groupBy: readonly ColumnMetadata[],
  ): AggregationApplication | undefined {
    const scan = this.pushdownTarget(session, table, pushed, 'aggregation_pushdown_enabled');
    if (scan === undefined || scan.handle.aggregation !== undefined || scan.handle.limit !== undefined) return undefined;
    const keys = groupBy.map((g) => scan.lookup.columns.get(g.name));
    if (keys.some((k) => k === undefined || !groupable(k))) return undefined;
    const taken = new Set(scan.table.columns.map((c) => c.name));
    const pushedAggregates: PushedAggregate[] = [];
    for (const aggregate of aggregates) {
      const args = aggregate.arguments;
      if (!AGGREGATES.has(aggregate.function) || aggregate.distinct || args.length > 1 || args.some((a) => a.kind !== 'column'))
        return undefined;
      const candidate = {
        name: freshName(`_${aggregate.function}_${pushedAggregates.length}`, taken),
        function: aggregate.function as PushedAggregate['function'],
        argument: args.length === 1 ? (args[0] as { name: string }).name : undefined,
        type: aggregate.outputType,
      };
      if (aggregateSql(candidate, scan.lookup) === undefined) return undefined;
      pushedAggregates.push(candidate);
    }
    const handle: PostgresHandle = { ...scan.handle, aggregation: { groupBy: groupBy.map((g) => g.name), aggregates: pushedAggregates } };
    const columns: ColumnMetadata[] = [
      ...keys.map((k) => ({ name: k!.name, type: k!.type })),
      ...pushedAggregates.map((a) => ({ name: a.name, type: a.type })),
    ];
    return { pushed: this.pushedScan(handle, scan.table), columns };
  }

  /** The table and its handle so far, when `setting` allows pushing down and the table was described here. */
  private pushdownTarget(
    session: Session,
    table: TableMetadata,
    pushed: PushedScan | undefined,
    setting: 'filter_pushdown_enabled' | 'limit_pushdown_enabled' | 'topn_pushdown_enabled' | 'aggregation_pushdown_enabled',
  ) {
    if (!sessionSettings(session, this.name, this.config)[setting]) return undefined;
    const described = this.tables.get(tableKey(table.schema, table.name));
    if (described === undefined) return undefined;
    return {
      table: described,
      handle: (pushed?.handle as PostgresHandle | undefined) ?? EMPTY_HANDLE,
      lookup: columnLookup(described.columns, described.utf8),
    };
  }

  private pushedScan(handle: PostgresHandle, table: PostgresTable): PushedScan {
    return { handle, explain: explainHandle(handle, columnLookup(table.columns, table.utf8)) };
  }

  /**
   * One split per table (as Trino), or `split_count` ranges of an integer primary key when the scan
   * reads rows as they are (no pushed aggregation or limit, whose results need all rows at once).
   */
  getSplits(session: Session, table: TableMetadata, _constraint?: TableConstraint, pushed?: PushedScan): AsyncIterable<Split> {
    const handle = (pushed?.handle as PostgresHandle | undefined) ?? EMPTY_HANDLE;
    const splitCount = sessionSettings(session, this.name, this.config).split_count;
    const split = (info: PostgresSplitInfo): Split => ({ catalog: this.name, schema: table.schema, table: table.name, info });
    return async function* (this: PostgresConnector) {
      const described = this.tables.get(tableKey(table.schema, table.name)) ?? (await this.describe(table.schema, table.name));
      if (described === undefined)
        throw new EngineError('TABLE_NOT_FOUND', `Table '${this.name}.${table.schema}.${table.name}' does not exist`);
      const base: PostgresSplitInfo = { columns: described.columns, orderedText: described.utf8, handle };
      const key = described.primaryKey;
      if (
        splitCount <= 1 ||
        key === undefined ||
        !KEY_TYPES.has(key.type.kind) ||
        handle.aggregation !== undefined ||
        handle.limit !== undefined
      ) {
        yield split(base);
        return;
      }
      const [bounds] = await this.client.query<{ low: string | null; high: string | null }>(
        `SELECT CAST(min(${quoteIdentifier(key.name)}) AS text) AS low, CAST(max(${quoteIdentifier(key.name)}) AS text) AS high FROM ${qualifiedTable(table.schema, table.name)}`,
      );
      if (bounds.low === null || bounds.high === null) {
        yield split(base);
        return;
      }
      for (const range of keyRanges(key.name, BigInt(bounds.low), BigInt(bounds.high), splitCount)) yield split({ ...base, range });
    }.call(this);
  }

  checkSplit(split: Split): string | undefined {
    const shape = checkInfoShape(split.info, 'info');
    if (shape !== undefined) return shape;
    try {
      scanQuery(split.schema, split.table, split.info as PostgresSplitInfo, []);
      return undefined;
    } catch (e) {
      if (e instanceof ScanQueryError || e instanceof SyntaxError || e instanceof RangeError) return `info: ${e.message}`;
      throw e;
    }
  }

  createPageSource(_session: Session, split: Split, columns: readonly string[], signal?: AbortSignal): PageSource {
    const { sql, types } = scanQuery(split.schema, split.table, split.info as PostgresSplitInfo, columns);
    return readQuery(
      this.client,
      sql,
      columns.map((name, i) => ({ name, type: types[i] })),
      signal,
    );
  }

  async createSchema(_session: Session, schema: string, _properties: PropertyValues): Promise<void> {
    await this.client.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`);
  }

  async dropSchema(_session: Session, schema: string, cascade: boolean): Promise<void> {
    await this.client.query(`DROP SCHEMA ${quoteIdentifier(schema)} ${cascade ? 'CASCADE' : 'RESTRICT'}`);
  }

  async createTable(_session: Session, table: TableMetadata): Promise<void> {
    await this.client.query(`CREATE TABLE ${qualifiedTable(table.schema, table.name)} (${columnDefinitions(table)})`);
  }

  async dropTable(_session: Session, schema: string, table: string): Promise<void> {
    this.tables.delete(tableKey(schema, table));
    await this.client.query(`DROP TABLE ${qualifiedTable(schema, table)}`);
  }

  // Writes (postgresql-writes.ts): writers COPY into a table of the write's own; the commit moves it into place.
  async beginCreateTable(_session: Session, table: TableMetadata): Promise<WriteHandle> {
    return writes.beginCreateTable(this.client, table);
  }

  async beginInsert(_session: Session, table: TableMetadata): Promise<WriteHandle> {
    const described = await this.describe(table.schema, table.name);
    if (described === undefined)
      throw new EngineError('TABLE_NOT_FOUND', `Table '${this.name}.${table.schema}.${table.name}' does not exist`);
    return writes.beginInsert(this.client, table.schema, table.name, described.columns);
  }

  checkWriteHandle(handle: WriteHandle): string | undefined {
    return writes.checkPostgresWriteHandle(handle, this.name);
  }

  createPageSink(_session: Session, handle: WriteHandle): ConnectorPageSink {
    return new writes.PostgresPageSink(this.client, handle as writes.PostgresWriteHandle);
  }

  async finishCreateTable(_session: Session, handle: WriteHandle): Promise<void> {
    await writes.finishCreateTable(this.client, handle as writes.PostgresWriteHandle);
  }

  async finishInsert(_session: Session, handle: WriteHandle): Promise<void> {
    await writes.finishInsert(this.client, handle as writes.PostgresWriteHandle);
  }

  async abortWrite(_session: Session, handle: WriteHandle): Promise<void> {
    await writes.abortWrite(this.client, handle as writes.PostgresWriteHandle);
  }

  // DELETE and UPDATE made by the server in one statement (row-changes.ts).
  async applyRowChange(session: Session, schema: string, table: string, change: InPlaceRowChange): Promise<PushedRowChange | undefined> {
    const described = this.tables.get(tableKey(schema, table)) ?? (await this.describe(schema, table));
    if (described === undefined) throw new EngineError('TABLE_NOT_FOUND', `Table '${this.name}.${schema}.${table}' does not exist`);
    const pushdown = sessionSettings(session, this.name, this.config).filter_pushdown_enabled;
    const sql = rowChangeSql(schema, table, described.columns, described.utf8, change, pushdown);
    return sql === undefined ? undefined : { handle: sql, explain: sql };
  }

  /** The handle is the statement applyRowChange made here (a change runs on the coordinator that planned it). */
  executeRowChange(_session: Session, change: PushedRowChange): Promise<number> {
    return runRowChange(this.client, change.handle as string);
  }

  /** Trino's refusal for a table without a primary key; one with a key takes row-level changes (below). */
  async rowLevelChangeRefusal(_session: Session, schema: string, table: string): Promise<string | undefined> {
    const described = await this.describe(schema, table);
    if (described === undefined) throw new EngineError('TABLE_NOT_FOUND', `Table '${this.name}.${schema}.${table}' does not exist`);
    return described.keyColumns.length === 0 ? NO_PRIMARY_KEY : undefined;
  }

  // Row-level changes by primary key, in one transaction (keyed-changes.ts).
  deleteRows(_session: Session, schema: string, table: string, predicate: RowPredicate): Promise<number> {
    return this.changeRows(schema, table, (rows) => {
      const deleted = rows.map((page) => takeSelected(page, predicate(page)));
      return { deleted, updated: [], inserted: [], changed: rowCount(deleted) };
    });
  }

  updateRows(_session: Session, schema: string, table: string, predicate: RowPredicate, update: RowUpdate): Promise<number> {
    return this.changeRows(schema, table, (rows) => {
      const updated = rows.map((page) => {
        const before = takeSelected(page, predicate(page));
        return { before, after: update(before) };
      });
      return { deleted: [], updated, inserted: [], changed: rowCount(updated.map((u) => u.before)) };
    });
  }

  mergeRows(_session: Session, schema: string, table: string, merge: RowMerge): Promise<number> {
    return this.changeRows(schema, table, merge);
  }

  async truncateTable(_session: Session, schema: string, table: string): Promise<void> {
    await this.client.query(`TRUNCATE TABLE ${qualifiedTable(schema, table)}`);
  }

  private async changeRows(schema: string, table: string, change: RowMerge): Promise<number> {
    const described = await this.describe(schema, table);
    if (described === undefined) throw new EngineError('TABLE_NOT_FOUND', `Table '${this.name}.${schema}.${table}' does not exist`);
    const target = {
      catalog: this.name,
      schema,
      table,
      columns: described.columns,
      orderedText: described.utf8,
      keyColumns: described.keyColumns,
    };
    return changeRowsByKey(this.client, target, change);
  }

  private async describe(schema: string, table: string): Promise<PostgresTable | undefined> {
    const described = await catalogQueries.describeTable(this.client, schema, table);
    const key = tableKey(schema, table);
    if (described === undefined) {
      this.tables.delete(key);
      return undefined;
    }
    const columns = described.columns.flatMap((c) => mapColumn(c, this.config.unsupportedTypeHandling) ?? []);
    const keyColumns = described.keyColumns;
    const primaryKey = keyColumns.length === 1 ? columns.find((c) => c.name === keyColumns[0]) : undefined;
    const result = { columns, primaryKey, keyColumns, estimatedRows: described.estimatedRows, utf8: described.utf8 };
    this.tables.set(key, result);
    return result;
  }
}

function tableKey(schema: string, table: string): string {
  return JSON.stringify([schema, table]);
}

/** The page's rows whose entry in `selected` is 1. */
function takeSelected(page: Page, selected: Uint8Array): Page {
  const positions: number[] = [];
  for (let row = 0; row < page.rowCount; row++) if (selected[row] === 1) positions.push(row);
  return takePage(page, Int32Array.from(positions));
}

function rowCount(pages: readonly Page[]): number {
  return pages.reduce((n, p) => n + p.rowCount, 0);
}
