// A throwaway PostgreSQL server with an in-process engine that has it as catalog `pg` (plus the
// harness's memory and tpch catalogs), and the means to compare answers.

import { PostgresConnector } from '../../src/connectors/postgresql/postgresql-connector.js';
import { postgresConfig } from '../../src/connectors/postgresql/postgresql-config.js';
import type { Scalar } from '../../src/types/scalar.js';
import { EngineHarness } from '../support/engine-harness.js';
import { PostgresServer } from '../support/postgres-server.js';

export interface PgFixture {
  server: PostgresServer;
  engine: EngineHarness;
}

/** Starts the server and the engine; `properties`: more catalog properties. */
export async function startPgFixture(properties: Record<string, string> = {}): Promise<PgFixture> {
  const server = await PostgresServer.start();
  const engine = new EngineHarness();
  engine.catalogs.register('pg', new PostgresConnector('pg', postgresConfig('pg', server.catalogProperties(properties))));
  return { server, engine };
}

/**
 * The fixture for the enclosing describe: started before its tests (then `setupSql` run on the
 * server, and `USE pg.public` in the engine when `usePublic`) and the server stopped after them.
 */
export function withPgFixture(setupSql?: string, options: { usePublic?: boolean } = {}): PgFixture {
  let fixture: PgFixture | undefined;
  const started = (): PgFixture => {
    if (fixture === undefined) throw new Error('the PostgreSQL fixture starts in a before hook of the describe');
    return fixture;
  };
  before(async () => {
    fixture = await startPgFixture();
    if (setupSql !== undefined) await fixture.server.sql(setupSql);
    if (options.usePublic) await fixture.engine.run('USE pg.public');
  });
  after(async () => fixture?.server.stop());
  return {
    get server() {
      return started().server;
    },
    get engine() {
      return started().engine;
    },
  };
}

/** A value in a form that compares exactly: bigints, NaN, -0 and bytes told apart from look-alikes. */
export function canonical(value: Scalar): string {
  if (value === null) return 'NULL';
  if (typeof value === 'bigint') return `${value}`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value instanceof Uint8Array) return `x${Buffer.from(value).toString('hex')}`;
  return JSON.stringify(value);
}

/** Rows as canonical text, sorted unless the order matters. */
export function canonicalRows(rows: readonly Scalar[][], ordered = false): string[] {
  const out = rows.map((r) => r.map(canonical).join(' | '));
  return ordered ? out : out.sort();
}

/** PostgreSQL's rows in the same canonical form: compare them with the engine's rows of a query that casts every column to varchar, as PostgreSQL's casts them to text. */
export function canonicalPgRows(rows: readonly Record<string, unknown>[], ordered = false): string[] {
  const out = rows.map((r) =>
    Object.values(r)
      .map((v) => (v === null ? 'NULL' : JSON.stringify(String(v))))
      .join(' | '),
  );
  return ordered ? out : out.sort();
}

/** A JSON text as Trino's jsonParse makes it canonical (keys sorted, no spaces), by JavaScript's JSON: the expected engine value of a PostgreSQL json or jsonb text. */
export function sortedJson(text: string): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  return JSON.stringify(sorted(JSON.parse(text)));
}
