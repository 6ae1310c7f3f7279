// The metadata one statement reads, loaded before it is analyzed. Connectors answer metadata calls
// asynchronously (a metastore, a database, object storage may be behind them) while analysis and
// planning are synchronous: what the statement names is loaded first, analysis reads it from here,
// and a name it did not foresee ends analysis with a MetadataMiss, is loaded, and analysis runs again.

import { tableFunctionStatistics } from '../../connectors/table-functions/table-function-explain.js';
import type { CatalogManager } from '../../connectors/catalog-manager.js';
import { EngineError, locatedAt, type SourceLocation } from '../../errors/engine-error.js';
import type { Connector, TableMetadata, TableStatistics } from '../../spi/connector.js';
import type { Session } from '../../spi/session.js';
import type { ViewDefinition } from '../../spi/view.js';
import type * as ast from '../parser/ast.js';
import { qualifiedObjectName, type QualifiedObjectName } from './qualified-name.js';
import { tableReferences } from './table-references.js';
import { RelationReads } from '../../security/access-control/relation-reads.js';
import type { RoutineScope } from '../routines/routine-scope.js';
import { loadViewRoutines } from '../routines/view-routines.js';

/** Analysis needs a table that is not loaded yet: load it and analyze again. */
export class MetadataMiss extends Error {
  constructor(
    readonly table: QualifiedObjectName,
    readonly location: SourceLocation | undefined,
  ) {
    super(`metadata of ${table.catalog}.${table.schema}.${table.name} not loaded`);
  }
}

/** A loaded answer, or the error the connector gave (raised when, and only if, analysis asks for it). */
type Loaded<T> = { value: T } | { error: unknown };

/** Loads after which analysis still misses: more means a name that loading never settles. */
const MAX_RELOADS = 10_000;

/** What one statement loaded, shared by the metadata of the views it reads (each resolves names in its own catalog and schema). */
class LoadedMetadata {
  readonly schemas = new Map<string, Loaded<boolean>>();
  readonly tables = new Map<string, Loaded<TableMetadata | undefined>>();
  /** Views, loaded for names that are not tables. */
  readonly views = new Map<string, Loaded<ViewDefinition | undefined>>();
  readonly statistics = new Map<string, TableStatistics | undefined>();
  /** Loads under way or done, so that a name mentioned twice is loaded once. */
  readonly loading = new Map<string, Promise<void>>();
  readonly schemaLoading = new Map<string, Promise<Loaded<boolean>>>();
  /** The catalog routines each loaded view calls (routines/view-routines.ts). */
  readonly viewRoutines = new Map<string, RoutineScope | undefined>();
  /** The tables and views analysis read (for access checks). */
  readonly reads = new RelationReads();
}

export class StatementMetadata {
  private readonly schemas: Map<string, Loaded<boolean>>;
  private readonly tables: Map<string, Loaded<TableMetadata | undefined>>;
  private readonly views: Map<string, Loaded<ViewDefinition | undefined>>;
  private readonly statistics: Map<string, TableStatistics | undefined>;
  private readonly loading: Map<string, Promise<void>>;
  private readonly schemaLoading: Map<string, Promise<Loaded<boolean>>>;

  constructor(
    readonly catalogs: CatalogManager,
    readonly session: Session,
    private readonly loaded: LoadedMetadata = new LoadedMetadata(),
  ) {
    ({
      schemas: this.schemas,
      tables: this.tables,
      views: this.views,
      statistics: this.statistics,
      loading: this.loading,
      schemaLoading: this.schemaLoading,
    } = loaded);
  }

  /** The tables and views the analysis of this statement read, for access checks. */
  get reads(): RelationReads {
    return this.loaded.reads;
  }

  /** The same loaded metadata, resolving unqualified names in `catalog` and `schema` (a view's query's). */
  inContext(catalog: string | undefined, schema: string | undefined): StatementMetadata {
    const session: Session = { ...this.session, catalog, schema };
    return new StatementMetadata(this.catalogs, session, this.loaded);
  }

  /** The view `name` refers to when it is not a table (resolveTable answered undefined); undefined when there is none. */
  resolveView(name: ast.QualifiedName): ViewDefinition | undefined {
    const q = qualifiedObjectName(name, this.session);
    return this.views.get(tableKey(q)) === undefined ? undefined : this.answer(this.views, tableKey(q), q, name.location);
  }

  /** The catalog routines the view `name` (resolved by resolveView) calls; undefined when it calls none. */
  viewRoutines(name: QualifiedObjectName): RoutineScope | undefined {
    return this.loaded.viewRoutines.get(tableKey(name));
  }

  /** resolveView, loading the name first: for statements that are not analyzed. */
  async view(name: ast.QualifiedName): Promise<ViewDefinition | undefined> {
    await this.loadName(name);
    return (await this.table(name)) === undefined ? this.resolveView(name) : undefined;
  }

  connector(catalog: string, location?: SourceLocation): Connector {
    const connector = this.catalogs.get(catalog);
    if (!connector) throw new EngineError('CATALOG_NOT_FOUND', `Catalog '${catalog}' not found`, location);
    return connector;
  }

  /** The table `name` refers to, undefined when it does not exist; its schema must exist. */
  resolveTable(name: ast.QualifiedName): TableMetadata | undefined {
    const q = qualifiedObjectName(name, this.session);
    this.connector(q.catalog, name.location);
    const schema = this.answer(this.schemas, schemaKey(q), q, name.location);
    if (!schema) throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${q.schema}' does not exist`, name.location);
    return this.answer(this.tables, tableKey(q), q, name.location);
  }

