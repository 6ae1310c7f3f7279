// checksum(x) of arrays, maps, rows, uuid and ipaddress equals Trino's: the expected values are built
// here from Trino's definitions (ChecksumAggregationFunction sums XX_HASH_64(value) * PRIME64; ArrayType
// folds 31 * h + element; MapType sums key ^ value; RowType folds 31 * h + field hash code from 1;
// UuidType and IpAddressType XOR the xxHash64 of their two 8-byte halves) over xxHash64 digests that
// the engine's `xxhash64(varbinary)` gives (checked against Trino's documented values elsewhere), and
// AbstractLongType.hash for a bigint field's hash code, the anchor being Trino's checksum(0).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

const PRIME64 = 0x9e3779b185ebca87n;
const asLong = (bytes: unknown) => Buffer.from(bytes as Uint8Array).readBigInt64LE(0);
const wrap = (v: bigint) => BigInt.asIntN(64, v);
/** AbstractLongType.hash (a bigint's HASH_CODE): rotateLeft(v * 0xC2B2AE3D27D4EB4F, 31) * PRIME64. */
function longHashCode(v: bigint): bigint {
  const p = BigInt.asUintN(64, v * 0xc2b2ae3d27d4eb4fn);
  return wrap(BigInt.asUintN(64, (p << 31n) | (p >> 33n)) * PRIME64);
}

