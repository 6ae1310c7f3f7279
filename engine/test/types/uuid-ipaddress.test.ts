// The uuid and ipaddress types: Trino's documented examples (functions/ipaddress.md, language/types.md),
// literals and casts with Trino's messages (cases from Trino's TestUuidOperators and
// TestIpAddressOperators), RFC 5952 formatting of random addresses checked against Node's WHATWG
// URL serializer, ordering and equality of random values checked against their bytes compared in
// JavaScript, and GROUP BY, DISTINCT, joins and ORDER BY on both types in memory tables.

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { type DocumentedExample, documentedExamples } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';
import { formatValueAsText } from '../../src/types/values.js';
import { IPADDRESS } from '../../src/types/types.js';

documentedExamples('functions/ipaddress.md', [
  ["SELECT contains('10.0.0.0/8', IPADDRESS '10.255.255.255')", 'true'],
  ["SELECT contains('10.0.0.0/8', IPADDRESS '11.255.255.255')", 'false'],
  ["SELECT contains('2001:0db8:0:0:0:ff00:0042:8329/128', IPADDRESS '2001:0db8:0:0:0:ff00:0042:8329')", 'true'],
  ["SELECT contains('2001:0db8:0:0:0:ff00:0042:8329/128', IPADDRESS '2001:0db8:0:0:0:ff00:0042:8328')", 'false'],
] satisfies DocumentedExample[]);

documentedExamples('language/types.md (uuid, ipaddress)', [
  ["SELECT UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59'", '12151fd2-7586-11e9-8f9e-2a86e4085a59'],
  ["SELECT IPADDRESS '10.0.0.1'", '10.0.0.1'],
  ["SELECT IPADDRESS '2001:db8::1'", '2001:db8::1'],
] satisfies DocumentedExample[]);

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const sqlBytes = (bytes: Uint8Array) => `X'${hex(bytes)}'`;

