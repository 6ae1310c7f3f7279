import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { applySessionHeaders, requestHeaders, type ClientSession } from '../../src/cli/client/client-session.js';
import { renderFailure } from '../../src/cli/failure-printer.js';
import { formatValue } from '../../src/cli/output/format-value.js';
import { createPrinter, type OutputFormat } from '../../src/cli/output/printer.js';
import { OutputSink } from '../../src/cli/output/sink.js';
import { splitStatements } from '../../src/cli/statement-splitter.js';
import type { ColumnJson } from '../../src/server/statement-json.js';

const column = (name: string, type: string): ColumnJson => ({ name, type, typeSignature: { rawType: type.replace(/\(.*/, ''), arguments: [] } });

async function print(format: OutputFormat, columns: ColumnJson[], rows: unknown[][]): Promise<string> {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const printer = createPrinter(format, new OutputSink(stream));
  await printer.start(columns);
  await printer.rows(rows);
  await printer.finish();
  return chunks.join('');
}

describe('statement splitter', () => {
  it('splits at semicolons outside quotes and comments', () => {
    const text = "SELECT ';' AS a; SELECT \"x;y\" FROM t -- c;\n; /* ; */ SELECT 'it''s;'; SELECT 3";
    expect(splitStatements(text)).to.deep.equal({
      complete: ["SELECT ';' AS a", 'SELECT "x;y" FROM t -- c;', "/* ; */ SELECT 'it''s;'"],
      remainder: 'SELECT 3',
    });
    expect(splitStatements(';;  ;').complete).to.deep.equal([]);
    expect(splitStatements("SELECT 'open;").complete).to.deep.equal([]);
  });
});

describe('output formats', () => {
  const columns = [column('x', 'integer'), column('name', 'varchar'), column('z', 'decimal(3,2)')];
  const rows = [
    [1, 'a', '1.50'],
    [100, null, '-2.00'],
  ];

  it('ALIGNED centres headers, right-aligns numbers and counts rows like Trino', async () => {
    expect(await print('ALIGNED', columns, rows)).to.equal(
      ['  x  | name |   z   ', '-----+------+-------', '   1 | a    |  1.50 ', ' 100 | NULL | -2.00 ', '(2 rows)', ''].join('\n'),
    );
    expect(await print('ALIGNED', [column('_col0', 'integer')], [[1]])).to.equal([' _col0 ', '-------', '     1 ', '(1 row)', ''].join('\n'));
    expect(await print('ALIGNED', [column('s', 'varchar')], [['two\nlines']])).to.equal(['   s   ', '-------', ' two   ', ' lines ', '(1 row)', ''].join('\n'));
    expect(await print('ALIGNED', [column('x', 'integer')], [])).to.equal([' x ', '---', '(0 rows)', ''].join('\n'));
  });

  it('CSV quotes every value; TSV escapes; JSON keeps the values', async () => {
    expect(await print('CSV', columns, [[1, 'say "hi"', null]])).to.equal('"1","say ""hi""",""\n');
    expect(await print('CSV_HEADER', columns, rows)).to.equal('"x","name","z"\n"1","a","1.50"\n"100","","-2.00"\n');
    expect(await print('TSV', columns, [[1, 'a\tb\nc\\', null]])).to.equal('1\ta\\tb\\nc\\\\\t\n');
    expect(await print('TSV_HEADER', columns, [[1, 'a', '1.50']])).to.equal('x\tname\tz\n1\ta\t1.50\n');
    expect(await print('JSON', columns, rows)).to.equal('{"x":1,"name":"a","z":"1.50"}\n{"x":100,"name":null,"z":"-2.00"}\n');
  });

  it('shows values as Trino CLI does', () => {
    expect(formatValue(null, 'integer')).to.equal(null);
    expect(formatValue('YWJj', 'varbinary')).to.equal('61 62 63');
    expect(formatValue([1, null, [2]], 'array(integer)')).to.equal('[1, NULL, [2]]');
    expect(formatValue({ a: 1 }, 'map(varchar,integer)')).to.equal('{a=1}');
    expect(formatValue(true, 'boolean')).to.equal('true');
  });
});

describe('failure printer', () => {
  it('prints the message and a caret under the error position', () => {
    const error = {
      message: "line 2:15: Table 'memory.default.nope' does not exist",
      errorCode: 46,
      errorName: 'TABLE_NOT_FOUND',
      errorType: 'USER_ERROR',
      errorLocation: { lineNumber: 2, columnNumber: 15 },
      failureInfo: { type: 'EngineError', message: '', stack: [], suppressed: [] },
    };
    expect(renderFailure('20261121_223001_00003_k7x2p', 'SELECT 1;\nSELECT * FROM memory.default.nope', error)).to.equal(
      [
        "Query 20261121_223001_00003_k7x2p failed: line 2:15: Table 'memory.default.nope' does not exist",
        'LINE 2: SELECT * FROM memory.default.nope',
        '                      ^',
        '',
      ].join('\n'),
    );
    expect(renderFailure('q', 'SELECT', { ...error, message: 'boom', errorLocation: undefined })).to.equal('Query q failed: boom\n');
  });
});

describe('client session', () => {
  const session: ClientSession = {
    server: 'http://localhost:8080',
    user: 'u',
    source: 'engine-cli',
    catalog: 'memory',
    timeZone: 'UTC',
    properties: new Map([['a', '1']]),
    preparedStatements: new Map([['old', 'SELECT 1']]),
  };

  it('sends its state as X-Engine headers and follows the server session headers', () => {
    expect(requestHeaders(session, 'ua')).to.deep.equal({
      'User-Agent': 'ua',
      'X-Engine-User': 'u',
      'X-Engine-Source': 'engine-cli',
      'X-Engine-Time-Zone': 'UTC',
      'X-Engine-Catalog': 'memory',
      'X-Engine-Session': 'a=1',
      'X-Engine-Prepared-Statement': 'old=SELECT%201',
    });
    const headers = new Headers();
    headers.set('X-Engine-Set-Schema', 's2');
    headers.append('X-Engine-Set-Session', 'b=x%20y%2Cz');
    headers.append('X-Engine-Set-Session', 'c=3');
    headers.set('X-Engine-Clear-Session', 'a');
    headers.set('X-Engine-Added-Prepare', 'q=SELECT%20%3F');
    headers.set('X-Engine-Deallocated-Prepare', 'old');
    const next = applySessionHeaders(session, headers);
    expect(next.catalog).to.equal('memory');
    expect(next.schema).to.equal('s2');
    expect([...next.properties]).to.deep.equal([
      ['b', 'x y,z'],
      ['c', '3'],
    ]);
    expect([...next.preparedStatements]).to.deep.equal([['q', 'SELECT ?']]);
    expect([...session.properties]).to.deep.equal([['a', '1']]);
  });
});
