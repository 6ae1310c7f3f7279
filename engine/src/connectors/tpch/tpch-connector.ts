// The `tpch` connector: the TPC-H tables generated on the fly with exactly the rows of the
// reference generator dbgen, at the scale factor the schema names (`tiny` = 0.01, `sf1`, `sf0.1`,
// ...). Splits are unit ranges that generate independently; pages hold only the requested columns.

import type { Session } from '../../spi/session.js';
import { EngineError } from '../../errors/engine-error.js';
import type { Page } from '../../columnar/page.js';
import { selectColumnIndexes } from '../column-selection.js';
import type { Connector, SchemaTableName, Split, TableConstraint, TableMetadata, TableStatistics } from '../../spi/connector.js';
import { namedColumn, type ColumnNaming } from './column-naming.js';
import { tpchColumnStatistics } from './column-statistics.js';
import { STANDARD_SCHEMAS, Scale, scaleFactorOfSchema } from './scale.js';
import { SPLIT_TARGET_ROWS, pageRanges, splitRanges, type TpchSplitInfo } from './splits.js';
import { unitRangesFor } from './key-ranges.js';
import type { TpchTable } from './table.js';
import { TPCH_TABLES, tpchTable } from './tables.js';
import { needsTextPool, sharedTextPool, textPoolReady } from './text-pool.js';
import type { WorkerSplitSource } from '../../spi/worker-split.js';
import { shapeCheck } from '../../spi/json-shape.js';
import { TPCH_SPLIT_READER, type TpchWorkerSplit } from './tpch-split-data.js';

const UNIT = { type: 'integer', minimum: 0 };
const checkInfoShape = shapeCheck({
  type: 'object',
  required: ['start', 'end'],
  properties: { start: UNIT, end: UNIT },
  additionalProperties: false,
});

export class TpchConnector implements Connector {
  private readonly scales = new Map<string, Scale>();
  private readonly statistics = new Map<string, TableStatistics>();

  constructor(
    /** The catalog name this connector serves. */
    readonly name = 'tpch',
    /** The names its columns have: STANDARD (o_orderkey) or SIMPLIFIED (orderkey). */
    readonly columnNaming: ColumnNaming = 'STANDARD',
  ) {}

  async listSchemas(_session: Session): Promise<string[]> {
    return [...STANDARD_SCHEMAS];
  }

  async listTables(_session: Session, schema?: string): Promise<SchemaTableName[]> {
    const schemas = schema === undefined ? STANDARD_SCHEMAS : scaleFactorOfSchema(schema) === undefined ? [] : [schema];
    const tables = TPCH_TABLES.map((t) => t.name).sort();
    return schemas.flatMap((s) => tables.map((table) => ({ schema: s, table })));
  }

  async schemaExists(_session: Session, schema: string): Promise<boolean> {
    return scaleFactorOfSchema(schema) !== undefined;
  }

  async getTable(_session: Session, schema: string, table: string): Promise<TableMetadata | undefined> {
    const generated = tpchTable(table);
    if (generated === undefined || scaleFactorOfSchema(schema) === undefined) return undefined;
    return {
      catalog: this.name,
      schema,
      name: table,
      columns: generated.columns.map((c) => ({ ...c, name: namedColumn(c.name, this.columnNaming) })),
    };
  }

  /** Checked at once (an unknown schema or table fails here); the splits themselves are made as they are taken. */
  getSplits(_session: Session, table: TableMetadata, constraint?: TableConstraint): AsyncIterable<Split> {
    const generated = this.requireTable(table.schema, table.name);
    const scale = this.scale(table.schema);
    const standard = constraint?.map((domain) => ({ ...domain, column: standardColumnName(generated, domain.column) }));
    const within = unitRangesFor(table.name, generated.unitCount(scale), standard);
    const ranges = splitRanges(generated, scale, SPLIT_TARGET_ROWS, within);
    const catalog = this.name;
    return (async function* () {
      for (const info of ranges) yield { catalog, schema: table.schema, table: table.name, info };
    })();
  }

