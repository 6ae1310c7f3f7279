import { expect } from 'chai';
import { Client as PrestoClient, type PrestoColumn, type PrestoError, type PrestoStats } from 'presto-client';
import { Trino, type QueryResult } from 'trino-client';
import { ServerProcess } from '../support/server-process.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

async function collect(
  trino: Trino,
  sql: string,
): Promise<{ columns: Array<{ name: string; type: string }>; rows: unknown[][]; results: QueryResult[] }> {
  const results: QueryResult[] = [];
  for await (const result of await trino.query(sql)) results.push(result);
  return { columns: results.find((r) => r.columns)?.columns ?? [], rows: results.flatMap((r) => r.data ?? []), results };
}

function lastError(results: QueryResult[]): QueryResult['error'] {
  return results.find((r) => r.error)?.error;
}

interface PrestoOutcome {
  columns: PrestoColumn[];
  rows: unknown[][];
  stats?: PrestoStats;
  error?: PrestoError;
  queryId?: string;
}

function presto(client: PrestoClient, sql: string, onQueryId?: (id: string) => void): Promise<PrestoOutcome> {
  return new Promise((resolve) => {
    const outcome: PrestoOutcome = { columns: [], rows: [] };
    client.execute({
      query: sql,
      state: (_error, queryId) => {
        if (!outcome.queryId) {
          outcome.queryId = queryId;
          onQueryId?.(queryId);
        }
      },
      columns: (_error, columns) => (outcome.columns = columns),
      data: (_error, data) => outcome.rows.push(...data),
      success: (_error, stats) => resolve({ ...outcome, stats }),
      error: (error) => resolve({ ...outcome, error }),
    });
  });
}

