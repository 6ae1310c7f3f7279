// The connector SPI: what a catalog offers the engine. Schemas, tables with typed columns, splits
// of a table, and a page source per split returning only the requested columns.

import type { Session } from './session.js';
import type { Page } from '../columnar/page.js';
import type { Scalar } from '../types/scalar.js';
import type { SqlType } from '../types/types.js';
import type { WorkerSplitSource } from './worker-split.js';
import type { ConnectorProperties } from './properties.js';
import type { ConnectorPageSink, WriteFragment, WriteHandle } from './table-write.js';
import type { ViewDefinition } from './view.js';
import type { LanguageFunctionStorage } from './language-function.js';
import type { TableProcedures } from './table-procedure.js';
import type { TableChange } from './table-change.js';
import type {
  AggregationApplication,
  ConnectorAggregate,
  ConnectorExpression,
  FilterApplication,
  PushedScan,
  SortItem,
} from './pushdown.js';

/** A property's value: a constant, or a list of them for a list property (`ARRAY['a', 'b']`). */
export type PropertyValue = Scalar | readonly Scalar[];

/** Property values by name, as a statement's WITH (...) gave them (with the defaults of the others). */
export type PropertyValues = Readonly<Record<string, PropertyValue>>;

export interface ColumnMetadata {
  name: string;
  type: SqlType;
  nullable?: boolean;
  comment?: string;
  /** The column's property values (CREATE TABLE ... (c type WITH (...))), when its connector declares column properties. */
  properties?: PropertyValues;
  /** `DEFAULT literal`: the literal's SQL text (coordinator/statements/column-defaults.ts). */
  defaultValue?: string;
}

export interface TableMetadata {
  catalog: string;
  schema: string;
  name: string;
  columns: ColumnMetadata[];
  comment?: string;
  /** The table's property values, as the connector keeps them (SHOW CREATE TABLE prints them). */
  properties?: PropertyValues;
}

/** What a connector knows of a table's data (Trino's TableStatistics); every figure is optional: absent is unknown. */
export interface TableStatistics {
  rowCount?: number;
  /** By column name. */
  columns?: Readonly<Record<string, ColumnStatistics>>;
}

/** What a connector knows of one column's values; absent figures are unknown. */
export interface ColumnStatistics {
  /** NULLs among the table's rows, 0 to 1. */
  nullsFraction?: number;
  distinctValuesCount?: number;
  /** Total bytes of the column's values (variable-width types). */
  dataSize?: number;
  /** The least and greatest non-NULL values, as the column's type stores them. */
  low?: Scalar;
  high?: Scalar;
}

export interface SchemaTableName {
  schema: string;
  table: string;
}

/** A unit of scan work; `info` is connector-defined and JSON-serialisable (it travels to workers). */
export interface Split {
  catalog: string;
  schema: string;
  table: string;
  info: unknown;
}

/**
 * What a query's simple predicates say about one column: a range and/or a set of values (all must
 * hold). Connectors may use it to skip work; the engine still filters every row itself.
 */
export interface ColumnDomain {
  column: string;
  low?: { value: Scalar; inclusive: boolean };
  high?: { value: Scalar; inclusive: boolean };
  values?: Scalar[];
  /**
   * The integer values, as bits: a dynamic filter's build keys when more than it lists but within a
   * span (exec/dynamic-filters/key-bitmap.ts), on the build's own node only (never sent to another).
   */
  keys?: KeyBitmap;
}

/** Integers as bits: value base + i is in the set when bit i is (bits[i >> 3] & (1 << (i & 7))), for i < size. */
export interface KeyBitmap {
  base: number;
  size: number;
  /** In a SharedArrayBuffer: worker threads read the one copy. */
  bits: Uint8Array;
}

/** Domains that all hold for the rows a scan needs (a conjunction). */
export type TableConstraint = readonly ColumnDomain[];

/**
 * Counts a page source reports about its reading (bytes read from storage, files, ...), by name:
 * summed over a scan's splits into EXPLAIN ANALYZE and the query's stats.
 */
export type ConnectorMetrics = Readonly<Record<string, number>>;

/** The pages of a split; `metrics`, asked once the pages are read, says what reading them took. */
export interface PageSource extends AsyncIterable<Page> {
  metrics?(): ConnectorMetrics;
}

