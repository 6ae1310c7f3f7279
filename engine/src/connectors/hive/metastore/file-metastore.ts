// Trino's file metastore: schemas and tables kept as JSON files under the catalog folder, so that
// they survive restarts and every node that sees the folder sees the same catalog. The layout is
// Trino's, so that its file metastore reads the same folder:
//   <catalog dir>/.<schema>.trinoSchema            the schema (owner, location, parameters)
//   <catalog dir>/<schema>/<table>/.trinoSchema    the table (see lake-table.ts)
// Managed tables keep their files in that table folder (or below the schema's `location`). A table
// entry is created with the file system's create-if-absent, so two CREATE TABLEs of one name never
// both succeed. The `default` schema always exists, as in Trino's Hive catalogs.

import { EngineError } from '../../../errors/engine-error.js';
import type { FileSystem } from '../file-system/file-system.js';
import type { FileSystems } from '../file-system/file-systems.js';
import { asDirectory, childLocation, relativeLocation } from '../location.js';
import { tableFromJson, tableJson, WRITER_VERSION, type LakeTable, type TableJson } from './lake-table.js';
import { overwriteFile, readJson, toJsonBytes } from './json-files.js';
import { VIEW_TABLE_TYPE, viewEntryJson, viewFromEntry } from './lake-view.js';
import type { ViewDefinition } from '../../../spi/view.js';

export const DEFAULT_SCHEMA = 'default';
const SCHEMA_SUFFIX = '.trinoSchema';

export interface LakeSchema {
  name: string;
  /** The schema's `location` property: where its managed tables go instead of the catalog folder. */
  location?: string;
  owner?: string;
}

interface SchemaJson {
  writerVersion?: string;
  ownerName?: string;
  ownerType?: string;
  location?: string;
  parameters: Record<string, string>;
}

export class FileMetastore {
  constructor(
    readonly catalog: string,
    /** The catalog folder (a directory location). */
    readonly catalogDir: string,
    private readonly fileSystems: FileSystems,
  ) {}

  private get fs(): FileSystem {
    return this.fileSystems.forLocation(this.catalogDir);
  }

  // -------------------------------------------------------------------------------------------
  // Schemas

  /** Schema names, sorted: the `.<name>.trinoSchema` files at the top of the catalog folder. */
  async listSchemas(): Promise<string[]> {
    const names = new Set<string>([DEFAULT_SCHEMA]);
    for await (const file of this.fs.listFiles(this.catalogDir)) {
      const relative = relativeLocation(this.catalogDir, file.location);
      // Locations come in ascending order: past the names starting with '.', no schema file follows.
      if (relative > '.' && !relative.startsWith('.')) break;
      if (
        !relative.includes('/') &&
        relative.startsWith('.') &&
        relative.endsWith(SCHEMA_SUFFIX) &&
        relative.length > SCHEMA_SUFFIX.length + 1
      ) {
        names.add(relative.slice(1, -SCHEMA_SUFFIX.length));
      }
    }
    return [...names].sort();
  }

  async getSchema(name: string): Promise<LakeSchema | undefined> {
    const json = await readJson<SchemaJson>(this.fs, this.schemaFile(name));
    if (json === undefined) return name === DEFAULT_SCHEMA ? { name } : undefined;
    return {
      name,
      ...(json.location === undefined ? {} : { location: json.location }),
      ...(json.ownerName === undefined ? {} : { owner: json.ownerName }),
    };
  }

  async createSchema(schema: LakeSchema): Promise<void> {
    checkName(schema.name, 'schema');
    const json: SchemaJson = {
      writerVersion: WRITER_VERSION,
      ...(schema.owner === undefined ? {} : { ownerName: schema.owner, ownerType: 'USER' }),
      ...(schema.location === undefined ? {} : { location: asDirectory(schema.location) }),
      parameters: {},
    };
    const created = schema.name !== DEFAULT_SCHEMA && (await this.fs.createExclusive(this.schemaFile(schema.name), toJsonBytes(json)));
    if (!created) throw new EngineError('ALREADY_EXISTS', `Schema '${this.catalog}.${schema.name}' already exists`);
  }

  /** Drops an empty schema (its entry and its metadata folder). */
  async dropSchema(name: string): Promise<void> {
    if (name === DEFAULT_SCHEMA) throw new EngineError('NOT_SUPPORTED', `Schema '${this.catalog}.${DEFAULT_SCHEMA}' cannot be dropped`);
    if ((await this.listEntries(name)).length > 0) throw new EngineError('SCHEMA_NOT_EMPTY', `Cannot drop non-empty schema '${name}'`);
    await this.fs.deleteFile(this.schemaFile(name));
    await this.fs.deleteDirectory(this.schemaDirectory(name));
  }

  // -------------------------------------------------------------------------------------------
  // Tables

  /** Table names of a schema, sorted: its folders that hold a table entry (not a view's). */
  async listTables(schema: string): Promise<string[]> {
    return (await this.listEntries(schema)).filter((e) => !e.view).map((e) => e.name);
  }

  /** View names of a schema, sorted. */
  async listViews(schema: string): Promise<string[]> {
    return (await this.listEntries(schema)).filter((e) => e.view).map((e) => e.name);
  }

