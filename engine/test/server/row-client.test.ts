// Rows through the client protocol as Trino sends them (JsonEncodingUtils' RowEncoder): a row is a
// JSON array of its fields' own JSON forms, a NULL row is null; the column's type names the fields
// unquoted and its typeSignature carries one NAMED_TYPE per field (a null fieldName for an anonymous
// one), as Trino's ProtocolUtil writes them. trino-client decodes them as it decodes Trino's.

import { expect } from 'chai';
import { trinoClientServer } from '../support/trino-client-server.js';

describe('rows through trino-client', function () {
  this.timeout(60_000);
  const server = trinoClientServer();
  const collect = server.collect;

  const INTEGER = { rawType: 'integer', arguments: [] };

  it('sends named and anonymous fields as NAMED_TYPE arguments, values as JSON arrays', async () => {
    const { columns, rows } = await collect(
      "SELECT CAST(ROW(1, 'a') AS ROW(x integer, y varchar(3))) AS r, ROW(1, NULL) AS anon, ROW(ARRAY[ROW(2.5)]) AS nested",
    );
    expect(columns).to.deep.equal([
      {
        name: 'r',
        type: 'row(x integer, y varchar(3))',
        typeSignature: {
          rawType: 'row',
          arguments: [
            { kind: 'NAMED_TYPE', value: { fieldName: { name: 'x' }, typeSignature: INTEGER } },
            {
              kind: 'NAMED_TYPE',
              value: { fieldName: { name: 'y' }, typeSignature: { rawType: 'varchar', arguments: [{ kind: 'LONG', value: 3 }] } },
            },
          ],
        },
      },
      {
        name: 'anon',
        type: 'row(integer, unknown)',
        typeSignature: {
          rawType: 'row',
          arguments: [
            { kind: 'NAMED_TYPE', value: { fieldName: null, typeSignature: INTEGER } },
            { kind: 'NAMED_TYPE', value: { fieldName: null, typeSignature: { rawType: 'unknown', arguments: [] } } },
          ],
        },
      },
      {
        name: 'nested',
        type: 'row(array(row(decimal(2,1))))',
        typeSignature: {
          rawType: 'row',
          arguments: [
            {
              kind: 'NAMED_TYPE',
              value: {
                fieldName: null,
                typeSignature: {
                  rawType: 'array',
                  arguments: [
                    {
                      kind: 'TYPE',
                      value: {
                        rawType: 'row',
                        arguments: [
                          {
                            kind: 'NAMED_TYPE',
                            value: {
                              fieldName: null,
                              typeSignature: {
                                rawType: 'decimal',
                                arguments: [
                                  { kind: 'LONG', value: 2 },
                                  { kind: 'LONG', value: 1 },
                                ],
                              },
                            },
                          },
                        ],
                      },
                    },
                  ],
                },
              },
            },
          ],
        },
      },
    ]);
    expect(rows).to.deep.equal([[[1, 'a'], [1, null], [[['2.5']]]]]);
  });

  it('writes bigint fields beyond 2^53 with their exact digits', async () => {
    const first = await fetch(`${server.uri}/v1/statement`, {
      method: 'POST',
      body: "SELECT ROW(BIGINT '9007199254740993', DATE '2024-02-29')",
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
    expect(text).to.contain('"data":[[[9007199254740993,"2024-02-29"]]]');
  });

  it('stores rows in a memory table and reads them back, NULL rows as null', async () => {
    await collect('CREATE TABLE memory.default.client_rows (id bigint, r row(name varchar, tags array(varchar)))');
    await collect("INSERT INTO memory.default.client_rows VALUES (1, ROW('a', ARRAY['t', NULL])), (2, NULL), (3, ROW(NULL, ARRAY[]))");
    const { rows } = await collect('SELECT id, r, r.name FROM memory.default.client_rows ORDER BY id');
    expect(rows).to.deep.equal([
      [1, ['a', ['t', null]], 'a'],
      [2, null, null],
      [3, [null, []], null],
    ]);
  });
});
