// The session properties a coordinator knows: its system properties (with the node's defaults) and
// each catalog's (`catalog.name`, as the connector declares them). SET SESSION, RESET SESSION, the
// Session header and SHOW SESSION all go through here, so a name or value one of them refuses is
// refused by all, with Trino's errors.

import type { CatalogManager } from '../connectors/catalog-manager.js';
import { EngineError, type SourceLocation } from '../errors/engine-error.js';
import type { Scalar } from '../types/scalar.js';
import type { PropertyMetadata } from '../spi/properties.js';
import { systemSessionProperties, type NodeSessionDefaults } from './system-session-properties.js';
import type { Session } from '../spi/session.js';
import { typeName } from '../types/types.js';

/** One row of SHOW SESSION. */
export interface SessionPropertyValue {
  name: string;
  value: string;
  defaultValue: string;
  type: string;
  description: string;
}

export class SessionPropertyManager {
  private readonly system: readonly PropertyMetadata[];

  constructor(
    private readonly catalogs: CatalogManager,
    defaults: NodeSessionDefaults,
  ) {
    this.system = systemSessionProperties(defaults);
  }

  /** The property `name` (`property` or `catalog.property`) refers to; fails when there is none. */
  metadata(name: string, location?: SourceLocation): PropertyMetadata {
    const parts = name.split('.');
    if (parts.length === 1) return this.find(this.system, name, location);
    if (parts.length > 2) throw new EngineError('INVALID_SESSION_PROPERTY', `Invalid session property '${name}'`, location);
    const [catalog, property] = parts as [string, string];
    const connector = this.catalogs.get(catalog);
    if (!connector) throw new EngineError('CATALOG_NOT_FOUND', `Catalog '${catalog}' not found`, location);
    return this.find(connector.properties?.session ?? [], property, location, name);
  }

  /** Checks a value given as text (the Session header); returns it as the session keeps it. */
  validateText(name: string, text: string): string {
    const metadata = this.metadata(name);
    try {
      const value = parseText(text, metadata);
      metadata.validate?.(value);
      return metadata.type.kind === 'boolean' ? String(value) : text;
    } catch (e) {
      throw new EngineError('INVALID_SESSION_PROPERTY', `Invalid value for session property '${name}': ${(e as Error).message}`);
    }
  }

  /** SHOW SESSION: every system property, then every catalog's, each with the session's value or its default. */
  values(session: Session): SessionPropertyValue[] {
    const row = (name: string, p: PropertyMetadata): SessionPropertyValue => {
      const defaultValue = p.defaultValue === undefined || p.defaultValue === null ? '' : String(p.defaultValue);
      return {
        name,
        value: session.properties.get(name) ?? defaultValue,
        defaultValue,
        type: typeName(p.type),
        description: p.description,
      };
    };
    const rows = byName(this.system).map((p) => row(p.name, p));
    for (const catalog of this.catalogs.names()) {
      const declared = this.catalogs.get(catalog)?.properties?.session ?? [];
      rows.push(...byName(declared).map((p) => row(`${catalog}.${p.name}`, p)));
    }
    return rows;
  }

  private find(declared: readonly PropertyMetadata[], property: string, location?: SourceLocation, fullName = property): PropertyMetadata {
    const metadata = declared.find((p) => p.name === property);
    if (!metadata) throw new EngineError('INVALID_SESSION_PROPERTY', `Session property '${fullName}' does not exist`, location);
    return metadata;
  }
}

function byName(properties: readonly PropertyMetadata[]): PropertyMetadata[] {
  return [...properties].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const INTEGER_RANGE = { integer: [-(2n ** 31n), 2n ** 31n - 1n], bigint: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

/** A header value as the property's type (Trino's deserializeSessionProperty), stricter about booleans. */
function parseText(text: string, metadata: PropertyMetadata): Scalar {
  switch (metadata.type.kind) {
    case 'boolean':
      if (!/^(true|false)$/i.test(text)) throw new Error(`'${text}' is not a boolean`);
      return text.toLowerCase() === 'true';
    case 'integer':
    case 'bigint': {
      const [low, high] = INTEGER_RANGE[metadata.type.kind];
      if (!/^-?\d+$/.test(text) || BigInt(text) < low || BigInt(text) > high)
        throw new Error(`'${text}' is not ${metadata.type.kind === 'integer' ? 'an integer' : 'a bigint'}`);
      return metadata.type.kind === 'integer' ? Number(text) : BigInt(text);
    }
    case 'double': {
      const value = Number(text);
      if (text.trim() === '' || Number.isNaN(value)) throw new Error(`'${text}' is not a double`);
      return value;
    }
    case 'varchar':
      return text;
  }
}
