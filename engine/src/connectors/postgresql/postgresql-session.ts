// The session properties of a postgresql catalog (`SET SESSION pg.aggregation_pushdown_enabled =
// false`), named as Trino's JDBC connectors name theirs where Trino has them; their defaults come
// from the catalog's properties.

import type { PropertyMetadata } from '../../spi/properties.js';
import type { Session } from '../../spi/session.js';
import type { PostgresConfig } from './postgresql-config.js';

export interface PostgresSessionSettings {
  filter_pushdown_enabled: boolean;
  limit_pushdown_enabled: boolean;
  topn_pushdown_enabled: boolean;
  aggregation_pushdown_enabled: boolean;
  split_count: number;
}

const BOOLEAN = { kind: 'boolean' } as const;
const INTEGER = { kind: 'integer' } as const;

const positive = (value: unknown) => {
  if (typeof value !== 'number' || value < 1) throw new Error('must be at least 1');
};

export function postgresSessionProperties(config: PostgresConfig): PropertyMetadata[] {
  const defaults = settingDefaults(config);
  return [
    {
      name: 'aggregation_pushdown_enabled',
      description: "Compute count, sum, min, max and avg (with GROUP BY) in PostgreSQL where its result is exactly the engine's",
      type: BOOLEAN,
      defaultValue: defaults.aggregation_pushdown_enabled,
    },
    {
      name: 'topn_pushdown_enabled',
      description: "Let PostgreSQL sort and cut ORDER BY ... LIMIT where its order is the engine's",
      type: BOOLEAN,
      defaultValue: defaults.topn_pushdown_enabled,
    },
    {
      name: 'filter_pushdown_enabled',
      description: 'Let PostgreSQL evaluate the WHERE conjuncts it evaluates exactly as the engine does',
      type: BOOLEAN,
      defaultValue: defaults.filter_pushdown_enabled,
    },
    {
      name: 'limit_pushdown_enabled',
      description: 'Let PostgreSQL stop after LIMIT rows',
      type: BOOLEAN,
      defaultValue: defaults.limit_pushdown_enabled,
    },
    {
      name: 'split_count',
      description: 'Key ranges a table with an integer primary key is read in, by as many tasks at once (1: one split per table)',
      type: INTEGER,
      defaultValue: defaults.split_count,
      validate: positive,
    },
  ];
}

function settingDefaults(config: PostgresConfig): PostgresSessionSettings {
  return {
    filter_pushdown_enabled: true,
    limit_pushdown_enabled: true,
    topn_pushdown_enabled: config.topNPushdown,
    aggregation_pushdown_enabled: config.aggregationPushdown,
    split_count: config.splitCount,
  };
}

/** The settings of this session for catalog `catalog` (its values as SET SESSION left them, else the defaults). */
export function sessionSettings(session: Session, catalog: string, config: PostgresConfig): PostgresSessionSettings {
  const settings = settingDefaults(config);
  const value = (name: keyof PostgresSessionSettings) => session.properties.get(`${catalog}.${name}`);
  for (const name of [
    'filter_pushdown_enabled',
    'limit_pushdown_enabled',
    'topn_pushdown_enabled',
    'aggregation_pushdown_enabled',
  ] as const) {
    const text = value(name);
    if (text !== undefined) settings[name] = text.toLowerCase() === 'true';
  }
  const splits = value('split_count');
  if (splits !== undefined) settings.split_count = Number(splits);
  return settings;
}
