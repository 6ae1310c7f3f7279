// json through the client protocol as Trino sends it: the column type is `json` with no arguments,
// and each value is its stored text as a JSON string (so clients see the text, not a parsed value).
// trino-client decodes it as it decodes Trino's.

import { expect } from 'chai';
import { trinoClientServer } from '../support/trino-client-server.js';

describe('json through trino-client', function () {
  this.timeout(60_000);
  const server = trinoClientServer();

  it('sends json as its text, typeSignature json, NULL as null, inside arrays and maps as text too', async () => {
    const { columns, rows } = await server.collect(
      `SELECT JSON '{"b": [1, 2.50], "a": "x"}' AS j, CAST(NULL AS json) AS n, CAST(JSON '[1, {"k": true}]' AS array(json)) AS a, JSON '"s"' AS s`,
    );
    expect(columns).to.deep.equal([
      { name: 'j', type: 'json', typeSignature: { rawType: 'json', arguments: [] } },
      { name: 'n', type: 'json', typeSignature: { rawType: 'json', arguments: [] } },
      {
        name: 'a',
        type: 'array(json)',
        typeSignature: { rawType: 'array', arguments: [{ kind: 'TYPE', value: { rawType: 'json', arguments: [] } }] },
      },
      { name: 's', type: 'json', typeSignature: { rawType: 'json', arguments: [] } },
    ]);
    expect(rows).to.deep.equal([['{"a":"x","b":[1,2.50]}', null, ['1', '{"k":true}'], '"s"']]);
  });

  it('a json column of a memory table round-trips (stored as Arrow Utf8)', async () => {
    await server.collect('CREATE TABLE memory.default.docs (id integer, doc json)');
    await server.collect(`INSERT INTO memory.default.docs VALUES (1, JSON '{"x": [1, 2]}'), (2, NULL), (3, CAST(ARRAY['q"'] AS json))`);
    const { rows } = await server.collect("SELECT id, doc, json_extract_scalar(doc, '$.x[1]') FROM memory.default.docs ORDER BY id");
    expect(rows).to.deep.equal([
      [1, '{"x":[1,2]}', '2'],
      [2, null, null],
      [3, '["q\\""]', null],
    ]);
  });
});