  /** The schema's folders that hold an entry, sorted by name, and whether each is a view's. */
  private async listEntries(schema: string): Promise<{ name: string; view: boolean }[]> {
    const directories = await this.fs.listDirectories(this.schemaDirectory(schema));
    const entries = await Promise.all(
      directories.map(async (directory) => {
        const name = relativeLocation(this.schemaDirectory(schema), directory).replace(/\/$/, '');
        const json = isValidName(name)
          ? await readJson<{ tableType?: string }>(this.fs, childLocation(directory, SCHEMA_SUFFIX))
          : undefined;
        return json === undefined ? undefined : { name, view: json.tableType === VIEW_TABLE_TYPE };
      }),
    );
    return entries.filter((e): e is { name: string; view: boolean } => e !== undefined).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** The table of that name; undefined when there is none or the name is a view's. */
  async getTable(schema: string, name: string): Promise<LakeTable | undefined> {
    const entry = await this.readEntry(schema, name);
    if (entry === undefined || entry.json.tableType === VIEW_TABLE_TYPE) return undefined;
    return tableFromJson(entry.json as TableJson, { catalog: this.catalog, schema, name }, this.tableDirectory(schema, name), entry.file);
  }

  /** The view of that name; undefined when there is none or the name is a table's. */
  async getView(schema: string, name: string): Promise<ViewDefinition | undefined> {
    const entry = await this.readEntry(schema, name);
    if (entry === undefined || entry.json.tableType !== VIEW_TABLE_TYPE) return undefined;
    return viewFromEntry(entry.json as { viewOriginalText?: string }, entry.file);
  }

  private async readEntry(schema: string, name: string): Promise<{ json: { tableType?: string }; file: string } | undefined> {
    if (!isValidName(schema) || !isValidName(name)) return undefined;
    const file = this.tableFile(schema, name);
    const json = await readJson<{ tableType?: string }>(this.fs, file);
    return json === undefined ? undefined : { json, file };
  }

  /** Writes a view's entry: a new one, or with `replace` over a view's (never over a table's). */
  async createView(schema: string, name: string, view: ViewDefinition, replace: boolean): Promise<void> {
    checkName(name, 'table');
    const qualified = `${this.catalog}.${schema}.${name}`;
    const bytes = toJsonBytes(viewEntryJson(view, WRITER_VERSION));
    if (await this.fs.createExclusive(this.tableFile(schema, name), bytes)) return;
    if ((await this.getView(schema, name)) === undefined)
      throw new EngineError('TABLE_ALREADY_EXISTS', `Table already exists: '${qualified}'`);
    if (!replace) throw new EngineError('TABLE_ALREADY_EXISTS', `View already exists: '${qualified}'`);
    await this.overwrite(this.tableFile(schema, name), bytes);
  }

  /** Rewrites an existing table's entry (its comments changed): commits live in their own log, so none is lost. */
  async replaceTable(table: LakeTable): Promise<void> {
    await this.overwrite(this.tableFile(table.schema, table.name), toJsonBytes(tableJson(table)));
  }

  private overwrite(file: string, bytes: Uint8Array): Promise<void> {
    return overwriteFile(this.fs, file, bytes);
  }

  async dropView(schema: string, name: string): Promise<void> {
    if ((await this.getView(schema, name)) === undefined)
      throw new EngineError('TABLE_NOT_FOUND', `View '${this.catalog}.${schema}.${name}' does not exist`);
    await this.fs.deleteFile(this.tableFile(schema, name));
    await this.fs.deleteDirectory(this.tableDirectory(schema, name));
  }

  /** Where a new managed table's files go: below the schema's location, else its metadata folder. */
  managedLocation(schema: LakeSchema, table: string): string {
    return schema.location === undefined ? this.tableDirectory(schema.name, table) : childLocation(schema.location, `${table}/`);
  }

  /** Writes the table's entry; fails when the schema has a table of that name. */
  async createTable(table: LakeTable): Promise<void> {
    checkName(table.name, 'table');
    const created = await this.fs.createExclusive(this.tableFile(table.schema, table.name), toJsonBytes(tableJson(table)));
    if (!created) throw new EngineError('ALREADY_EXISTS', `Table '${this.catalog}.${table.schema}.${table.name}' already exists`);
  }

  /** Removes the table's entry, then its metadata folder (commits included). */
  async dropTable(table: LakeTable): Promise<void> {
    await this.fs.deleteFile(this.tableFile(table.schema, table.name));
    await this.fs.deleteDirectory(this.tableDirectory(table.schema, table.name));
  }

  /** The folder of a table's entry and its commits. */
  tableDirectory(schema: string, table: string): string {
    return childLocation(this.schemaDirectory(schema), `${table}/`);
  }

  private schemaDirectory(schema: string): string {
    return childLocation(this.catalogDir, `${schema}/`);
  }

  private schemaFile(schema: string): string {
    return childLocation(this.catalogDir, `.${schema}${SCHEMA_SUFFIX}`);
  }

  private tableFile(schema: string, table: string): string {
    return childLocation(this.tableDirectory(schema, table), SCHEMA_SUFFIX);
  }
}

/** Names become folder names: no separators, nothing hidden, nothing that climbs. */
function isValidName(name: string): boolean {
  return name.length > 0 && name.length <= 128 && !/[/\\]/.test(name) && !name.startsWith('.') && !name.startsWith('_');
}

function checkName(name: string, what: 'schema' | 'table'): void {
  if (!isValidName(name))
    throw new EngineError(
      'NOT_SUPPORTED',
      `Invalid ${what} name '${name}': a lake ${what} name is a folder name (1 to 128 characters, no '/' or '\\', not starting with '.' or '_')`,
    );
}
