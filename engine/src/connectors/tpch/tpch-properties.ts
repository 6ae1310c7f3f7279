// The catalog properties of the tpch connector (today: `tpch.column-naming`, as in Trino), read
// when the server starts.

import { ConfigError } from '../../config/config-error.js';
import { COLUMN_NAMINGS, type ColumnNaming } from './column-naming.js';

export const COLUMN_NAMING_PROPERTY = 'tpch.column-naming';

export interface TpchProperties {
  columnNaming: ColumnNaming;
}

/** Reads a tpch catalog's properties; anything unknown or invalid stops the server with a message naming it. */
export function tpchProperties(catalog: string, properties: Readonly<Record<string, string | number | boolean>>): TpchProperties {
  const unknown = Object.keys(properties).filter((name) => name !== COLUMN_NAMING_PROPERTY);
  if (unknown.length > 0)
    throw new ConfigError(
      `Catalog '${catalog}': unknown tpch connector properties: ${unknown.join(', ')} (known: ${COLUMN_NAMING_PROPERTY})`,
    );
  const value = properties[COLUMN_NAMING_PROPERTY] ?? 'STANDARD';
  // Trino reads the value case-insensitively.
  const naming = String(value).toUpperCase();
  if (!(COLUMN_NAMINGS as readonly string[]).includes(naming)) {
    throw new ConfigError(
      `Catalog '${catalog}': ${COLUMN_NAMING_PROPERTY} must be one of ${COLUMN_NAMINGS.join(', ')}, got '${String(value)}'`,
    );
  }
  return { columnNaming: naming as ColumnNaming };
}