describe('uuid and ipaddress', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const value = async (sql: string) => (await engine.rows(sql))[0][0];
  const failure = async (sql: string) => {
    const e = await engine.failure(sql);
    return [e.errorName, e.rawMessage];
  };

  it('casts uuid to and from varchar and varbinary, as Trino', async () => {
    const id = '12151fd2-7586-11e9-8f9e-2a86e4085a59';
    expect(await value(`SELECT CAST(UUID '${id.toUpperCase()}' AS varchar)`)).to.equal(id);
    expect(hex((await value(`SELECT CAST(UUID '${id}' AS varbinary)`)) as Uint8Array)).to.equal(id.replace(/-/g, ''));
    expect(await value(`SELECT CAST(X'${id.replace(/-/g, '')}' AS uuid) = UUID '${id}'`)).to.equal(true);
    expect(await value(`SELECT typeof(UUID '${id}')`)).to.equal('uuid');
    expect(await failure("SELECT CAST('1-2-3-4-5' AS uuid)")).to.deep.equal(['INVALID_CAST_ARGUMENT', 'Invalid UUID string length: 9']);
    expect(await failure("SELECT CAST('not a uuid' AS uuid)")).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Cannot cast value to UUID: not a uuid',
    ]);
    expect(await failure("SELECT CAST(X'0102' AS uuid)")).to.deep.equal(['INVALID_CAST_ARGUMENT', 'Invalid UUID binary length: 2']);
    expect(await failure(`SELECT CAST(UUID '${id}' AS varchar(10))`)).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      `Cannot cast '${id}' to varchar(10)`,
    ]);
    expect(await failure(`SELECT CAST(UUID '${id}' AS bigint)`)).to.deep.equal(['TYPE_MISMATCH', 'Cannot cast uuid to bigint']);
    expect((await failure(`SELECT UUID '${id}' = '${id}'`))[0]).to.equal('TYPE_MISMATCH');
  });

  it('makes random version 4 uuids with uuid()', async () => {
    const rows = await engine.rows('SELECT CAST(uuid() AS varchar) FROM UNNEST(sequence(1, 200))');
    const ids = rows.map((r) => r[0] as string);
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).to.equal(200);
  });

  it('casts ipaddress to and from varchar and varbinary, IPv4 held as IPv4-mapped IPv6, as Trino', async () => {
    const cases: [string, string][] = [
      ['10.0.0.1', '10.0.0.1'],
      ['::ffff:1.2.3.4', '1.2.3.4'],
      ['::ffff:0102:0304', '1.2.3.4'],
      ['2001:0db8:0000:0000:0000:ff00:0042:8329', '2001:db8::ff00:42:8329'],
      ['2001:DB8::1', '2001:db8::1'],
      ['::', '::'],
      ['::1', '::1'],
      ['::1.2.3.4', '::102:304'],
      ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
      ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
      ['1:0:0:2:0:0:3:4', '1::2:0:0:3:4'],
    ];
    for (const [literal, shown] of cases) expect(await value(`SELECT CAST(IPADDRESS '${literal}' AS varchar)`), literal).to.equal(shown);
    expect(hex((await value("SELECT CAST(IPADDRESS '1.2.3.4' AS varbinary)")) as Uint8Array)).to.equal('00000000000000000000ffff01020304');
    expect(await value("SELECT CAST(CAST(X'01020304' AS ipaddress) AS varchar)")).to.equal('1.2.3.4');
    expect(await value("SELECT IPADDRESS '1.2.3.4' = IPADDRESS '::ffff:1.2.3.4'")).to.equal(true);
    for (const bad of ['1.2.3', '1.2.3.256', '01.2.3.4', '1:2:3:4:5:6:7', '1::2::3', 'localhost', '1:2:3:4:5:6:7:8:9']) {
      expect(await failure(`SELECT CAST('${bad}' AS ipaddress)`), bad).to.deep.equal([
        'INVALID_CAST_ARGUMENT',
        `Cannot cast value to IPADDRESS: ${bad}`,
      ]);
    }
    expect(await failure("SELECT CAST(X'010203' AS ipaddress)")).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Invalid IP address binary length: 3',
    ]);
    expect(await value("SELECT typeof(IPADDRESS '::1')")).to.equal('ipaddress');
  });

  it('formats random IPv6 addresses as RFC 5952 does (Node URL serializer as oracle)', async () => {
    const next = seededRandom(5);
    const addresses = Array.from({ length: 300 }, () => {
      // Hextets zero half of the time, so that runs of zeros of every length occur.
      const hextets = Array.from({ length: 8 }, () => (next() < 0.5 ? 0 : Math.floor(next() * 0x10000)));
      hextets[0] = hextets[0] || 1; // never the IPv4-mapped or IPv4-compatible range
      return Uint8Array.from(hextets.flatMap((h) => [h >> 8, h & 0xff]));
    });
    const rows = await engine.rows(`SELECT CAST(CAST(b AS ipaddress) AS varchar) FROM (VALUES ${addresses.map(sqlBytes).join(', ')}) t(b)`);
    rows.forEach(([shown], i) => {
      const groups = hex(addresses[i]).match(/..../g) as string[];
      expect(shown).to.equal(new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1));
    });
  });

  it('orders and compares uuid and ipaddress values by their bytes, and groups, dedups and joins on them', async () => {
    const next = seededRandom(11);
    const bytes = Array.from({ length: 120 }, (_, i) => {
      const b = Uint8Array.from({ length: 16 }, () => Math.floor(next() * 256));
      if (i % 3 === 0) b.fill(0, 0, 10).fill(0xff, 10, 12); // IPv4-mapped
      return b;
    });
    // Every value twice, to group and join on.
    const values = [...bytes, ...bytes].map((b, i) => `(${i}, CAST(${sqlBytes(b)} AS uuid), CAST(${sqlBytes(b)} AS ipaddress))`).join(', ');
    await engine.run('CREATE TABLE addresses (id integer, u uuid, ip ipaddress)', `INSERT INTO addresses VALUES ${values}`);
    const sorted = [...bytes].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).map(hex);
    const orderedUuids = await engine.rows('SELECT DISTINCT CAST(u AS varbinary) FROM addresses ORDER BY 1');
    expect(orderedUuids.map(([b]) => hex(b as Uint8Array))).to.deep.equal(sorted);
    const orderedIps = await engine.rows('SELECT CAST(ip AS varbinary), count(*) FROM addresses GROUP BY ip ORDER BY ip DESC');
    expect(orderedIps.map(([b]) => hex(b as Uint8Array))).to.deep.equal([...sorted].reverse());
    expect(orderedIps.every(([, n]) => n === 2n)).to.equal(true);
    const [[less, joined]] = await engine.rows(
      `SELECT count_if(a.u < b.u), count(*) FROM addresses a JOIN addresses b ON a.ip = b.ip AND a.id <> b.id`,
    );
    expect([less, joined]).to.deep.equal([0n, 240n]);
    const pairs = await engine.rows(
      'SELECT count_if(a.u < b.u), count_if(a.ip > b.ip) FROM addresses a, addresses b WHERE a.id < 120 AND b.id < 120',
    );
    let uuidLess = 0;
    for (const a of bytes) for (const b of bytes) if (Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0) uuidLess++;
    expect(pairs).to.deep.equal([[BigInt(uuidLess), BigInt(uuidLess)]]);
    expect(await value('SELECT count(DISTINCT u) FROM addresses')).to.equal(120n);
  });

  it("checks contains()'s network as Trino", async () => {
    expect(await value("SELECT contains('0.0.0.0/0', IPADDRESS '1.2.3.4')")).to.equal(true);
    expect(await value("SELECT contains('1.2.3.0/24', IPADDRESS '1.2.4.1')")).to.equal(false);
    expect(await value("SELECT contains('::/0', IPADDRESS '2001:db8::1')")).to.equal(true);
    expect(await value("SELECT contains('2001:db8::/32', IPADDRESS '2001:db9::1')")).to.equal(false);
    expect(await value("SELECT contains('1.2.3.0/24', NULL)")).to.equal(null);
    expect(await failure("SELECT contains('1.2.3.4', IPADDRESS '1.2.3.4')")).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'Invalid CIDR']);
    expect(await failure("SELECT contains('1.2.3.4/24', IPADDRESS '1.2.3.4')")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Invalid CIDR',
    ]);
    expect(await failure("SELECT contains('1.2.3.0/33', IPADDRESS '1.2.3.4')")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Invalid CIDR',
    ]);
    expect(await failure("SELECT contains('x/8', IPADDRESS '1.2.3.4')")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Invalid network IP address',
    ]);
    expect(await failure("SELECT contains('1.0.0.0/-1', IPADDRESS '1.2.3.4')")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Invalid prefix length',
    ]);
  });

  it('shows values to clients as Trino sends them', async () => {
    const md5 = createHash('md5').update('x').digest();
    expect(formatValueAsText(hex(md5), IPADDRESS)).to.equal(
      new URL(`http://[${(hex(md5).match(/..../g) as string[]).join(':')}]/`).hostname.slice(1, -1),
    );
    const result = await engine.query("SELECT UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59' AS u, IPADDRESS '10.0.0.1' AS ip");
    expect(result.types).to.deep.equal(['uuid', 'ipaddress']);
  });
});
