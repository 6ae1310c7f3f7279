// Result rows written straight to JSON bytes (coordinator/json-rows.ts) are byte for byte the text
// the statement responses carried before: each value through resultJsonValue and the whole through
// stringifyJson (JSON.stringify). Every type the engine returns, with nulls and edge values; strings
// of every UTF-16 code unit against JSON.stringify and Buffer's UTF-8.

import { expect } from 'chai';
import { JsonByteWriter } from '../../src/coordinator/json-byte-writer.js';
import { encodeJsonRows } from '../../src/coordinator/json-rows.js';
import { resultJsonValue } from '../../src/coordinator/result-json.js';
import { columnFromScalars, getScalar, type Page } from '../../src/columnar/page.js';
import { stringifyJson } from '../../src/types/exact-json.js';
import type { SqlType } from '../../src/types/types.js';
import { EngineHarness } from '../support/engine-harness.js';

/** The text the responses carried before: rows of resultJsonValue values through stringifyJson, without the outer brackets. */
function previousEncoding(page: Page, types: readonly SqlType[]): string[] {
  const rows: string[] = [];
  for (let r = 0; r < page.rowCount; r++)
    rows.push(stringifyJson(page.columns.map((column, c) => resultJsonValue(getScalar(column, r), types[c]))));
  return rows;
}

