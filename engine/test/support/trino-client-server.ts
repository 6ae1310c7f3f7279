// One engine server for a describe's tests, queried through the trino-client npm package as a
// Trino user would: every result page collected, a query error thrown with its message.

import { Trino } from 'trino-client';
import { ServerProcess } from './server-process.js';

export interface CollectedResult {
  columns: { name: string; type: string; typeSignature?: unknown }[];
  rows: unknown[][];
}

/** Starts a server before the enclosing describe's tests and stops it after; `collect` runs a query on it, `uri` is its address. */
export function trinoClientServer(): {
  readonly uri: string;
  collect(sql: string, extraHeaders?: Record<string, string>): Promise<CollectedResult>;
} {
  let server: ServerProcess | undefined;
  before(async () => {
    server = await ServerProcess.start();
  });
  after(async () => {
    await server?.stop();
  });
  const started = (): ServerProcess => {
    if (server === undefined) throw new Error('the server starts in before()');
    return server;
  };
  return {
    get uri() {
      return started().uri;
    },
    async collect(sql, extraHeaders = {}) {
      const trino = Trino.create({ server: started().uri, catalog: 'memory', schema: 'default', extraHeaders });
      const results = [];
      for await (const result of await trino.query(sql)) results.push(result);
      const error = results.find((r) => r.error)?.error;
      if (error) throw new Error(error.message);
      return {
        columns: (results.find((r) => r.columns)?.columns ?? []) as CollectedResult['columns'],
        rows: results.flatMap((r) => (r.data ?? []) as unknown[][]),
      };
    },
  };
}
