// Creates the configured catalogs. One factory per connector kind: adding a connector is one line.

import type { CatalogConfig, ConnectorKind } from '../config/config-schema.js';
import { ConfigError } from '../config/config-error.js';
import { CatalogManager } from '../connectors/catalog-manager.js';
import type { Connector } from '../spi/connector.js';
import { MemoryConnector } from '../connectors/memory/memory-connector.js';
import { postgresConfig } from '../connectors/postgresql/postgresql-config.js';
import { PostgresConnector } from '../connectors/postgresql/postgresql-connector.js';
import type { SystemRuntime } from '../connectors/system/runtime.js';
import { SystemConnector } from '../connectors/system/system-connector.js';
import { tpchProperties } from '../connectors/tpch/tpch-properties.js';
import { TpchConnector } from '../connectors/tpch/tpch-connector.js';
import { HiveConnector } from '../connectors/hive/hive-connector.js';
import { lakeConfig } from '../connectors/hive/hive-config.js';

/** What connectors may need from the server. */
export interface ConnectorServices {
  runtime: SystemRuntime;
}

type ConnectorFactory = (catalog: CatalogConfig, services: ConnectorServices) => Connector;

const FACTORIES: Partial<Record<ConnectorKind, ConnectorFactory>> = {
  memory: (catalog) => new MemoryConnector(withoutProperties(catalog).name),
  system: (catalog, services) => new SystemConnector(services.runtime, withoutProperties(catalog).name),
  tpch: (catalog) => new TpchConnector(catalog.name, tpchProperties(catalog.name, catalog.properties).columnNaming),
  postgresql: (catalog) => new PostgresConnector(catalog.name, postgresConfig(catalog.name, catalog.properties)),
  hive: (catalog) => new HiveConnector(catalog.name, lakeConfig(catalog.name, catalog.properties)),
};

export function createCatalogs(catalogs: readonly CatalogConfig[], services: ConnectorServices): CatalogManager {
  const manager = new CatalogManager();
  for (const catalog of catalogs) {
    const factory = FACTORIES[catalog.connector];
    if (!factory) throw new ConfigError(`Catalog '${catalog.name}': the ${catalog.connector} connector is not available in this version`);
    manager.register(catalog.name, factory(catalog, services));
  }
  return manager;
}

function withoutProperties(catalog: CatalogConfig): CatalogConfig {
  const names = Object.keys(catalog.properties);
  if (names.length > 0)
    throw new ConfigError(`Catalog '${catalog.name}': the ${catalog.connector} connector has no properties (got: ${names.join(', ')})`);
  return catalog;
}