  /** A split names units [start, end) of an existing table, within its unit count at the schema's scale. */
  checkSplit(split: Split): string | undefined {
    const generated = tpchTable(split.table);
    if (generated === undefined || scaleFactorOfSchema(split.schema) === undefined)
      return `table '${this.name}.${split.schema}.${split.table}' does not exist`;
    const shape = checkInfoShape(split.info, 'info');
    if (shape !== undefined) return shape;
    const { start, end } = split.info as TpchSplitInfo;
    const units = generated.unitCount(this.scale(split.schema));
    return start <= end && end <= units
      ? undefined
      : `info: units [${start}, ${end}) are not within the ${units} of '${split.schema}.${split.table}'`;
  }

  async getTableStatistics(_session: Session, table: TableMetadata): Promise<TableStatistics | undefined> {
    const key = `${table.schema}.${table.name}`;
    let statistics = this.statistics.get(key);
    if (statistics === undefined) {
      const scale = this.scale(table.schema);
      const rowCount = this.requireTable(table.schema, table.name).rowCount(scale);
      const columns = Object.entries(tpchColumnStatistics(table.name, scale, rowCount)).map(
        ([name, column]) => [namedColumn(name, this.columnNaming), column] as const,
      );
      statistics = { rowCount, columns: Object.fromEntries(columns) };
      this.statistics.set(key, statistics);
    }
    return statistics;
  }

  createPageSource(_session: Session, split: Split, columns: readonly string[]): AsyncIterable<Page> {
    const generated = this.requireTable(split.schema, split.table);
    const columnIndexes = selectColumnIndexes(
      generated.columns,
      columns.map((c) => standardColumnName(generated, c)),
    );
    const { start, end } = split.info as TpchSplitInfo;
    return generatePages(generated, this.scale(split.schema), start, end, columnIndexes);
  }

  /**
   * Pages are a pure function of (schema, table, split, columns): a worker makes its own instance of
   * the connector. The comment columns (only they) draw from a 300 MB text pool: a worker adopts
   * this thread's copy instead of spending seconds building its own.
   */
  /** Every node generates the same rows for a split. */
  remotelyAccessible(): boolean {
    return true;
  }

  workerSplitSource(): WorkerSplitSource {
    return {
      generatesPages: true,
      prepare: (split, columns, session) => ({
        ready: () => (needsTextPool(columns) ? textPoolReady() : Promise.resolve()),
        get worker() {
          const data: TpchWorkerSplit = { split, state: needsTextPool(columns) ? sharedTextPool() : undefined };
          return { reader: TPCH_SPLIT_READER, data };
        },
        local: () => this.createPageSource(session, split, columns),
      }),
    };
  }

  private scale(schema: string): Scale {
    let scale = this.scales.get(schema);
    if (scale === undefined) {
      const scaleFactor = scaleFactorOfSchema(schema);
      if (scaleFactor === undefined) throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${this.name}.${schema}' does not exist`);
      scale = new Scale(scaleFactor);
      this.scales.set(schema, scale);
    }
    return scale;
  }

  private requireTable(schema: string, table: string): TpchTable {
    this.scale(schema);
    const generated = tpchTable(table);
    if (generated === undefined) throw new EngineError('TABLE_NOT_FOUND', `Table '${this.name}.${schema}.${table}' does not exist`);
    return generated;
  }
}

/**
 * A column's standard name, given either naming (the two never collide): a worker thread's own
 * connector reads the splits of a catalog of either naming.
 */
function standardColumnName(table: TpchTable, name: string): string {
  return table.columns.find((c) => c.name === name || namedColumn(c.name, 'SIMPLIFIED') === name)?.name ?? name;
}

/** Pages are generated when asked for, one at a time (once the text pool is ready, for comments). */
async function* generatePages(
  table: TpchTable,
  scale: Scale,
  start: number,
  end: number,
  columnIndexes: readonly number[],
): AsyncIterable<Page> {
  if (needsTextPool(columnIndexes.map((i) => table.columns[i].name))) await textPoolReady();
  for (const [from, to] of pageRanges(table, scale, start, end)) yield table.generate(scale, from, to, columnIndexes);
}
