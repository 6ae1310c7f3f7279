import { expect } from 'chai';
import { noSessionChanges } from '../../src/spi/session.js';
import { HttpError } from '../../src/errors/http-error.js';
import { detectPrefix, readSessionHeaders, sessionChangeHeaders } from '../../src/server/protocol-headers.js';
import { normalizeTimeZone } from '../../src/types/time-zone-id.js';

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
    expect(session).to.deep.include({
      user: 'alice',
      source: 'cli',
      catalog: 'memory',
      schema: 'default',
      timeZone: 'Europe/Paris',
      clientInfo: 'info',
    });
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
    for (const headers of [
      { 'x-engine-session': 'novalue' },
      { 'x-engine-prepared-statement': 'q=%E0%A4%A' },
      { 'x-engine-transaction-id': 'abc' },
    ]) {
      expect(() => readSessionHeaders(headers, 'X-Engine-', 'UTC'))
        .to.throw(HttpError)
        .with.property('status', 400);
    }
  });

  it('accepts the time zones Trino accepts, normalized, and rejects unknown ones with 400 in every spelling', () => {
    const accepted: Record<string, string> = {
      'Europe/Paris': 'Europe/Paris',
      'America/Argentina/Buenos_Aires': 'America/Argentina/Buenos_Aires',
      'US/Pacific': 'US/Pacific',
      UTC: 'UTC',
      Z: 'UTC',
      'Etc/UTC': 'UTC',
      GMT: 'UTC',
      '+00:00': 'UTC',
      '+05:30': '+05:30',
      '-08:00': '-08:00',
      '+0530': '+05:30',
      '-8': '-08:00',
      'UTC+2': '+02:00',
      'GMT-03:30': '-03:30',
      'Etc/GMT+5': '-05:00',
      '+14:00': '+14:00',
    };
    for (const [zone, normalized] of Object.entries(accepted)) expect(normalizeTimeZone(zone), zone).to.equal(normalized);
    for (const zone of ['Foo/Bar', 'Mars', '+25:00', '+14:01', '+05:75', 'GMT7', 'UTC+', '../etc/passwd', 'Europe/Paris;x'])
      expect(normalizeTimeZone(zone), zone).to.equal(undefined);
    expect(readSessionHeaders({ 'x-trino-time-zone': 'UTC+05:30' }, 'X-Trino-', 'UTC').timeZone).to.equal('+05:30');
    for (const prefix of ['X-Engine-', 'X-Trino-', 'X-Presto-'] as const) {
      expect(() => readSessionHeaders({ [`${prefix}time-zone`.toLowerCase()]: 'Foo/Bar' }, prefix, 'UTC'))
        .to.throw(HttpError, `Time zone not supported: Foo/Bar (${prefix}Time-Zone header)`)
        .with.property('status', 400);
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
