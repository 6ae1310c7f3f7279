// A lake view as Trino's Hive connector keeps it in the metastore: a table entry of type
// VIRTUAL_VIEW whose `viewOriginalText` is `/* Presto View: <base64 of the view's JSON> */`, the JSON
// being Trino's view definition (original SQL, catalog, schema, columns with Trino type names,
// comment, owner, runAsInvoker, the SQL path). Trino's file metastore reads the same entries.

import { EngineError } from '../../../errors/engine-error.js';
import type { ViewDefinition } from '../../../spi/view.js';
import { typeName } from '../../../types/types.js';
import { fromHiveType } from './hive-types.js';

export const VIEW_TABLE_TYPE = 'VIRTUAL_VIEW';
const PREFIX = '/* Presto View: ';
const SUFFIX = ' */';

/** The metastore entry of a view (the shape of the table entries beside it). */
export interface ViewEntryJson {
  writerVersion?: string;
  owner?: string;
  tableType: typeof VIEW_TABLE_TYPE;
  dataColumns: { name: string; type: string; properties: Record<string, string> }[];
  partitionColumns: never[];
  parameters: Record<string, string>;
  viewOriginalText: string;
  viewExpandedText: string;
  serdeParameters: Record<string, string>;
  columnStatistics: Record<string, unknown>;
}

interface ViewJson {
  originalSql: string;
  catalog?: string;
  schema?: string;
  columns: { name: string; type: string; comment?: string }[];
  comment?: string;
  owner?: string;
  runAsInvoker: boolean;
  /** Trino's CatalogSchemaName list. */
  path: { catalogName: string; schemaName: string }[];
}

export function viewEntryJson(view: ViewDefinition, writerVersion: string): ViewEntryJson {
  const json: ViewJson = {
    originalSql: view.originalSql,
    ...(view.catalog === undefined ? {} : { catalog: view.catalog }),
    ...(view.schema === undefined ? {} : { schema: view.schema }),
    columns: view.columns.map((c) => ({
      name: c.name,
      type: typeName(c.type),
      ...(c.comment === undefined ? {} : { comment: c.comment }),
    })),
    ...(view.comment === undefined ? {} : { comment: view.comment }),
    ...(view.owner === undefined ? {} : { owner: view.owner }),
    runAsInvoker: view.runAsInvoker,
    path: (view.path ?? []).map((p) => ({ catalogName: p.catalog, schemaName: p.schema })),
  };
  return {
    writerVersion,
    ...(view.owner === undefined ? {} : { owner: view.owner }),
    tableType: VIEW_TABLE_TYPE,
    // Hive needs a column: Trino writes this one for every view.
    dataColumns: [{ name: 'dummy', type: 'string', properties: {} }],
    partitionColumns: [],
    parameters: { presto_view: 'true', comment: 'Presto View' },
    viewOriginalText: `${PREFIX}${Buffer.from(JSON.stringify(json), 'utf8').toString('base64')}${SUFFIX}`,
    viewExpandedText: '/* Presto View */',
    serdeParameters: {},
    columnStatistics: {},
  };
}

/** The view an entry holds; `file` names it in errors. */
export function viewFromEntry(entry: { viewOriginalText?: string }, file: string): ViewDefinition {
  const invalid = (what: string) => new EngineError('HIVE_INVALID_METADATA', `${file}: ${what}`);
  const text = entry.viewOriginalText ?? '';
  if (!text.startsWith(PREFIX) || !text.endsWith(SUFFIX)) throw invalid('not a Trino view');
  let json: ViewJson;
  try {
    json = JSON.parse(Buffer.from(text.slice(PREFIX.length, -SUFFIX.length), 'base64').toString('utf8')) as ViewJson;
  } catch (e) {
    throw invalid(`view definition is not valid JSON (${(e as Error).message})`);
  }
  if (typeof json.originalSql !== 'string' || !Array.isArray(json.columns)) throw invalid('view definition has no SQL or columns');
  return {
    originalSql: json.originalSql,
    ...(json.catalog === undefined ? {} : { catalog: json.catalog }),
    ...(json.schema === undefined ? {} : { schema: json.schema }),
    columns: json.columns.map((c) => ({
      name: c.name,
      type: fromHiveType({ type: c.type, engineType: c.type }, `${file}: view column '${c.name}'`),
      ...(c.comment === undefined ? {} : { comment: c.comment }),
    })),
    ...(json.comment === undefined ? {} : { comment: json.comment }),
    ...(json.owner === undefined ? {} : { owner: json.owner }),
    runAsInvoker: json.runAsInvoker === true,
    path: (Array.isArray(json.path) ? json.path : []).map((p, i) => {
      if (typeof p?.catalogName !== 'string' || typeof p?.schemaName !== 'string')
        throw invalid(`view path entry ${i} is not a catalog and schema`);
      return { catalog: p.catalogName, schema: p.schemaName };
    }),
  };
}
