// The catalog that runs the built-in table functions whose rows are generated (Trino's
// system.builtin.sequence): a table scan of `sequence` reads the range its table metadata carries
// (the planner makes that metadata from the function's arguments; see
// sql/analyzer/table-functions/sequence-function.ts). Its splits are runs of the range that any
// node or worker thread generates alike, so a long sequence is read in parallel and never held.
// The catalog is not configured and not listed: CatalogManager answers it by its reserved name.

import { EngineError } from '../../errors/engine-error.js';
import type { Connector, SchemaTableName, Split, TableConstraint, TableMetadata, TableStatistics } from '../../spi/connector.js';
import type { Page } from '../../columnar/page.js';
import type { Session } from '../../spi/session.js';
import type { SplitReader, WorkerSplitSource } from '../../spi/worker-split.js';
import { shapeCheck } from '../../spi/json-shape.js';
import { BIGINT } from '../../types/types.js';
import {
  sequenceLength,
  sequencePages,
  sequenceSplits,
  SEQUENCE_SPLIT_ROWS,
  type SequenceRange,
  type SequenceSplitInfo,
  type ValueBounds,
} from './sequence-range.js';

/** The reserved catalog name (no configured catalog can be named so: CatalogManager refuses it). */
export const TABLE_FUNCTION_CATALOG = '$table_functions';
const SCHEMA = 'builtin';
const SEQUENCE = 'sequence';
/** The table property holding the call's arguments (EXPLAIN shows them). */
const ARGUMENTS = 'arguments';
/** The one column of sequence's rows, as Trino names it. */
export const SEQUENCE_COLUMN = 'sequential_number';
export const SEQUENCE_SPLIT_READER = 'sequence';

/**
 * The table a scan of `sequence(start, stop, step)` reads (the range must be validated already);
 * `given` is the step as the call gave it (the range's is 0 when start = stop), kept for EXPLAIN.
 */
export function sequenceTable(range: SequenceRange, given: bigint = range.step): TableMetadata {
  const properties = {
    start: range.start.toString(),
    stop: range.stop.toString(),
    step: range.step.toString(),
    [ARGUMENTS]: [
      ['START', range.start.toString()],
      ['STOP', range.stop.toString()],
      ['STEP', given.toString()],
    ],
  };
  return {
    catalog: TABLE_FUNCTION_CATALOG,
    schema: SCHEMA,
    name: SEQUENCE,
    columns: [{ name: SEQUENCE_COLUMN, type: BIGINT, nullable: false }],
    properties,
  };
}

const DECIMAL = { type: 'string', pattern: '^-?[0-9]{1,19}$' };
const checkInfoShape = shapeCheck({
  type: 'object',
  required: ['first', 'count', 'step'],
  properties: { first: DECIMAL, count: DECIMAL, step: DECIMAL },
  additionalProperties: false,
});

export class TableFunctionConnector implements Connector {
  readonly name = TABLE_FUNCTION_CATALOG;

  async listSchemas(_session: Session): Promise<string[]> {
    return [];
  }

  async listTables(_session: Session): Promise<SchemaTableName[]> {
    return [];
  }

  /** Its tables are made by the planner from a function's arguments, never looked up by name. */
  async getTable(): Promise<TableMetadata | undefined> {
    return undefined;
  }

  /** Only the splits of the values a filter on the column keeps (the engine still filters the rows). */
  getSplits(_session: Session, table: TableMetadata, constraint?: TableConstraint): AsyncIterable<Split> {
    const range = rangeOf(table);
    const bounds = boundsOf(constraint);
    return (async function* () {
      for (const info of sequenceSplits(range, bounds)) yield { catalog: TABLE_FUNCTION_CATALOG, schema: SCHEMA, table: SEQUENCE, info };
    })();
  }

  checkSplit(split: Split): string | undefined {
    if (split.schema !== SCHEMA || split.table !== SEQUENCE)
      return `table '${split.schema}.${split.table}' is not a table function of this node`;
    const problem = checkInfoShape(split.info, 'info');
    if (problem !== undefined) return problem;
    const count = BigInt((split.info as SequenceSplitInfo).count);
    return count > 0n && count <= SEQUENCE_SPLIT_ROWS ? undefined : `info/count: ${count} is not from 1 to ${SEQUENCE_SPLIT_ROWS}`;
  }

