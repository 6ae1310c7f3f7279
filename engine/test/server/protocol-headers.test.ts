import { expect } from 'chai';
import { noSessionChanges } from '../../src/coordinator/session.js';
import { HttpError } from '../../src/server/http-error.js';
import { detectPrefix, readSessionHeaders, sessionChangeHeaders } from '../../src/server/protocol-headers.js';

describe('protocol headers', () => {
  it('detects the spelling a client uses', () => {
    expect(detectPrefix({ 'x-trino-user': 'a' })).to.equal('X-Trino-');
    expect(detectPrefix({ 'x-presto-catalog': 'a' })).to.equal('X-Presto-');
    expect(detectPrefix({ 'x-engine-schema': 'a' })).to.equal('X-Engine-');
    expect(detectPrefix({ accept: '*/*' })).to.equal(undefined);
  });

  it('reads the session a statement asks for, URL-decoding session values and prepared statements', () => {
    const session = readSessionHeaders(
      {
        'x-trino-user': 'alice',
        'x-trino-source': 'cli',
        'x-trino-catalog': 'memory',
        'x-trino-schema': 'default',
        'x-trino-time-zone': 'Europe/Paris',
        'x-trino-session': 'query_max_run_time=1h, note=a+b%2Cc',
        'x-trino-prepared-statement': 'q1=SELECT+%3F,q2=SELECT%201',
        'x-trino-client-tags': 'a, b',
        'x-trino-client-info': 'info',
        'x-trino-transaction-id': 'NONE',
      },
      'X-Trino-',
      'UTC',
    );
    expect(session).to.deep.include({ user: 'alice', source: 'cli', catalog: 'memory', schema: 'default', timeZone: 'Europe/Paris', clientInfo: 'info' });
    expect([...session.properties]).to.deep.equal([
      ['query_max_run_time', '1h'],
      ['note', 'a b,c'],
    ]);
    expect([...session.preparedStatements]).to.deep.equal([
      ['q1', 'SELECT ?'],
      ['q2', 'SELECT 1'],
    ]);
    expect(session.clientTags).to.deep.equal(['a', 'b']);
  });

  it('defaults the user and time zone, and rejects malformed headers with 400', () => {
    const session = readSessionHeaders({}, 'X-Engine-', 'America/New_York');
    expect(session.user).to.equal('anonymous');
    expect(session.timeZone).to.equal('America/New_York');
    for (const headers of [{ 'x-engine-session': 'novalue' }, { 'x-engine-prepared-statement': 'q=%E0%A4%A' }, { 'x-engine-transaction-id': 'abc' }]) {
      expect(() => readSessionHeaders(headers, 'X-Engine-', 'UTC')).to.throw(HttpError).with.property('status', 400);
    }
  });

  it('writes session changes in the request spelling, URL-encoded', () => {
    const changes = noSessionChanges();
    changes.setCatalog = 'memory';
    changes.setSchema = 's1';
    changes.setSessionProperties.set('a', 'x y,z');
    changes.resetSessionProperties.push('b');
    changes.addedPreparedStatements.set('q', 'SELECT ?, 1');
    changes.deallocatedPreparedStatements.push('old');
    expect(sessionChangeHeaders(changes, 'X-Presto-')).to.deep.equal([
      ['X-Presto-Set-Catalog', ['memory']],
      ['X-Presto-Set-Schema', ['s1']],
      ['X-Presto-Set-Session', ['a=x%20y%2Cz']],
      ['X-Presto-Clear-Session', ['b']],
      ['X-Presto-Added-Prepare', ['q=SELECT%20%3F%2C%201']],
      ['X-Presto-Deallocated-Prepare', ['old']],
    ]);
    expect(sessionChangeHeaders(noSessionChanges(), 'X-Engine-')).to.deep.equal([]);
  });
});
