// VARIANT through the client protocol as Trino's JsonEncodingUtils and ProtocolUtil send it, by the
// client's declared capabilities: none (trino-client, the CLI) -> a json column of JSON text strings;
// VARIANT -> a variant column of JSON values; VARIANT_BINARY -> a variant column of
// {"metadata", "value"} base64 parts of the Parquet Variant encoding. Inside arrays the same.

import { expect } from 'chai';
import { runStatement } from '../support/statement-http.js';
import { trinoClientServer } from '../support/trino-client-server.js';
import { decodeVariant } from '../../src/types/variant/variant-encoding.js';
import { variantFromJson } from '../../src/types/variant/variant-json.js';

const SQL = `SELECT CAST(JSON '{"b": [1, 2.5], "a": "x"}' AS VARIANT) AS v, ARRAY[CAST(JSON 'null' AS VARIANT), NULL] AS a`;
const VARIANT_SIGNATURE = { rawType: 'variant', arguments: [] };

describe('VARIANT to clients', function () {
  this.timeout(60_000);
  const server = trinoClientServer();

  it('sends a client without the capability json text in a json column (trino-client decodes it)', async () => {
    const { columns, rows } = await server.collect(SQL);
    expect(columns).to.deep.equal([
      { name: 'v', type: 'json', typeSignature: { rawType: 'json', arguments: [] } },
      {
        name: 'a',
        type: 'array(json)',
        typeSignature: { rawType: 'array', arguments: [{ kind: 'TYPE', value: { rawType: 'json', arguments: [] } }] },
      },
    ]);
    expect(rows).to.deep.equal([['{"a":"x","b":[1,2.5]}', ['null', null]]]);
  });

  it('sends a client declaring VARIANT the JSON itself in a variant column', async () => {
    const run = await runStatement(server.uri, SQL, {
      'X-Trino-User': 'test',
      'X-Trino-Client-Capabilities': 'PARAMETRIC_DATETIME,VARIANT',
    });
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => [c.type, c.typeSignature])).to.deep.equal([
      ['variant', VARIANT_SIGNATURE],
      ['array(variant)', { rawType: 'array', arguments: [{ kind: 'TYPE', value: VARIANT_SIGNATURE }] }],
    ]);
    expect(run.rows).to.deep.equal([[{ a: 'x', b: [1, 2.5] }, [null, null]]]);
  });

  it('sends a client declaring VARIANT_BINARY the encoding, metadata and value apart, in base64', async () => {
    const run = await runStatement(server.uri, SQL, { 'X-Trino-User': 'test', 'X-Trino-Client-Capabilities': 'VARIANT,VARIANT_BINARY' });
    expect(run.columns?.[0].type).to.equal('variant');
    const [[v, a]] = run.rows as [[{ metadata: string; value: string }, ({ metadata: string; value: string } | null)[]]];
    expect(Object.keys(v)).to.deep.equal(['metadata', 'value']);
    const bytes = Buffer.concat([Buffer.from(v.metadata, 'base64'), Buffer.from(v.value, 'base64')]);
    expect(decodeVariant(new Uint8Array(bytes))).to.deep.equal(variantFromJson('{"a": "x", "b": [1, 2.5]}'));
    // A variant null is a value (a null primitive, with Trino's empty metadata), a SQL NULL is null.
    expect([Buffer.from(a[0]!.metadata, 'base64'), Buffer.from(a[0]!.value, 'base64')]).to.deep.equal([
      Buffer.from([1, 0, 0]),
      Buffer.from([0]),
    ]);
    expect(a[1]).to.equal(null);
  });
});
