import { expect } from 'chai';
import { applySessionHeaders, applyTransactionEnd, requestHeaders, type ClientSession } from '../../src/cli/client/client-session.js';
import { renderFailure } from '../../src/cli/failure-printer.js';
import { splitStatements } from '../../src/cli/statement-splitter.js';

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
      'X-Engine-Transaction-Id': 'NONE',
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

  it('follows the transaction the server starts and ends, also at a failed COMMIT', () => {
    const session: ClientSession = {
      server: 'http://x',
      user: 'u',
      source: 's',
      timeZone: 'UTC',
      properties: new Map(),
      preparedStatements: new Map(),
    };
    const started = applySessionHeaders(session, new Headers({ 'X-Engine-Started-Transaction-Id': 'abc' }));
    expect(started.transactionId).to.equal('abc');
    expect(requestHeaders(started, 'ua')['X-Engine-Transaction-Id']).to.equal('abc');
    expect(applyTransactionEnd(started, new Headers({ 'X-Engine-Clear-Transaction-Id': 'true' })).transactionId).to.equal(undefined);
    expect(applyTransactionEnd(started, new Headers()).transactionId).to.equal('abc');
  });
});