/**
 * The metric of a page source that reads from storage or another system: the bytes it received (a
 * lake's file and S3 reads, a database's result stream). The node adds them up as its connectors' I/O.
 */
export const BYTES_READ_METRIC = 'bytesRead';

/** Rows for DELETE: given a page of the table (all columns), returns 1 for rows to delete. */
export type RowPredicate = (page: Page) => Uint8Array;

/** UPDATE's new values: given rows of the table that its predicate selected (all columns), the same rows updated (all columns). */
export type RowUpdate = (rows: Page) => Page;

/** MERGE's change of a whole table: given its rows (pages of all columns), its new rows and how many rows were deleted, updated or inserted. */
export type TableRewrite = (rows: readonly Page[]) => { rows: Page[]; changed: number };

/** MERGE's changes of single rows: given the table's rows (pages of all columns), what becomes of them. */
export type RowMerge = (rows: readonly Page[]) => MergedRows;

/** Rows of all columns (table order): deleted ones, updated ones before and after, inserted ones; `changed` counts all three. */
export interface MergedRows {
  deleted: Page[];
  updated: { before: Page; after: Page }[];
  inserted: Page[];
  changed: number;
}

export interface Connector {
  readonly name: string;
  /** The table, schema and session properties the catalog takes; absent: none. */
  readonly properties?: ConnectorProperties;

  // Metadata calls may go to a remote system (a metastore, a database, object storage), so they are
  // asynchronous; the engine loads what a statement names before it analyzes it.
  listSchemas(session: Session): Promise<string[]>;
  /** For connectors with more schemas than they list (tpch's any `sfN`); default: listed ones. */
  schemaExists?(session: Session, schema: string): Promise<boolean>;
  /** Tables of one schema, or of all schemas when `schema` is undefined. */
  listTables(session: Session, schema?: string): Promise<SchemaTableName[]>;
  getTable(session: Session, schema: string, table: string): Promise<TableMetadata | undefined>;

  /**
   * Splits of the table, iterated once; with a constraint, a connector may leave out splits or rows
   * no row of which can match. A connector with many splits makes them as they are taken (the
   * scheduler takes a batch at a time), so that listing them never holds the event loop; listing may
   * wait on I/O (files in a folder or a bucket). `pushed`: what the connector took over for this
   * scan (see pushdown.ts), for it to carry in the splits.
   */
  getSplits(session: Session, table: TableMetadata, constraint?: TableConstraint, pushed?: PushedScan): AsyncIterable<Split>;
  /**
   * What is wrong with a split that came from another node (in a task request), or undefined when
   * this connector can read it: its `info` has the shape the connector makes and names data that
   * exists. Absent: the connector takes any split.
   */
  checkSplit?(split: Split): string | undefined;
  /** What is known of the table's data (join ordering, broadcast choice, SHOW STATS); undefined when nothing is. */
  getTableStatistics?(session: Session, table: TableMetadata): Promise<TableStatistics | undefined>;
  /**
   * Pages of the split holding exactly `columns` (names, in this order). `signal` aborts when the
   * query ends early: a source that waits on another system stops waiting and stops that work too.
   * `dynamicFilter`: domains that every row the query needs satisfies, known only as it runs (the
   * build keys of joins above the scan: dynamic filtering); a connector may skip the data and drop
   * the rows outside them, or ignore them (the joins still match every row).
   */
  createPageSource(
    session: Session,
    split: Split,
    columns: readonly string[],
    signal?: AbortSignal,
    dynamicFilter?: TableConstraint,
  ): PageSource;
  /**
   * Whether any node of the cluster can read the table's splits and write its rows (its data is not
   * held by this process alone); absent: only the coordinator reads and writes it, and a distributed
   * plan reads it and runs its writers there.
   */
  remotelyAccessible?(table: TableMetadata): boolean;
  /** How workers read the table's splits without this instance; undefined (or absent): only here. */
  workerSplitSource?(table: TableMetadata): WorkerSplitSource | undefined;

