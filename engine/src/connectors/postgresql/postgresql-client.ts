// Connections to one PostgreSQL server (a pool per node), with every failure turned into an engine
// error that names the server, and queries cancelled on the server when the engine stops waiting.

import net from 'node:net';
import pg from 'pg';
import { EngineError } from '../../errors/engine-error.js';
import { serverName, type PostgresConfig } from './postgresql-config.js';

/** Session settings every connection gets: text of values and of literals read the same on every server. */
const SESSION_OPTIONS = [
  'DateStyle=ISO',
  'TimeZone=UTC',
  'standard_conforming_strings=on',
  'IntervalStyle=iso_8601',
  'client_encoding=UTF8',
]
  .map((o) => `-c ${o}`)
  .join(' ');

/** SQLSTATEs with an engine error of their own (Trino's JDBC connectors report the rest as JDBC_ERROR). */
const SQLSTATE_ERRORS: Record<string, 'NUMERIC_VALUE_OUT_OF_RANGE' | 'USER_CANCELED'> = {
  '22003': 'NUMERIC_VALUE_OUT_OF_RANGE',
  '57014': 'USER_CANCELED',
};

const watched = new WeakSet<pg.PoolClient>();

export class PostgresClient {
  readonly server: string;
  private readonly pool: pg.Pool;

  constructor(
    readonly catalog: string,
    config: PostgresConfig,
  ) {
    this.server = serverName(config);
    this.pool = new pg.Pool({
      host: config.host,
      port: config.port,
      database: config.database,
      user: config.user,
      password: config.password,
      max: config.maxConnections,
      options: SESSION_OPTIONS,
      application_name: 'engine',
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 10_000,
      // Idle connections do not keep a node's process alive.
      allowExitOnIdle: true,
    });
    // A pooled connection the server closes while idle: the pool drops it; nothing waits on it.
    this.pool.on('error', () => {});
  }

  /** A connection of its own for `work`, returned to the pool after (closed instead if `work` failed). */
  async withConnection<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.connect();
    try {
      const result = await work(client);
      client.release();
      return result;
    } catch (e) {
      client.release(true);
      throw this.error(e);
    }
  }

  async query<R extends pg.QueryResultRow>(sql: string, parameters: unknown[] = []): Promise<R[]> {
    return this.withConnection(async (client) => (await client.query<R>(sql, parameters)).rows);
  }

  async connect(): Promise<pg.PoolClient> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw this.error(e);
    }
    // A connection lost while in use also fails what runs on it (its query, its COPY stream), which
    // reports it; the client's own 'error' event must not end the process.
    if (!watched.has(client)) {
      watched.add(client);
      client.on('error', () => {});
    }
    return client;
  }

  /** The engine error for a failure talking to the server (an engine error passes as it is). */
  error(e: unknown): EngineError {
    if (e instanceof EngineError) return e;
    const failure = e as Error & { code?: string };
    const name = (failure.code !== undefined && SQLSTATE_ERRORS[failure.code]) || 'JDBC_ERROR';
    const message = failure.message || String(e);
    const cause = failure.code === 'ECONNREFUSED' ? 'connection refused' : message;
    return new EngineError(name, `PostgreSQL server ${this.server} (catalog '${this.catalog}'): ${cause}`);
  }

  /**
   * Asks the server to cancel what `client` runs (PostgreSQL's cancel request, on a connection of
   * its own); resolves once sent or when the server cannot be reached.
   */
  cancel(client: pg.PoolClient): Promise<void> {
    const { processID, secretKey } = client as unknown as { processID: number | null; secretKey: number | null };
    const { host, port } = client as unknown as { host: string; port: number };
    if (processID === null || secretKey === null) return Promise.resolve();
    return new Promise((resolve) => {
      const socket = net.connect({ host, port }, () => {
        const request = Buffer.alloc(16);
        request.writeInt32BE(16, 0);
        request.writeInt32BE(80_877_102, 4);
        request.writeInt32BE(processID, 8);
        request.writeInt32BE(secretKey, 12);
        socket.end(request);
      });
      socket.setTimeout(5_000, () => socket.destroy());
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
