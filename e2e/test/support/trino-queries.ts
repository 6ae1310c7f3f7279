// Queries through the coordinator's Service with the real trino-client, as a user's program sends
// them: one run's rows or its failure, and clients running a set of queries in a loop, counting every
// query that failed or answered wrong.
import { expect } from 'chai';
import { Trino, type ConnectionOptions } from 'trino-client';
import type { ReferenceQuery } from './tpch-reference.js';

export type Outcome = { rows: unknown[][] } | { error: string };

/** How a client connects beyond the server's address: credentials (auth, or a bearer token in extraHeaders) and the CA it trusts (ssl). */
export type ClientSecurity = Pick<ConnectionOptions, 'auth' | 'ssl' | 'extraHeaders'>;

export async function runQuery(server: string, sql: string, security: ClientSecurity = {}): Promise<Outcome> {
  try {
    const trino = Trino.create({ server, catalog: 'tpch', schema: 'tiny', source: 'e2e-operator', ...security });
    const rows: unknown[][] = [];
    for await (const result of await trino.query(sql)) {
      if (result.error) return { error: `${result.error.errorName}: ${result.error.message}` };
      rows.push(...(result.data ?? []));
    }
    return { rows };
  } catch (err) {
    return { error: `request failed: ${(err as Error).message}` };
  }
}

export async function expectAnswer(server: string, q: ReferenceQuery, security: ClientSecurity = {}): Promise<void> {
  const outcome = await runQuery(server, q.sql, security);
  if ('error' in outcome) throw new Error(`${q.name} failed: ${outcome.error}`);
  expect(outcome.rows, q.name).to.deep.equal(q.expected);
}

export interface LoadReport {
  run: number;
  failures: string[];
}

/** `clients` loops of the queries, until stop() (each finishes the query it runs). */
export function queryLoad(server: string, queries: ReferenceQuery[], clients: number, security: ClientSecurity = {}) {
  let stopping = false;
  const report: LoadReport = { run: 0, failures: [] };
  const loops = Array.from({ length: clients }, async (_, c) => {
    for (let i = c; !stopping; i++) {
      const q = queries[i % queries.length];
      const outcome = await runQuery(server, q.sql, security);
      report.run++;
      if ('error' in outcome) report.failures.push(`${q.name}: ${outcome.error}`);
      else if (JSON.stringify(outcome.rows) !== JSON.stringify(q.expected))
        report.failures.push(`${q.name}: wrong answer ${JSON.stringify(outcome.rows).slice(0, 200)}`);
    }
  });
  return {
    report,
    async stop(): Promise<LoadReport> {
      stopping = true;
      await Promise.all(loops);
      return report;
    },
  };
}