  // Pushdown (see pushdown.ts): each call is offered the scan as planned so far (`pushed`: what the
  // connector already took, undefined at first) and answers undefined when it takes nothing. Planning
  // is synchronous: a connector decides from the table's metadata it already has.
  /** Takes some of the conjuncts of a filter over the scan's columns. */
  applyFilter?(
    session: Session,
    table: TableMetadata,
    pushed: PushedScan | undefined,
    conjuncts: readonly ConnectorExpression[],
  ): FilterApplication | undefined;
  /** Returns at most `count` rows per split (the engine's LIMIT stays above the scan). */
  applyLimit?(session: Session, table: TableMetadata, pushed: PushedScan | undefined, count: number): PushedScan | undefined;
  /** Returns at least the first `count` rows per split in this order (the engine's TopN stays above). */
  applyTopN?(
    session: Session,
    table: TableMetadata,
    pushed: PushedScan | undefined,
    count: number,
    orderBy: readonly SortItem[],
  ): PushedScan | undefined;
  /** Computes a whole aggregation (grouped by columns of the scan): the scan then reads its result. */
  applyAggregation?(
    session: Session,
    table: TableMetadata,
    pushed: PushedScan | undefined,
    aggregates: readonly ConnectorAggregate[],
    groupBy: readonly ColumnMetadata[],
  ): AggregationApplication | undefined;

  /**
   * Whether CREATE TABLE may leave out the column list: the connector then reads the columns from the
   * table's data (a lake table's files). Absent: a column list is required.
   */
  readonly infersTableColumns?: boolean;

  // Writes: connectors that do not support one leave it undefined (the engine then fails with NOT_SUPPORTED).
  createSchema?(session: Session, schema: string, properties: PropertyValues): Promise<void>;
  dropSchema?(session: Session, schema: string, cascade: boolean): Promise<void>;
  createTable?(session: Session, table: TableMetadata): Promise<void>;
  dropTable?(session: Session, schema: string, table: string): Promise<void>;
  /** Changes the table's definition (see table-change.ts); a connector that cannot make a change fails with NOT_SUPPORTED. */
  alterTable?(session: Session, schema: string, table: string, change: TableChange): Promise<void>;
  /** Whether it keeps columns' DEFAULT values (Trino's DEFAULT_COLUMN_VALUE capability). */
  readonly columnDefaults?: boolean;