function decoded(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Each value of the SELECT list in its own column, with a NULL row after the values. */
const VALUE_COLUMNS: readonly string[] = [
  'true',
  'CAST(-7 AS tinyint)',
  'CAST(-32768 AS smallint)',
  '2147483647',
  '-2147483648',
  'CAST(0 AS bigint)',
  '9007199254740991',
  '-9007199254740991',
  '9007199254740992',
  '-9007199254740993',
  '9223372036854775807',
  '-9223372036854775807 - 1',
  '4294967296',
  '-4294967297',
  'CAST(0.05 AS decimal(12,2))',
  'CAST(-0.05 AS decimal(12,2))',
  'CAST(173665.47 AS decimal(12,2))',
  'CAST(-1 AS decimal(12,2))',
  'CAST(0 AS decimal(5,0))',
  'CAST(123456789012345678 AS decimal(18,0))',
  'CAST(-9007199254740.993 AS decimal(18,3))',
  'CAST(-9007199254740.991 AS decimal(18,3))',
  'CAST(0.000000000000001 AS decimal(15,15))',
  'CAST(9.999999999999999 AS decimal(16,15))',
  'CAST(-0.1234567890123456 AS decimal(17,16))',
  'CAST(100 AS decimal(10,1))',
  'CAST(12345678901234567890.0123456789 AS decimal(38,10))',
  'CAST(1.5 AS double)',
  'CAST(-0.0 AS double)',
  '1e21',
  '5e-324',
  '0.1 + 0.2',
  'nan()',
  'infinity()',
  '-infinity()',
  'CAST(1.1 AS real)',
  'CAST(nan() AS real)',
  "'plain'",
  "''",
  `'quote " backslash \\ tab' || chr(9) || 'nl' || chr(10) || 'cr' || chr(13) || chr(8) || chr(12) || chr(1) || chr(31) || chr(127)`,
  "'é ü 日本 € ' || chr(128512) || chr(8232) || chr(8233)",
  "CAST('ab' AS char(5))",
  "CAST('' AS char(3))",
  "CAST('x' AS varchar(10))",
  'JSON \'{"a":[1,2.5,"x"]}\'',
  "X'00ff10'",
  "DATE '1996-01-02'",
  "DATE '0001-01-01'",
  "DATE '9999-12-31'",
  "DATE '1969-12-31'",
  "TIME '01:02:03.456'",
  "TIMESTAMP '2020-01-02 03:04:05.123'",
  "TIMESTAMP '2020-01-02 03:04:05.123456789'",
  "TIMESTAMP '2020-01-02 03:04:05.123 America/New_York'",
  "TIMESTAMP '2020-01-02 03:04:05.123456789 +05:30'",
  "TIME '01:02:03.456 +02:00'",
  "INTERVAL '3' MONTH",
  "INTERVAL '1 02:03:04.5' DAY TO SECOND",
  "UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59'",
  "IPADDRESS '10.0.0.1'",
  "IPADDRESS '2001:db8::1'",
  'ARRAY[1, NULL, 3]',
  'ARRAY[9007199254740993, 1]',
  "ARRAY['a\"', NULL]",
  "MAP(ARRAY[2, 1], ARRAY['two', 'one'])",
  "MAP(ARRAY['k'], ARRAY[ARRAY[1.5e0]])",
  "CAST(ROW(1, 'x', DATE '2001-02-03') AS ROW(a integer, b varchar, c date))",
  'NULL',
];

describe('result rows as JSON bytes', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  it('writes every type as the responses wrote it before, nulls included', async () => {
    const list = VALUE_COLUMNS.map((sql, i) => `${sql} AS c${i}`).join(', ');
    // The values, then the same columns all NULL (each of its own type: the outer join finds no partner for k = 2).
    const result = await engine.query(`SELECT v.* FROM (VALUES 1, 2) t(k) LEFT JOIN (SELECT 1 AS k, ${list}) v ON v.k = t.k`);
    const columns = result.columns.slice(1);
    const types = columns.map((c) => c.type);
    expect(result.rows).to.have.length(2);
    const page: Page = {
      rowCount: result.rows.length,
      columns: columns.map((c, i) =>
        columnFromScalars(
          c.type,
          result.rows.map((row) => row[i + 1]),
        ),
      ),
    };
    const encoded = encodeJsonRows(page, types);
    const expected = previousEncoding(page, types);
    expect(decoded(encoded.bytes)).to.equal(expected.join(','));
    for (let r = 0; r < page.rowCount; r++) {
      expect(decoded(encoded.bytes.subarray(encoded.rowStarts[r], encoded.rowStarts[r + 1] - 1))).to.equal(expected[r]);
    }
  });

  it('writes the rows of a tpch table as before', async () => {
    const result = await engine.query('SELECT * FROM tpch.tiny.orders');
    const types = result.columns.map((c) => c.type);
    const page: Page = {
      rowCount: result.rows.length,
      columns: result.columns.map((c, i) =>
        columnFromScalars(
          c.type,
          result.rows.map((row) => row[i]),
        ),
      ),
    };
    expect(page.rowCount).to.equal(15_000);
    expect(decoded(encodeJsonRows(page, types).bytes)).to.equal(previousEncoding(page, types).join(','));
  });

  it('writes each column as the output type says when it differs from the column type', () => {
    const page: Page = { rowCount: 2, columns: [columnFromScalars({ kind: 'varchar' }, ['ab', null])] };
    const types = [{ kind: 'char', length: 4 } as const];
    expect(decoded(encodeJsonRows(page, types).bytes)).to.equal(previousEncoding(page, types).join(','));
    expect(decoded(encodeJsonRows(page, types).bytes)).to.equal('["ab  "],[null]');
  });

  it('writes strings of every UTF-16 code unit as JSON.stringify does, in UTF-8', () => {
    const writer = new JsonByteWriter(16);
    const texts: string[] = [];
    for (let start = 0; start < 0x10000; start += 97) {
      let text = '';
      for (let c = start; c < Math.min(start + 97, 0x10000); c++) text += String.fromCharCode(c);
      texts.push(text);
    }
    // Lone surrogates at the start, middle and end, and a pair split across them.
    texts.push('\ud800', 'a\udc00b', 'x\udbff', '\udc00\ud800', '\ud83d\ude00', '\ud83d\ud83d\ude00', '');
    for (const text of texts) {
      writer.length = 0;
      writer.string(text);
      expect(decoded(writer.bytes.subarray(0, writer.length))).to.equal(JSON.stringify(text));
    }
  });

  it('writes long strings (copied natively when plain ASCII) with any one code unit among plain ones as JSON.stringify does', () => {
    const writer = new JsonByteWriter(16);
    const plain = 'abcdefghijklmnopqrstuvwxyz0123456789 ~!#[]';
    for (let c = 0; c < 0x10000; c++) {
      const unit = String.fromCharCode(c);
      for (const text of [unit + plain, plain + unit, plain.slice(0, 20) + unit + plain.slice(20)]) {
        writer.length = 0;
        writer.string(text);
        const written = decoded(writer.bytes.subarray(0, writer.length));
        if (written !== JSON.stringify(text)) expect(written, `code unit ${c}`).to.equal(JSON.stringify(text));
      }
    }
  });

  it('writes integers as JSON.stringify does', () => {
    const writer = new JsonByteWriter(4);
    const values = [
      0, 1, -1, 9, 10, -10, 99, 100, 2147483647, -2147483648, 4294967296, 999999999999999, 1000000000000000, 9007199254740991,
      -9007199254740991, 9007199254740992,
    ];
    for (let i = 0; i < 2000; i++) values.push(Math.round((Math.random() - 0.5) * 2 ** (Math.random() * 54)));
    for (const n of values) {
      writer.length = 0;
      writer.integer(n);
      expect(decoded(writer.bytes.subarray(0, writer.length)), String(n)).to.equal(JSON.stringify(n));
    }
  });
});
