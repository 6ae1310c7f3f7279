// The CLI's fast paths for large results give what the general ones give: responses parsed by
// JSON.parse where that is exact (parseJsonQuickly) equal parseJson's values, bigints beyond 2^53
// included; CSV and TSV printed with a formatter per column equal formatValue per value.

import { expect } from 'chai';
import { DELIMITED, formatValue } from '../../src/cli/output/format-value.js';
import { OutputHandler } from '../../src/cli/output/output-handler.js';
import { createPrinter } from '../../src/cli/output/printer.js';
import { TextBuffer } from '../../src/cli/output/sink.js';
import type { ColumnJson } from '../../src/server/statement-json.js';
import { parseJson, parseJsonQuickly } from '../../src/types/exact-json.js';
import type { TypeSignature } from '../../src/types/types.js';

const type = (rawType: string, ...args: TypeSignature[]): TypeSignature => ({
  rawType,
  arguments: args.map((value) => ({ kind: 'TYPE', value })),
});
const column = (name: string, signature: TypeSignature): ColumnJson => ({ name, type: signature.rawType, typeSignature: signature });

const COLUMNS = [
  column('b', type('bigint')),
  column('i', type('integer')),
  column('flag', type('boolean')),
  column('d', type('double')),
  column('r', type('real')),
  column('dec', type('decimal')),
  column('s', type('varchar')),
  column('day', type('date')),
  column('bin', type('varbinary')),
  column('arr', type('array', type('double'))),
  column('m', type('map', type('varchar'), type('bigint'))),
];
const ROWS: unknown[][] = [
  [
    9007199254740993n,
    7,
    true,
    1e21,
    1.100000023841858,
    '-0.05',
    'say "hi", bye',
    '1996-01-02',
    Buffer.from('ab').toString('base64'),
    [1, null, 2.5],
    { k: 1, j: 2 },
  ],
  [-5, -2147483648, false, 'NaN', 'Infinity', '12.50', 'line\nbreak\ttab\\', '0001-01-01', '', [], {}],
  [null, null, null, null, null, null, null, null, null, null, null],
  [0, 0, true, -0, 0.5, '0', '', '9999-12-31', Buffer.from([0, 255]).toString('base64'), [1e-7], { 'a"b': 9007199254740993n }],
];

async function print(format: 'CSV' | 'CSV_UNQUOTED' | 'CSV_HEADER' | 'TSV'): Promise<string> {
  const buffer = new TextBuffer();
  const handler = new OutputHandler(createPrinter(format, COLUMNS, buffer, Infinity));
  await handler.add(ROWS);
  await handler.close();
  return buffer.text;
}

/** Each value through formatValue, as the printers did one value at a time. */
const cells = (row: unknown[]) => COLUMNS.map((c, i) => formatValue(row[i], c.typeSignature, DELIMITED));

describe('engine sql fast paths for large results', () => {
  it('parses responses as parseJson does, integers beyond 2^53 exact', () => {
    const texts = [
      '{"id":"q","data":[[1,"a",2.5,null,true,-0,1e21,123456789012345]],"stats":{"state":"RUNNING"}}',
      '{"data":[[9007199254740993,"x"],[-9223372036854775808,1234567890123456]]}',
      '{"data":[["1234567890123456 in a string",1]]}',
      '[1.5e300,-2.25e-300,0.1,{"a":{"b":[[]]}},"\\u00e9\\ud83d\\ude00\\n"]',
      '{"k":1,"k":2}',
      '{"data":[[1e300,9007199254740992,-9007199254740992,9007199254740991]]}',
      '{"a":{"b":[{"c":12345678901234567890}]}}',
    ];
    for (const text of texts) expect(parseJsonQuickly(text), text).to.deep.equal(parseJson(text));
    expect((parseJsonQuickly('[9007199254740993]') as unknown[])[0]).to.equal(9007199254740993n);
  });

  it('keeps a member named __proto__ (a map key) as JSON.parse does, also where bigints take the exact path', () => {
    for (const text of ['{"__proto__":{"x":1},"a":1}', '{"__proto__":[1],"a":9007199254740993}']) {
      for (const parse of [parseJson, parseJsonQuickly]) {
        const value = parse(text) as Record<string, unknown>;
        expect(Object.keys(value), text).to.deep.equal(['__proto__', 'a']);
        expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
      }
    }
  });

  it('reports malformed text with parseJson error', () => {
    for (const text of ['{"a":', '[1,]', '{"a":1} x', '']) {
      expect(() => parseJsonQuickly(text)).to.throw(SyntaxError, /Invalid JSON at position/);
    }
  });

  it('prints CSV as formatValue gives each value, quoted, unquoted and with a header', async () => {
    const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
    expect(await print('CSV')).to.equal(ROWS.map((row) => `${cells(row).map(quote).join(',')}\n`).join(''));
    expect(await print('CSV_UNQUOTED')).to.equal(ROWS.map((row) => `${cells(row).join(',')}\n`).join(''));
    const header = `${COLUMNS.map((c) => quote(c.name)).join(',')}\n`;
    expect(await print('CSV_HEADER')).to.equal(header + ROWS.map((row) => `${cells(row).map(quote).join(',')}\n`).join(''));
  });

  it('prints TSV as formatValue gives each value, escaped', async () => {
    const escape = (v: string) => v.replaceAll('\\', '\\\\').replaceAll('\t', '\\t').replaceAll('\n', '\\n');
    expect(await print('TSV')).to.equal(ROWS.map((row) => `${cells(row).map(escape).join('\t')}\n`).join(''));
  });
});