  // Writing rows (CREATE TABLE AS, INSERT), as Trino's: the coordinator begins a write and gets a
  // handle; page sinks, on the nodes that run the writers (any node when remotelyAccessible says so
  // of the table, else the coordinator), write the rows and report fragments; the coordinator then
  // commits all fragments at once, or aborts the write. Handles and fragments are plain JSON: they
  // travel to workers in task requests and back in the writers' rows. See table-write.ts.
  /** Begins writing a new table: it must not be visible to readers before finishCreateTable. */
  beginCreateTable?(session: Session, table: TableMetadata): Promise<WriteHandle>;
  /** Begins appending rows to a table (columns in table order). */
  beginInsert?(session: Session, table: TableMetadata): Promise<WriteHandle>;
  /**
   * Columns whose rows should each go to one writer (a partitioned table's partition columns), so
   * that a partition gets few files; absent or empty: rows are written where they are.
   */
  writePartitionColumns?(table: TableMetadata): readonly string[];
  /** What is wrong with a handle that came from another node (as checkSplit); absent: any is taken. */
  checkWriteHandle?(handle: WriteHandle): string | undefined;
  /** A writer of the write's rows on this node. */
  createPageSink?(session: Session, handle: WriteHandle): ConnectorPageSink;
  /** Commits a new table with the fragments of all its writers: it appears whole, at once. */
  finishCreateTable?(session: Session, handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<void>;
  /** Commits the fragments of all writers of an insert at once. */
  finishInsert?(session: Session, handle: WriteHandle, fragments: readonly WriteFragment[]): Promise<void>;
  /**
   * Undoes a write that will not commit (failed or cancelled): removes what its writers wrote, also
   * that of writers on nodes that are gone. Never undoes a committed write.
   */
  abortWrite?(session: Session, handle: WriteHandle): Promise<void>;
  /** Why this catalog's tables refuse DELETE, UPDATE and MERGE (the NOT_SUPPORTED message), when it has no deleteRows / updateRows; absent: a generic message. */
  readonly rowChangeRefusal?: string;
  /** Deletes the rows the predicate selects; returns how many. Atomic. */
  deleteRows?(session: Session, schema: string, table: string, predicate: RowPredicate): Promise<number>;
  /**
   * DELETE by dropping whole partitions, without reading rows (Trino's applyDelete/executeDelete for a
   * non-transactional Hive table): `selects` is asked about a page of the partitions' values (the
   * writePartitionColumns, in order; one row per partition; no columns for an unpartitioned table).
   * The engine calls it only for a WHERE of the partition columns that Trino enforces on partition
   * values (coordinator/statements/partition-delete.ts). Atomic; the count of rows is not known.
   */
  deletePartitions?(session: Session, schema: string, table: string, selects: RowPredicate): Promise<void>;
  /**
   * DELETE or UPDATE made by the data source in one statement of its own (Trino's applyDelete /
   * applyUpdate): the change as the source will make it, or undefined when it cannot make this
   * change whole; the engine then refuses the statement with rowLevelChangeRefusal.
   */
  applyRowChange?(session: Session, schema: string, table: string, change: InPlaceRowChange): Promise<PushedRowChange | undefined>;
  /** Makes a change applyRowChange gave (Trino's executeDelete / executeUpdate), atomic; returns the rows it changed. */
  executeRowChange?(session: Session, change: PushedRowChange): Promise<number>;
  /**
   * Why the table refuses a change of single rows (MERGE, or a DELETE/UPDATE applyRowChange cannot
   * make): the NOT_SUPPORTED message; undefined when it takes them (deleteRows, updateRows, mergeRows).
   */
  rowLevelChangeRefusal?(session: Session, schema: string, table: string): Promise<string | undefined>;
  /** MERGE made as changes of single rows (Trino's merge sink, by the table's key): `merge` is given the current rows; atomic; returns its count. */
  mergeRows?(session: Session, schema: string, table: string, merge: RowMerge): Promise<number>;
  /** TRUNCATE TABLE made by the data source (Trino's truncateTable); without it the engine deletes every row through deleteRows. */
  truncateTable?(session: Session, schema: string, table: string): Promise<void>;
  /** Replaces the rows the predicate selects by `update`'s rows for them (all columns, table order); returns how many. Atomic. */
  updateRows?(session: Session, schema: string, table: string, predicate: RowPredicate, update: RowUpdate): Promise<number>;
  /** Replaces the table's rows by `rewrite`'s, computed from its current rows in one atomic step; returns rewrite's count. */
  rewriteRows?(session: Session, schema: string, table: string, rewrite: TableRewrite): Promise<number>;

  // Views (see view.ts): a catalog that keeps none leaves these undefined (CREATE VIEW then fails with NOT_SUPPORTED).
  /** Views of one schema, or of all schemas when `schema` is undefined (listTables lists tables only). */
  listViews?(session: Session, schema?: string): Promise<SchemaTableName[]>;
  getView?(session: Session, schema: string, view: string): Promise<ViewDefinition | undefined>;
  /** Creates the view, or with `replace` replaces one of that name; fails when a table has the name. */
  createView?(session: Session, schema: string, view: string, definition: ViewDefinition, replace: boolean): Promise<void>;
  dropView?(session: Session, schema: string, view: string): Promise<void>;

  /** SQL routines (CREATE FUNCTION) this catalog stores; undefined when it stores none. */
  readonly languageFunctions?: LanguageFunctionStorage;
  /** ALTER TABLE ... EXECUTE: the table procedures the catalog offers (spi/table-procedure.ts); none without. */
  readonly tableProcedures?: TableProcedures;
}

/** Splits made synchronously, handed out as the async iterable the SPI asks for. */
export async function* splitsOf(splits: Iterable<Split>): AsyncIterable<Split> {
  yield* splits;
}

/** Every split of an iteration, for a scan that reads them all in one place (a table of few splits). */
export async function allSplits(splits: AsyncIterable<Split>): Promise<Split[]> {
  const out: Split[] = [];
  for await (const split of splits) out.push(split);
  return out;
}

/** A DELETE (no `set`) or an UPDATE of constant values, offered to applyRowChange. */
export interface InPlaceRowChange {
  /** The WHERE's conjuncts over the table's columns (none: every row); undefined when one reads more than columns and constants. */
  where: readonly ConnectorExpression[] | undefined;
  /** Each SET column and its new value: a constant of the column's type, undefined when the value is not a constant. */
  set?: readonly { column: string; value: ConnectorExpression | undefined }[];
}

/** A DELETE or UPDATE a connector makes itself: its own handle (used on the coordinator only), and what EXPLAIN prints of it. */
export interface PushedRowChange {
  handle: unknown;
  /** The change as the source makes it, e.g. its SQL statement. */
  explain: string;
}