  resolveTableOrFail(name: ast.QualifiedName): TableMetadata {
    const table = this.resolveTable(name);
    if (!table) {
      const q = qualifiedObjectName(name, this.session);
      throw new EngineError('TABLE_NOT_FOUND', `Table '${q.catalog}.${q.schema}.${q.name}' does not exist`, name.location);
    }
    return table;
  }

  /** resolveTable, loading the table first: for statements that are not analyzed (DDL, SHOW). */
  async table(name: ast.QualifiedName): Promise<TableMetadata | undefined> {
    await this.loadName(name);
    return this.resolveTable(name);
  }

  async tableOrFail(name: ast.QualifiedName): Promise<TableMetadata> {
    await this.loadName(name);
    return this.resolveTableOrFail(name);
  }

  /** The table's statistics as loaded with it; undefined when unknown. */
  tableStatistics(table: TableMetadata): TableStatistics | undefined {
    return (
      tableFunctionStatistics(table) ?? this.statistics.get(tableKey({ catalog: table.catalog, schema: table.schema, name: table.name }))
    );
  }

  /** Loads what the statement names, all at once (names it does not use, e.g. CTEs, load as missing). */
  async prefetch(statement: object): Promise<void> {
    await Promise.all(tableReferences(statement).map((name) => this.loadName(name)));
  }

  /** Loads `name` (and its schema), then `analyze`s; names analysis meets that were not loaded are loaded and it runs again. */
  async analyze<T>(statement: object, analyze: () => T): Promise<T> {
    await this.prefetch(statement);
    for (let reloads = 0; ; reloads++) {
      try {
        this.loaded.reads.clear();
        return analyze();
      } catch (e) {
        if (!(e instanceof MetadataMiss) || reloads >= MAX_RELOADS) throw e;
        await this.load(e.table, e.location);
      }
    }
  }

  async loadName(name: ast.QualifiedName): Promise<void> {
    let q: QualifiedObjectName;
    try {
      q = qualifiedObjectName(name, this.session);
    } catch {
      return; // a malformed name: analysis reports it where it is used
    }
    await this.load(q, name.location);
  }

  /** Loads a table, its schema's existence and its statistics (each once); a connector's error is kept for analysis to raise. */
  load(q: QualifiedObjectName, location?: SourceLocation): Promise<void> {
    const key = tableKey(q);
    let loading = this.loading.get(key);
    if (loading === undefined) {
      loading = this.loadTable(q, location);
      this.loading.set(key, loading);
    }
    return loading;
  }

  private async loadTable(q: QualifiedObjectName, location: SourceLocation | undefined): Promise<void> {
    const connector = this.catalogs.get(q.catalog);
    if (connector === undefined) return; // analysis reports the unknown catalog
    const schema = await this.loadSchema(connector, q, location);
    if (!('value' in schema) || !schema.value) return;
    const table = await load(() => connector.getTable(this.session, q.schema, q.name), location);
    this.tables.set(tableKey(q), table);
    if ('value' in table && table.value === undefined && connector.getView !== undefined) {
      const view = await load(() => connector.getView!(this.session, q.schema, q.name), location);
      if ('value' in view && view.value !== undefined)
        this.loaded.viewRoutines.set(tableKey(q), await loadViewRoutines(view.value, this.catalogs, this.session));
      this.views.set(tableKey(q), view);
    }
    if ('value' in table && table.value !== undefined && connector.getTableStatistics !== undefined) {
      const statistics = await load(() => connector.getTableStatistics!(this.session, table.value!), location);
      this.statistics.set(tableKey(q), 'value' in statistics ? statistics.value : undefined);
    }
  }

  private loadSchema(connector: Connector, q: QualifiedObjectName, location: SourceLocation | undefined): Promise<Loaded<boolean>> {
    const key = schemaKey(q);
    let loading = this.schemaLoading.get(key);
    if (loading === undefined) {
      loading = load(() => schemaExists(connector, this.session, q.schema), location).then((answer) => {
        this.schemas.set(key, answer);
        return answer;
      });
      this.schemaLoading.set(key, loading);
    }
    return loading;
  }

  private answer<T>(map: Map<string, Loaded<T>>, key: string, q: QualifiedObjectName, location: SourceLocation | undefined): T {
    const entry = map.get(key);
    if (entry === undefined) throw new MetadataMiss(q, location);
    if ('error' in entry) throw entry.error;
    return entry.value;
  }
}

/** Whether the connector has the schema (listed, or answered for a connector with more than it lists). */
export async function schemaExists(connector: Connector, session: Session, schema: string): Promise<boolean> {
  return connector.schemaExists ? connector.schemaExists(session, schema) : (await connector.listSchemas(session)).includes(schema);
}

function schemaKey(q: QualifiedObjectName): string {
  return JSON.stringify([q.catalog, q.schema]);
}

function tableKey(q: QualifiedObjectName): string {
  return JSON.stringify([q.catalog, q.schema, q.name]);
}

/** A connector's answer, or its error with the position of the name that asked for it. */
function load<T>(call: () => Promise<T>, location: SourceLocation | undefined): Promise<Loaded<T>> {
  return call().then(
    (value) => ({ value }),
    (error: unknown) => ({ error: locatedError(error, location) }),
  );
}

/** An EngineError without a position gets the position of the name that asked for it. */
function locatedError(error: unknown, location: SourceLocation | undefined): unknown {
  try {
    return locatedAt(location, () => {
      throw error;
    });
  } catch (e) {
    return e;
  }
}
