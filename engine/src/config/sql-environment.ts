// The SQL environment of catalog routines, as Trino's sql.default-function-catalog,
// sql.default-function-schema and sql.path: where CREATE / DROP FUNCTION put a routine named
// without catalog and schema, and the schemas whose routines a call by simple name finds.

import { ConfigError } from './config-error.js';

export interface SqlEnvironment {
  /** `catalog.schema` for routines named without both; undefined: such a name is refused. */
  defaultFunctionSchema?: { catalog: string; schema: string };
  /** Schemas searched, in order, for a routine called by its simple name. */
  path: { catalog: string; schema: string }[];
}

export const NO_SQL_ENVIRONMENT: SqlEnvironment = { path: [] };

/** The configuration section `sql` (published schema). */
export const SQL_ENVIRONMENT_SCHEMA = {
  type: 'object',
  description: 'SQL environment of routines (Trino sql.*)',
  additionalProperties: false,
  properties: {
    defaultFunctionCatalog: {
      type: 'string',
      minLength: 1,
      description:
        'Catalog of routines created or dropped without catalog and schema (with defaultFunctionSchema; Trino sql.default-function-catalog)',
    },
    defaultFunctionSchema: {
      type: 'string',
      minLength: 1,
      description:
        'Schema of routines created or dropped without catalog and schema (with defaultFunctionCatalog; Trino sql.default-function-schema)',
    },
    path: {
      type: 'string',
      description:
        "Comma-separated catalog.schema entries searched for routines called by simple name, e.g. 'example.default' (Trino sql.path)",
    },
  },
} as const;

/** The `sql` section read: both default-function keys or neither, each path entry `catalog.schema`, the default schema on the path. */
export function sqlEnvironment(section: {
  defaultFunctionCatalog?: unknown;
  defaultFunctionSchema?: unknown;
  path?: unknown;
}): SqlEnvironment {
  const catalog = section.defaultFunctionCatalog as string | undefined;
  const schema = section.defaultFunctionSchema as string | undefined;
  if ((catalog === undefined) !== (schema === undefined)) {
    throw new ConfigError("Invalid configuration:\n  'sql.defaultFunctionCatalog' and 'sql.defaultFunctionSchema' must be set together");
  }
  const path = ((section.path as string | undefined) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const parts = entry.split('.');
      if (parts.length !== 2 || parts.some((p) => p === ''))
        throw new ConfigError(`Invalid configuration:\n  'sql.path' entry '${entry}' must be catalog.schema`);
      return { catalog: parts[0].toLowerCase(), schema: parts[1].toLowerCase() };
    });
  if (catalog === undefined || schema === undefined) return { path };
  const defaultFunctionSchema = { catalog: catalog.toLowerCase(), schema: schema.toLowerCase() };
  if (!path.some((p) => p.catalog === defaultFunctionSchema.catalog && p.schema === defaultFunctionSchema.schema)) {
    throw new ConfigError(`Invalid configuration:\n  'sql.path' must contain the default function schema ${catalog}.${schema}`);
  }
  return { defaultFunctionSchema, path };
}
