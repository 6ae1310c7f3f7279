// A large result through trino-client, in small responses and in responses of several megabytes,
// decodes to the rows DuckDB holds when loaded with the tpch generator's output (an independent
// path: the generator's .tbl text read by DuckDB), with Trino's encodings: decimals and dates as text.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { Trino } from 'trino-client';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { ServerProcess } from '../support/server-process.js';

const ORDERS_COLUMNS = [
  'o_orderkey',
  'o_custkey',
  'o_orderstatus',
  'o_totalprice',
  'o_orderdate',
  'o_orderpriority',
  'o_clerk',
  'o_shippriority',
  'o_comment',
];

/** Every row through trino-client, and how many responses carried rows. */
async function pull(server: ServerProcess, sql: string): Promise<{ rows: unknown[][]; responses: number; types: string[] }> {
  const trino = Trino.create({ server: server.uri, catalog: 'tpch', schema: 'tiny' });
  const rows: unknown[][] = [];
  let responses = 0;
  let types: string[] = [];
  for await (const result of await trino.query(sql)) {
    if (result.error) throw new Error(result.error.message);
    if (result.columns) types = result.columns.map((c) => c.type);
    if (result.data) {
      responses++;
      rows.push(...result.data);
    }
  }
  return { rows, responses, types };
}

describe('a large result through trino-client', function () {
  this.timeout(300_000);
  let duck: DuckDBConnection;
  let expected: unknown[][];

  before(async () => {
    duck = await duckDbWithTpch('tiny', 1);
    const select = ORDERS_COLUMNS.map((c) => (c === 'o_totalprice' || c === 'o_orderdate' ? `CAST(${c} AS VARCHAR)` : c)).join(', ');
    expected = (await duckRows(duck, `SELECT ${select} FROM orders ORDER BY o_orderkey`)).map((row) =>
      row.map((v) => (typeof v === 'bigint' ? Number(v) : v)),
    );
  });

  for (const [name, args, minResponses] of [
    ['in responses of at most 1,000 rows', ['--results-max-rows', '1000'], 15],
    ['in responses of up to 16 MB', ['--results-max-rows', '1000000', '--results-max-bytes', '16MB'], 1],
  ] as const) {
    it(`equals DuckDB's rows of tpch.tiny.orders ${name}`, async () => {
      const server = await ServerProcess.start([...args]);
      try {
        const { rows, responses, types } = await pull(server, 'SELECT * FROM tpch.tiny.orders');
        expect(types).to.deep.equal([
          'bigint',
          'bigint',
          'varchar(1)',
          'decimal(12,2)',
          'date',
          'varchar(15)',
          'varchar(15)',
          'integer',
          'varchar(79)',
        ]);
        expect(responses).to.be.at.least(minResponses);
        rows.sort((a, b) => (a[0] as number) - (b[0] as number));
        expect(rows).to.have.length(15_000);
        expect(rows).to.deep.equal(expected);
      } finally {
        await server.stop();
      }
    });
  }
});
