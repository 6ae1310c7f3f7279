// functions/url.md: every documented example, and the parts of URLs as Trino's java.net.URI reading
// gives them (cases and results from Trino's own URL function tests).

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

documentedExamples('functions/url.md', [
  ["SELECT url_extract_protocol('http://localhost:8080/req_path')", 'http'],
  ["SELECT url_extract_protocol('https://127.0.0.1:8080/req_path')", 'https'],
  ["SELECT url_extract_protocol('ftp://path/file')", 'ftp'],
] satisfies DocumentedExample[]);

/** url, protocol, host, port, path, query, fragment (null: SQL NULL). */
const PARTS: ReadonlyArray<readonly [string, ...(string | null)[]]> = [
  ['http://example.com/path1/p.php?k1=v1&k2=v2#Ref1', 'http', 'example.com', null, '/path1/p.php', 'k1=v1&k2=v2', 'Ref1'],
  ['http://example.com/path1/p.php?', 'http', 'example.com', null, '/path1/p.php', '', ''],
  ['http://example.com/path1/p.php', 'http', 'example.com', null, '/path1/p.php', '', ''],
  ['http://example.com:8080/path1/p.php?k1=v1&k2=v2#Ref1', 'http', 'example.com', '8080', '/path1/p.php', 'k1=v1&k2=v2', 'Ref1'],
  ['https://username@example.com', 'https', 'example.com', null, '', '', ''],
  ['https://username:password@example.com', 'https', 'example.com', null, '', '', ''],
  ['mailto:test@example.com', 'mailto', '', null, '', '', ''],
  ['foo', '', '', null, 'foo', '', ''],
  ['http://example.com/^', null, null, null, null, null, null],
];

describe('URL functions as Trino', () => {
  const engine = new EngineHarness();

  for (const [url, ...expected] of PARTS) {
    it(`the parts of ${url}`, async () => {
      const { rows } = await engine.query(
        `SELECT url_extract_protocol('${url}'), url_extract_host('${url}'), CAST(url_extract_port('${url}') AS varchar), url_extract_path('${url}'), url_extract_query('${url}'), url_extract_fragment('${url}')`,
      );
      expect(rows[0]).to.deep.equal(expected);
    });
  }

  it('url_extract_parameter: the first match, empty for a key without value, NULL for none', async () => {
    const url = 'http://example.com/path1/p.php?k1=v1&k2=v2&k3&k4#Ref1';
    const { rows } = await engine.query(
      `SELECT url_extract_parameter('${url}', 'k1'), url_extract_parameter('${url}', 'k3'), url_extract_parameter('${url}', 'k5'),
              url_extract_parameter('http://example.com/p?k1=v1&k1=v2', 'k1'), url_extract_parameter('http://example.com/p?k=a=b=c&x=y', 'k'),
              url_extract_parameter('http://example.com/p?k1=a%26k2%3Db&k2=c', 'k2'), url_extract_parameter('foo', 'k1')`,
    );
    expect(rows[0]).to.deep.equal(['v1', '', null, 'v1', 'a=b=c', 'c', null]);
  });

  it('url_encode and url_decode as Java form encoding, UTF-8 bytes', async () => {
    const { rows } = await engine.query(
      "SELECT url_encode('a b/ü*~'), url_decode('a+b%2F%C3%BC'), url_encode(U&'\\+029E3D'), url_decode(url_encode('x=1&y=ä ö'))",
    );
    expect(rows[0]).to.deep.equal(['a+b%2F%C3%BC*%7E', 'a b/ü', '%F0%A9%B8%BD', 'x=1&y=ä ö']);
    expect((await engine.failure("SELECT url_decode('abc%2')")).rawMessage).to.equal('URLDecoder: Incomplete trailing escape (%) pattern');
    expect((await engine.failure("SELECT url_decode('%zz')")).rawMessage).to.equal(
      'URLDecoder: Illegal hex characters in escape (%) pattern - zz',
    );
  });
});
