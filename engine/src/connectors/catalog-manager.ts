// The catalogs of a server by name. Every catalog is served through the information_schema wrapper,
// so `information_schema` exists in each of them.

import { EngineError } from '../errors/engine-error.js';
import type { Connector } from '../spi/connector.js';
import { InformationSchemaConnector } from './information-schema/information-schema-connector.js';
import type { FileAccessControl } from '../security/access-control/file-access-control.js';
import { NO_SQL_ENVIRONMENT, type SqlEnvironment } from '../config/sql-environment.js';
import { TABLE_FUNCTION_CATALOG, TableFunctionConnector } from './table-functions/sequence-connector.js';

/** Every server's (unlisted) catalog of the built-in table functions' generated rows. */
const TABLE_FUNCTIONS = new TableFunctionConnector();

export class CatalogManager {
  private readonly catalogs = new Map<string, Connector>();
  /** The access rules statements over these catalogs are checked against; none: everyone may do everything. */
  accessControl: FileAccessControl | undefined;
  /** Where routines named without catalog and schema are stored and found (the server's `sql` settings). */
  sqlEnvironment: SqlEnvironment = NO_SQL_ENVIRONMENT;

  /** Catalog names are case-insensitive and kept in lower case. */
  register(name: string, connector: Connector): void {
    const key = name.toLowerCase();
    if (this.catalogs.has(key) || key === TABLE_FUNCTION_CATALOG)
      throw new EngineError('ALREADY_EXISTS', `Catalog '${key}' already exists`);
    this.catalogs.set(key, new InformationSchemaConnector(key, connector, () => this.accessControl));
  }

  get(name: string): Connector | undefined {
    return name === TABLE_FUNCTION_CATALOG ? TABLE_FUNCTIONS : this.catalogs.get(name.toLowerCase());
  }

  /** Registered catalog names, sorted. */
  names(): string[] {
    return [...this.catalogs.keys()].sort();
  }
}
