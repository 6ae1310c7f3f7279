// timestamp(p) and time(p) above precision 6 through the client protocol as Trino sends them: the
// column's type with its LONG precision argument and every fraction digit in the value
// ('2020-01-01 12:34:56.123456789012'); a memory table stores and returns them exactly.

import { expect } from 'chai';
import { Trino } from 'trino-client';
import { ServerProcess } from '../support/server-process.js';

describe('timestamp(p) and time(p) above precision 6 through trino-client', function () {
  this.timeout(60_000);
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start();
  });
  after(async () => {
    await server.stop();
  });

  async function collect(sql: string) {
    const trino = Trino.create({ server: server.uri, catalog: 'memory', schema: 'default' });
    const results = [];
    for await (const result of await trino.query(sql)) results.push(result);
    const error = results.find((r) => r.error)?.error;
    if (error) throw new Error(error.message);
    return { columns: results.find((r) => r.columns)?.columns ?? [], rows: results.flatMap((r) => r.data ?? []) };
  }

  const column = (name: string, rawType: string, p: number) => ({
    name,
    type: `${rawType}(${p})`,
    typeSignature: { rawType, arguments: [{ kind: 'LONG', value: p }] },
  });

  it('sends the type with its precision and the values with every digit', async () => {
    const { columns, rows } = await collect(
      "SELECT TIMESTAMP '2020-01-01 12:34:56.123456789012' AS a, TIMESTAMP '1969-12-31 23:59:59.9999999' AS b, TIME '23:59:59.123456789' AS c, ARRAY[TIMESTAMP '2020-01-01 00:00:00.0000000001'] AS d",
    );
    expect(columns.slice(0, 3)).to.deep.equal([column('a', 'timestamp', 12), column('b', 'timestamp', 7), column('c', 'time', 9)]);
    expect(rows).to.deep.equal([
      ['2020-01-01 12:34:56.123456789012', '1969-12-31 23:59:59.9999999', '23:59:59.123456789', ['2020-01-01 00:00:00.0000000001']],
    ]);
  });

  it('stores them in a memory table and reads them back exactly', async () => {
    await collect('CREATE TABLE memory.default.client_long_plain (id bigint, t timestamp(9), x time(12))');
    await collect(
      "INSERT INTO memory.default.client_long_plain VALUES (1, TIMESTAMP '2024-02-29 23:59:59.999999999', TIME '00:00:00.000000000001'), (2, NULL, NULL), (3, TIMESTAMP '2024-02-29 23:59:59.9999999995', TIME '01:02:03')",
    );
    const { rows } = await collect('SELECT id, t, x FROM memory.default.client_long_plain ORDER BY id');
    expect(rows).to.deep.equal([
      [1, '2024-02-29 23:59:59.999999999', '00:00:00.000000000001'],
      [2, null, null],
      // INSERT rounds to the column's precision, half up
      [3, '2024-03-01 00:00:00.000000000', '01:02:03.000000000000'],
    ]);
  });
});
