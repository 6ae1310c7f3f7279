// The engine tests' throwaway PostgreSQL server (engine/test/support/postgres-server.ts: initdb in a
// temporary folder, a loopback port, password authentication), loaded from the engine's build so
// that both suites start it the same way.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../src/kubelet/images.js';

export interface ThrowawayPostgres {
  readonly port: number;
  /** jdbc:postgresql://127.0.0.1:PORT/postgres */
  readonly connectionUrl: string;
  sql(text: string, parameters?: unknown[]): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

interface PostgresServerClass {
  readonly user: string;
  readonly password: string;
  start(): Promise<ThrowawayPostgres>;
}

/** Starts a server; its superuser and password are returned with it. */
export async function startPostgres(): Promise<{ server: ThrowawayPostgres; user: string; password: string }> {
  const file = path.join(repoRoot, 'engine', 'dist', 'test', 'support', 'postgres-server.js');
  const { PostgresServer } = (await import(pathToFileURL(file).href)) as { PostgresServer: PostgresServerClass };
  return { server: await PostgresServer.start(), user: PostgresServer.user, password: PostgresServer.password };
}
