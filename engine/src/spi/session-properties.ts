// The session properties SET SESSION accepts, with their types, defaults and validation.

import { EngineError, type SourceLocation } from '../errors/engine-error.js';
import type { Session } from './session.js';

export interface SessionPropertyDefinition {
  name: string;
  type: 'varchar' | 'bigint' | 'boolean' | 'integer';
  defaultValue: string;
  description: string;
  /** Throws when the value is not acceptable; returns the normalised value. */
  validate?: (value: string) => string;
}

const DATA_SIZE = /^\d+(\.\d+)?\s*(B|kB|MB|GB|TB|PB)$/;

export const SESSION_PROPERTIES: readonly SessionPropertyDefinition[] = [
  {
    name: 'query_max_memory',
    type: 'varchar',
    defaultValue: '2GB',
    description: 'Maximum amount of memory a query can use',
    validate: (v) => {
      if (!DATA_SIZE.test(v)) throw new Error(`Invalid data size: ${v}`);
      return v;
    },
  },
  { name: 'query_max_execution_time', type: 'varchar', defaultValue: '100.00d', description: 'Maximum execution time of a query' },
  {
    name: 'join_distribution_type',
    type: 'varchar',
    defaultValue: 'AUTOMATIC',
    description: 'Join distribution type (AUTOMATIC, PARTITIONED, BROADCAST)',
    validate: (v) => {
      const upper = v.toUpperCase();
      if (!['AUTOMATIC', 'PARTITIONED', 'BROADCAST'].includes(upper)) throw new Error(`Invalid value: ${v}`);
      return upper;
    },
  },
  { name: 'join_reordering_strategy', type: 'varchar', defaultValue: 'AUTOMATIC', description: 'Join reordering strategy (NONE, ELIMINATE_CROSS_JOINS, AUTOMATIC)' },
  { name: 'task_concurrency', type: 'integer', defaultValue: '2', description: 'Default number of local parallel drivers per task' },
  {
    name: 'parallel_min_splits',
    type: 'integer',
    defaultValue: '2',
    description: 'Minimum number of splits for a table scan to run on worker threads (0 keeps every scan in the main thread)',
    validate: (v) => {
      if (Number(v) < 0) throw new Error('must not be negative');
      return v;
    },
  },
  { name: 'optimize_hash_generation', type: 'boolean', defaultValue: 'true', description: 'Compute hash codes for distribution, joins, and aggregations early' },
  { name: 'enable_dynamic_filtering', type: 'boolean', defaultValue: 'true', description: 'Enable dynamic filtering' },
];

export function sessionPropertyDefinition(name: string, location?: SourceLocation): SessionPropertyDefinition {
  const definition = SESSION_PROPERTIES.find((p) => p.name === name);
  if (!definition) throw new EngineError('INVALID_SESSION_PROPERTY', `Session property '${name}' does not exist`, location);
  return definition;
}

/** Checks and normalises a value for a property; errors name the property. */
export function validateSessionProperty(name: string, value: string, location?: SourceLocation): string {
  const definition = sessionPropertyDefinition(name, location);
  try {
    switch (definition.type) {
      case 'boolean':
        if (!/^(true|false)$/i.test(value)) throw new Error(`'${value}' is not a boolean`);
        value = value.toLowerCase();
        break;
      case 'bigint':
      case 'integer':
        if (!/^-?\d+$/.test(value)) throw new Error(`'${value}' is not an integer`);
        break;
      default:
        break;
    }
    return definition.validate ? definition.validate(value) : value;
  } catch (e) {
    throw new EngineError('INVALID_SESSION_PROPERTY', `Invalid value for session property '${name}': ${(e as Error).message}`, location);
  }
}

/** An integer session property of `session`: its value, or its default. */
export function integerSessionProperty(session: Session, name: string): number {
  return Number(session.properties.get(name) ?? sessionPropertyDefinition(name).defaultValue);
}