describe('Trino and Presto clients', function () {
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start();
  });
  after(async () => {
    await server.stop();
  });

  describe('trino-client', () => {
    it('reads rows, columns and types', async () => {
      const trino = Trino.create({ server: server.uri, catalog: 'memory', schema: 'default', source: 'trino-client-test' });
      const { columns, rows, results } = await collect(trino, "SELECT 1 AS x, 'a' AS y, DECIMAL '1.50' AS z");
      expect(columns).to.deep.equal([
        { name: 'x', type: 'integer', typeSignature: { rawType: 'integer', arguments: [] } },
        { name: 'y', type: 'varchar(1)', typeSignature: { rawType: 'varchar', arguments: [{ kind: 'LONG', value: 1 }] } },
        {
          name: 'z',
          type: 'decimal(3,2)',
          typeSignature: {
            rawType: 'decimal',
            arguments: [
              { kind: 'LONG', value: 3 },
              { kind: 'LONG', value: 2 },
            ],
          },
        },
      ]);
      expect(rows).to.deep.equal([[1, 'a', '1.50']]);
      expect(results[results.length - 1]!.stats?.state).to.equal('FINISHED');
    });

    it('creates, fills and reads a table', async () => {
      const trino = Trino.create({ server: server.uri, catalog: 'memory', schema: 'default' });
      expect(lastError((await collect(trino, 'CREATE TABLE memory.default.trino_t (id bigint, name varchar)')).results)).to.equal(
        undefined,
      );
      const insert = await collect(trino, "INSERT INTO memory.default.trino_t VALUES (1, 'one'), (2, 'two')");
      expect(insert.results[insert.results.length - 1]).to.include({ updateType: 'INSERT', updateCount: 2 });
      expect((await collect(trino, 'SELECT id, name FROM trino_t ORDER BY id')).rows).to.deep.equal([
        [1, 'one'],
        [2, 'two'],
      ]);
    });

    it('keeps the schema set by USE, the properties set by SET SESSION and the statements added by PREPARE', async () => {
      const trino = Trino.create({ server: server.uri, catalog: 'memory', schema: 'default' });
      await collect(trino, 'CREATE SCHEMA memory.trino_s');
      await collect(trino, 'CREATE TABLE memory.trino_s.answers AS SELECT 42 AS answer');
      expect(lastError((await collect(trino, 'USE memory.trino_s')).results)).to.equal(undefined);
      expect((await collect(trino, 'SELECT answer FROM answers')).rows).to.deep.equal([[42]]);

      await collect(trino, "SET SESSION query_max_execution_time = '3h'");
      const session = await collect(trino, 'SHOW SESSION');
      expect(session.rows.find((r) => r[0] === 'query_max_execution_time')![1]).to.equal('3h');

      expect(lastError((await collect(trino, 'PREPARE add_one FROM SELECT answer + ? FROM answers')).results)).to.equal(undefined);
      expect((await collect(trino, 'EXECUTE add_one USING 1')).rows).to.deep.equal([[43]]);
    });

    it('reports errors with their location', async () => {
      const trino = Trino.create({ server: server.uri, catalog: 'memory', schema: 'default' });
      const error = lastError((await collect(trino, 'SELECT * FROM memory.default.nope')).results)!;
      expect(error).to.include({ errorName: 'TABLE_NOT_FOUND', message: "line 1:15: Table 'memory.default.nope' does not exist" });
    });

    it('cancels a query and reads its info', async () => {
      const trino = Trino.create({ server: server.uri, catalog: 'memory', schema: 'default' });
      const iterator = await trino.query(MILLION_ROWS_SQL);
      const first = await iterator.next();
      const queryId = (first.value as QueryResult).id;
      await trino.cancel(queryId);
      const results: QueryResult[] = [];
      for await (const result of iterator) results.push(result);
      expect(lastError(results)?.errorName).to.equal('USER_CANCELED');
      const info = await trino.queryInfo(queryId);
      expect(info).to.include({ queryId, state: 'FAILED', query: MILLION_ROWS_SQL });
    });
  });

  describe('presto-client', () => {
    for (const engine of ['presto', 'trino'] as const) {
      it(`reads rows, columns and types (${engine} headers)`, async () => {
        const client = new PrestoClient({
          host: '127.0.0.1',
          port: server.port,
          catalog: 'memory',
          schema: 'default',
          user: 'presto-test',
          engine,
          checkInterval: 10,
        });
        const outcome = await presto(client, "SELECT 1 AS x, 'a' AS y, DECIMAL '1.50' AS z");
        expect(outcome.error).to.equal(undefined);
        expect(outcome.columns.map((c) => [c.name, c.type])).to.deep.equal([
          ['x', 'integer'],
          ['y', 'varchar(1)'],
          ['z', 'decimal(3,2)'],
        ]);
        expect(outcome.rows).to.deep.equal([[1, 'a', '1.50']]);
        expect(outcome.stats?.state).to.equal('FINISHED');
      });
    }

    it('sends session properties and prepared statements', async () => {
      const client = new PrestoClient({
        host: '127.0.0.1',
        port: server.port,
        catalog: 'memory',
        schema: 'default',
        user: 'presto-test',
        checkInterval: 10,
      });
      const shown = await new Promise<unknown[][]>((resolve, reject) => {
        const rows: unknown[][] = [];
        client.execute({
          query: 'SHOW SESSION',
          session: 'query_max_execution_time=4h',
          data: (_e, data) => rows.push(...data),
          success: () => resolve(rows),
          error: reject,
        });
      });
      expect(shown.find((r) => r[0] === 'query_max_execution_time')![1]).to.equal('4h');
      const executed = await new Promise<unknown[][]>((resolve, reject) => {
        const rows: unknown[][] = [];
        client.execute({
          query: 'EXECUTE query0 USING 2',
          prepares: ['SELECT ? * 21'],
          data: (_e, data) => rows.push(...data),
          success: () => resolve(rows),
          error: reject,
        });
      });
      expect(executed).to.deep.equal([[42]]);
    });

    it('reports errors, cancels, and lists nodes', async () => {
      const client = new PrestoClient({
        host: '127.0.0.1',
        port: server.port,
        catalog: 'memory',
        schema: 'default',
        user: 'presto-test',
        checkInterval: 10,
      });
      const failed = await presto(client, 'SELECT * FROM memory.default.nope');
      expect(failed.error).to.include({ errorName: 'TABLE_NOT_FOUND', message: "line 1:15: Table 'memory.default.nope' does not exist" });
      const canceled = await presto(client, MILLION_ROWS_SQL, (id) => client.kill(id));
      expect(canceled.error?.errorName).to.equal('USER_CANCELED');
      const nodes = await new Promise<unknown[]>((resolve, reject) =>
        client.nodes((error, list) => (error ? reject(new Error(error.message)) : resolve(list))),
      );
      expect(nodes).to.deep.equal([]);
    });
  });
});