describe('checksum of arrays, maps, rows, uuid, ipaddress, intervals and json', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const value = async (sql: string) => (await engine.rows(sql))[0][0];
  const checksum = async (sql: string) => asLong(await value(sql));
  /** xxHash64 of a bigint's 8 little-endian bytes (airlift's XxHash64.hash(long)), via SQL xxhash64. */
  const xxLong = async (v: bigint) =>
    Buffer.from((await value(`SELECT xxhash64(reverse(to_big_endian_64(${v})))`)) as Uint8Array).readBigInt64BE(0);
  /** xxHash64 of bytes `from`..`from+7` (1-based) of a varbinary expression. */
  const xxHalf = async (bytes: string, from: number) =>
    Buffer.from((await value(`SELECT xxhash64(substr(${bytes}, ${from}, 8))`)) as Uint8Array).readBigInt64BE(0);
  const sumOf = (hashes: bigint[], nulls = 0) => wrap(hashes.reduce((sum, h) => sum + h * PRIME64, BigInt(nulls) * PRIME64));

  it("anchors on Trino's checksum(0)", async () => {
    expect(wrap((await xxLong(0n)) * PRIME64)).to.equal(await checksum('SELECT checksum(0)'));
    expect(await value('SELECT to_hex(checksum(0))')).to.equal('9D2D16796C5091EA');
  });

  it('hashes arrays as ArrayType folds its elements, NULL elements and NULL arrays included', async () => {
    const [x1, x2, x3, x4] = await Promise.all([1n, 2n, 3n, 4n].map(xxLong));
    const fold = (...hashes: bigint[]) => hashes.reduce((h, e) => wrap(31n * h + e), 0n);
    const got = await checksum("SELECT checksum(a) FROM (VALUES ARRAY[BIGINT '1', 2], ARRAY[3, NULL, 4], NULL, ARRAY[]) t(a)");
    expect(got).to.equal(sumOf([fold(x1, x2), fold(x3, 0n, x4), 0n], 1));
    const nested = await checksum("SELECT checksum(ARRAY[ARRAY[BIGINT '1'], ARRAY[2, 3]])");
    expect(nested).to.equal(sumOf([fold(fold(x1), fold(x2, x3))]));
  });

  it('hashes maps as MapType sums key ^ value over entries, in any entry order', async () => {
    const [x1, x2, x3, x4] = await Promise.all([1n, 2n, 3n, 4n].map(xxLong));
    const expected = sumOf([wrap((x1 ^ x2) + (x3 ^ x4))]);
    expect(await checksum("SELECT checksum(MAP(ARRAY[BIGINT '1', 3], ARRAY[BIGINT '2', 4]))")).to.equal(expected);
    expect(await checksum("SELECT checksum(MAP(ARRAY[BIGINT '3', 1], ARRAY[BIGINT '4', 2]))")).to.equal(expected);
    expect(await checksum("SELECT checksum(MAP(ARRAY[BIGINT '1'], ARRAY[CAST(NULL AS bigint)]))")).to.equal(sumOf([x1 ^ 0n]));
  });

  it("hashes rows as RowType does, from its fields' hash codes (not their xxHash64)", async () => {
    const xa = await xxHalf("to_utf8('a')", 1);
    const row = (...fieldCodes: bigint[]) => fieldCodes.reduce((h, c) => wrap(31n * h + c), 1n);
    // A bigint field's hash code is AbstractLongType.hash; a varchar's is its xxHash64; NULL is 0.
    expect(await checksum("SELECT checksum(ROW(BIGINT '7', 'a'))")).to.equal(sumOf([row(longHashCode(7n), xa)]));
    expect(await checksum("SELECT checksum(CAST(ROW(NULL, 'a') AS row(x bigint, y varchar)))")).to.equal(sumOf([row(0n, xa)]));
    const [x5, x6] = await Promise.all([5n, 6n].map(xxLong));
    // Arrays inside rows hash with their elements' hash codes; rows inside arrays with the row's.
    const codes = (...vs: bigint[]) => vs.map(longHashCode).reduce((h, c) => wrap(31n * h + c), 0n);
    expect(await checksum("SELECT checksum(ROW(ARRAY[BIGINT '5', 6]))")).to.equal(sumOf([row(codes(5n, 6n))]));
    expect(await checksum("SELECT checksum(ARRAY[ROW(BIGINT '5')])")).to.equal(sumOf([row(longHashCode(5n))]));
    expect(x5).to.not.equal(longHashCode(5n));
    expect(x6).to.not.equal(longHashCode(6n));
  });

  it('hashes uuid and ipaddress as the XOR of the xxHash64 of their two 8-byte halves', async () => {
    const uuid = "UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59'";
    const uuidHash = (await xxHalf(`CAST(${uuid} AS varbinary)`, 1)) ^ (await xxHalf(`CAST(${uuid} AS varbinary)`, 9));
    expect(await checksum(`SELECT checksum(${uuid})`)).to.equal(sumOf([uuidHash]));
    for (const ip of ['192.168.0.1', '2001:db8::ff00:42:8329']) {
      const bytes = `CAST(IPADDRESS '${ip}' AS varbinary)`;
      const ipHash = (await xxHalf(bytes, 1)) ^ (await xxHalf(bytes, 9));
      expect(await checksum(`SELECT checksum(IPADDRESS '${ip}')`), ip).to.equal(sumOf([ipHash]));
    }
  });

  it('adds up over the parts of a table aggregated in parts, for containers read from pages', async () => {
    for (const column of [
      'ARRAY[o_orderkey, o_custkey]',
      'MAP(ARRAY[o_orderkey], ARRAY[o_comment])',
      'ROW(o_orderkey, o_comment, o_totalprice)',
    ]) {
      const whole = await checksum(`SELECT checksum(${column}) FROM tpch.tiny.orders`);
      const parts = await engine.rows(`SELECT checksum(${column}) FROM tpch.tiny.orders GROUP BY o_orderpriority`);
      expect(wrap(parts.reduce((sum, [p]) => sum + asLong(p), 0n)), column).to.equal(whole);
    }
  });

  it('hashes containers of only NULLs (the unknown type) from NULL hash codes of 0', async () => {
    expect(await checksum('SELECT checksum(ARRAY[NULL])')).to.equal(0n);
    expect(await checksum('SELECT checksum(ARRAY[])')).to.equal(0n);
    expect(await checksum('SELECT checksum(MAP())')).to.equal(0n);
    expect(await checksum('SELECT checksum(ROW(NULL))')).to.equal(sumOf([31n]));
  });

  it('hashes intervals as the long Trino holds (months, milliseconds) and json as its text', async () => {
    expect(await checksum("SELECT checksum(INTERVAL '1' SECOND)")).to.equal(await checksum("SELECT checksum(BIGINT '1000')"));
    expect(await checksum("SELECT checksum(INTERVAL '2' YEAR)")).to.equal(await checksum("SELECT checksum(BIGINT '24')"));
    expect(await checksum(`SELECT checksum(JSON '{"b": 1, "a": 2}')`)).to.equal(await checksum(`SELECT checksum('{"a":2,"b":1}')`));
  });
});
