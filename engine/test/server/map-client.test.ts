// Maps through the client protocol as Trino sends them (JsonEncodingUtils' MapEncoder): the column's
// typeSignature carries the key and value types as two TYPE arguments; a value is a JSON object in
// entry order whose names are the keys as Java prints them (1, 1.5, 1.50, 2024-02-29, true) and
// whose values are encoded by their own type (decimals as strings, nested arrays and maps as JSON).
// trino-client decodes them as it decodes Trino's.

import { expect } from 'chai';
import { trinoClientServer } from '../support/trino-client-server.js';

describe('maps through trino-client', function () {
  this.timeout(60_000);
  const server = trinoClientServer();
  const collect = server.collect;

  it('sends map(K, V) with two TYPE arguments in its signature', async () => {
    const { columns } = await collect("SELECT MAP(ARRAY['a'], ARRAY[1]) AS m");
    expect(columns).to.deep.equal([
      {
        name: 'm',
        type: 'map(varchar(1), integer)',
        typeSignature: {
          rawType: 'map',
          arguments: [
            { kind: 'TYPE', value: { rawType: 'varchar', arguments: [{ kind: 'LONG', value: 1 }] } },
            { kind: 'TYPE', value: { rawType: 'integer', arguments: [] } },
          ],
        },
      },
    ]);
  });

  it('writes each key as Java prints it and each value in its own JSON form', async () => {
    const { rows } = await collect(
      'SELECT MAP(ARRAY[2, 1], ARRAY[1.5, NULL]), MAP(ARRAY[1.5E0, 100E0], ARRAY[true, false]), MAP(ARRAY[1.50], ARRAY[ARRAY[1, 2]]), ' +
        "MAP(ARRAY[DATE '2024-02-29'], ARRAY[MAP(ARRAY['x'], ARRAY[DATE '2024-01-01'])]), MAP(ARRAY[true], ARRAY['t']), map(), CAST(NULL AS map(integer, integer))",
    );
    expect(rows).to.deep.equal([
      [
        { '2': '1.5', '1': null },
        { '1.5': true, '100.0': false },
        { '1.50': [1, 2] },
        { '2024-02-29': { x: '2024-01-01' } },
        { true: 't' },
        {},
        null,
      ],
    ]);
  });

  /** The response text that carries the statement's data, as the server wrote it. */
  async function rawData(sql: string): Promise<string> {
    const first = await fetch(`${server.uri}/v1/statement`, { method: 'POST', body: sql, headers: { 'X-Trino-User': 'test' } });
    let body = (await first.json()) as { nextUri?: string };
    let text = '';
    while (body.nextUri !== undefined) {
      const response = await fetch(body.nextUri);
      text = await response.text();
      if (text.includes('"data"')) break;
      body = JSON.parse(text) as { nextUri?: string };
    }
    return text;
  }

  it('writes bigint keys and values beyond 2^53 with their exact digits', async () => {
    const text = await rawData("SELECT MAP(ARRAY[BIGINT '9007199254740993'], ARRAY[BIGINT '-9007199254740993'])");
    expect(text).to.contain('"data":[[{"9007199254740993":-9007199254740993}]]');
  });

  it("writes the entries in the map's order, integer keys included (a JS object would sort them)", async () => {
    const text = await rawData(
      "SELECT MAP(ARRAY[10, 2, 1], ARRAY['a', 'b', NULL]), map_concat(MAP(ARRAY['x', 'y'], ARRAY[1, 2]), MAP(ARRAY['y', 'w'], ARRAY[3, 4]))",
    );
    expect(text).to.contain('"data":[[{"10":"a","2":"b","1":null},{"y":3,"w":4,"x":1}]]');
  });

  it('stores maps in a memory table and reads them back, NULL maps as null', async () => {
    await collect('CREATE TABLE memory.default.client_maps (id bigint, attrs map(varchar, array(bigint)))');
    await collect("INSERT INTO memory.default.client_maps VALUES (1, MAP(ARRAY['a', 'b'], ARRAY[ARRAY[1], NULL])), (2, NULL), (3, map())");
    const { rows } = await collect("SELECT id, attrs, attrs['a'] FROM memory.default.client_maps WHERE id <> 3 ORDER BY id");
    expect(rows).to.deep.equal([
      [1, { a: [1], b: null }, [1]],
      [2, null, null],
    ]);
    expect((await collect('SELECT attrs FROM memory.default.client_maps WHERE id = 3')).rows).to.deep.equal([[{}]]);
  });
});
