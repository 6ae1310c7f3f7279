// Arrays through the client protocol as Trino sends them: the column's typeSignature nests the
// element type as a TYPE argument, values are JSON arrays of the elements' own JSON forms (decimals
// as strings, dates as text, NULL elements as null). trino-client decodes them as it decodes Trino's.

import { expect } from 'chai';
import { trinoClientServer } from '../support/trino-client-server.js';

describe('arrays through trino-client', function () {
  this.timeout(60_000);
  const server = trinoClientServer();
  const collect = server.collect;

  it('sends array(T) with a TYPE argument in its signature, nested for array(array(T))', async () => {
    const { columns, rows } = await collect("SELECT ARRAY[1, 2, NULL] AS a, ARRAY[ARRAY['x'], ARRAY[]] AS n, ARRAY[1.5, 2] AS d");
    expect(columns).to.deep.equal([
      {
        name: 'a',
        type: 'array(integer)',
        typeSignature: { rawType: 'array', arguments: [{ kind: 'TYPE', value: { rawType: 'integer', arguments: [] } }] },
      },
      {
        name: 'n',
        type: 'array(array(varchar(1)))',
        typeSignature: {
          rawType: 'array',
          arguments: [
            {
              kind: 'TYPE',
              value: {
                rawType: 'array',
                arguments: [{ kind: 'TYPE', value: { rawType: 'varchar', arguments: [{ kind: 'LONG', value: 1 }] } }],
              },
            },
          ],
        },
      },
      {
        name: 'd',
        type: 'array(decimal(11,1))',
        typeSignature: {
          rawType: 'array',
          arguments: [
            {
              kind: 'TYPE',
              value: {
                rawType: 'decimal',
                arguments: [
                  { kind: 'LONG', value: 11 },
                  { kind: 'LONG', value: 1 },
                ],
              },
            },
          ],
        },
      },
    ]);
    expect(rows).to.deep.equal([
      [
        [1, 2, null],
        [['x'], []],
        ['1.5', '2.0'],
      ],
    ]);
  });

  it('writes bigint elements beyond 2^53 with their exact digits, as Trino writes bigints', async () => {
    const first = await fetch(`${server.uri}/v1/statement`, {
      method: 'POST',
      body: "SELECT ARRAY[BIGINT '9007199254740993', -1]",
      headers: { 'X-Trino-User': 'test' },
    });
    let body = (await first.json()) as { nextUri?: string };
    let text = '';
    while (body.nextUri !== undefined) {
      const response = await fetch(body.nextUri);
      text = await response.text();
      if (text.includes('"data"')) break;
      body = JSON.parse(text) as { nextUri?: string };
    }
    expect(text).to.contain('"data":[[[9007199254740993,-1]]]');
  });

  it('stores arrays in a memory table and reads them back, NULL arrays as null', async () => {
    await collect('CREATE TABLE memory.default.client_arrays (id bigint, tags array(varchar), days array(date))');
    await collect("INSERT INTO memory.default.client_arrays VALUES (1, ARRAY['a', NULL], ARRAY[DATE '2024-02-29']), (2, NULL, ARRAY[])");
    const { rows } = await collect('SELECT id, tags, days FROM memory.default.client_arrays ORDER BY id');
    expect(rows).to.deep.equal([
      [1, ['a', null], ['2024-02-29']],
      [2, null, []],
    ]);
  });
});