  async getTableStatistics(_session: Session, table: TableMetadata): Promise<TableStatistics> {
    return sequenceStatistics(table);
  }

  createPageSource(_session: Session, split: Split, columns: readonly string[]): AsyncIterable<Page> {
    return pagesOf(split.info as SequenceSplitInfo, columns);
  }

  remotelyAccessible(): boolean {
    return true;
  }

  workerSplitSource(): WorkerSplitSource {
    return {
      generatesPages: true,
      prepare: (split, columns, session) => ({
        ready: () => Promise.resolve(),
        worker: { reader: SEQUENCE_SPLIT_READER, data: split.info },
        local: () => this.createPageSource(session, split, columns),
      }),
    };
  }
}

/** Reads sequence splits in a worker thread. */
export const sequenceSplitReader: SplitReader = {
  open: (data: unknown, columns: readonly string[]) => pagesOf(data as SequenceSplitInfo, columns),
};

/** The split's pages with the columns asked for: its one column, or none (count(*) reads only row counts). */
async function* pagesOf(split: SequenceSplitInfo, columns: readonly string[]): AsyncIterable<Page> {
  const unknown = columns.find((c) => c !== SEQUENCE_COLUMN);
  if (unknown !== undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `sequence has no column '${unknown}'`);
  for (const page of sequencePages(split))
    yield columns.length === 0
      ? { rowCount: page.rowCount, columns: [] }
      : { rowCount: page.rowCount, columns: columns.map(() => page.columns[0]) };
}

/** The bounds the constraint's domains on the column set (exclusive ones tightened: the values are integers). */
function boundsOf(constraint: TableConstraint | undefined): ValueBounds {
  const bounds: ValueBounds = {};
  const raise = (low: bigint) => (bounds.low = bounds.low === undefined || low > bounds.low ? low : bounds.low);
  const lower = (high: bigint) => (bounds.high = bounds.high === undefined || high < bounds.high ? high : bounds.high);
  for (const domain of constraint ?? []) {
    if (domain.column !== SEQUENCE_COLUMN) continue;
    if (domain.low && typeof domain.low.value === 'bigint') raise(domain.low.value + (domain.low.inclusive ? 0n : 1n));
    if (domain.high && typeof domain.high.value === 'bigint') lower(domain.high.value - (domain.high.inclusive ? 0n : 1n));
    const listed = domain.values?.filter((v): v is bigint => typeof v === 'bigint');
    if (listed !== undefined && listed.length === domain.values!.length)
      bounds.values = bounds.values ? bounds.values.filter((v) => listed.includes(v)) : listed;
  }
  return bounds;
}

/**
 * A sequence table's statistics, counted from its range: rows and distinct values, no NULLs, the
 * lowest and highest value (the sequence reaches its last value below or at stop: low and high are
 * those values).
 */
export function sequenceStatistics(table: TableMetadata): TableStatistics {
  const range = rangeOf(table);
  const length = sequenceLength(range);
  const rows = Number(length);
  const last = range.start + (length - 1n) * range.step;
  const [low, high] = range.step < 0n ? [last, range.start] : [range.start, last];
  return { rowCount: rows, columns: { [SEQUENCE_COLUMN]: { nullsFraction: 0, distinctValuesCount: rows, low, high } } };
}

/** The arguments of the table function call a table of this catalog is made from, as `[NAME, value]`. */
export function tableFunctionArguments(table: TableMetadata): ReadonlyArray<readonly [string, string]> | undefined {
  if (table.catalog !== TABLE_FUNCTION_CATALOG) return undefined;
  return table.properties?.[ARGUMENTS] as ReadonlyArray<readonly [string, string]> | undefined;
}

function rangeOf(table: TableMetadata): SequenceRange {
  const properties = table.properties ?? {};
  const value = (name: string) => BigInt(String(properties[name]));
  return { start: value('start'), stop: value('stop'), step: value('step') };
}
