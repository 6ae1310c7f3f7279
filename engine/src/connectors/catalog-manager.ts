// The catalogs of a server by name. Every catalog is served through the information_schema wrapper,
// so `information_schema` exists in each of them.

import { EngineError } from '../errors/engine-error.js';
import type { Connector } from '../spi/connector.js';
import { InformationSchemaConnector } from './information-schema/information-schema-connector.js';

export class CatalogManager {
  private readonly catalogs = new Map<string, Connector>();

  /** Catalog names are case-insensitive and kept in lower case. */
  register(name: string, connector: Connector): void {
    const key = name.toLowerCase();
    if (this.catalogs.has(key)) throw new EngineError('ALREADY_EXISTS', `Catalog '${key}' already exists`);
    this.catalogs.set(key, new InformationSchemaConnector(key, connector));
  }

  get(name: string): Connector | undefined {
    return this.catalogs.get(name.toLowerCase());
  }

  /** Registered catalog names, sorted. */
  names(): string[] {
    return [...this.catalogs.keys()].sort();
  }
}
