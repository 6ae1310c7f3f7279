// functions/binary.md: its one example, and every function with the results Trino's own tests and
// the algorithms' reference vectors give (xxHash64 and MurmurHash3 checked on long inputs against
// the xxhash-wasm and murmurhash3js-revisited packages once, their outputs recorded here; SpookyHash
// V2 against its reference test's 512 results, every length from 0 to 511 bytes).

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { SPOOKY_V2_REFERENCE_HASH32 } from './spooky-hash-vectors.js';

const LONG = 'The quick brown fox jumps over the lazy dog, twice over: 1234567890';

documentedExamples('functions/binary.md', [
  ["SELECT murmur3(from_base64('aaaaaa'))", 'ba 58 55 63 55 69 b4 2f 49 20 37 2c a0 e3 96 ef'],
  ["SELECT murmur3(CAST('' AS varbinary))", '00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00'],
  ["SELECT to_hex(murmur3(CAST('hashme' AS varbinary)))", '93192FE805BE23041C8318F67EC4F2BC'],
  [`SELECT to_hex(murmur3(to_utf8('${LONG}')))`, '3E6DF5C3BC332A67DC523CE29CE1C344'],
  ["SELECT to_hex(xxhash64(CAST('' AS varbinary)))", 'EF46DB3751D8E999'],
  ["SELECT to_hex(xxhash64(CAST('hashme' AS varbinary)))", 'F9D96E0E1165E892'],
  ["SELECT to_hex(xxhash64(to_utf8('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')))", 'FE47067CDA802916'],
  [`SELECT to_hex(xxhash64(to_utf8('${LONG}')))`, '77BE89CF6DB12CA9'],
  // Trino's TestVarbinaryFunctions.testSpookyHash
  ["SELECT to_hex(spooky_hash_v2_32(CAST('' AS VARBINARY)))", '6BF50919'],
  ["SELECT to_hex(spooky_hash_v2_32(CAST('hello' AS VARBINARY)))", 'D382E6CA'],
  ["SELECT to_hex(spooky_hash_v2_64(CAST('' AS VARBINARY)))", '232706FC6BF50919'],
  ["SELECT to_hex(spooky_hash_v2_64(CAST('hello' AS VARBINARY)))", '3768826AD382E6CA'],
  ["SELECT crc32(to_utf8('CRC me!'))", '38028046'],
  ["SELECT crc32(to_utf8('ABCDEFGHIJKLM'))", '4223167559'],
  ["SELECT to_hex(md5(to_utf8('abc')))", '900150983CD24FB0D6963F7D28E17F72'],
  ["SELECT to_hex(sha1(to_utf8('abc')))", 'A9993E364706816ABA3E25717850C26C9CD0D89D'],
  ["SELECT to_hex(sha256(to_utf8('abc')))", 'BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD'],
  ["SELECT length(sha512(to_utf8('abc')))", '64'],
  [
    "SELECT to_hex(hmac_sha256(to_utf8('The quick brown fox jumps over the lazy dog'), to_utf8('key')))",
    'F7BC83F430538424B13298E6AA6FB143EF4D59A14946175997479DBC2D1A3CD8',
  ],
  ["SELECT to_hex(hmac_md5(to_utf8('The quick brown fox jumps over the lazy dog'), to_utf8('key')))", '80070713463E7749B90C2DC24911E275'],
  ["SELECT to_base64(to_utf8('foobar'))", 'Zm9vYmFy'],
  ["SELECT from_utf8(from_base64('Zm9vYg=='))", 'foob'],
  ["SELECT from_utf8(from_base64('Zm9vYg'))", 'foob'],
  ["SELECT to_base64url(X'fbff')", '-_8='],
  ["SELECT from_base64url('-_8=')", 'fb ff'],
  ["SELECT to_base32(to_utf8('foobar'))", 'MZXW6YTBOI======'],
  ["SELECT from_utf8(from_base32('MZXW6YTB'))", 'fooba'],
  ["SELECT from_utf8(from_base32('MZXW6'))", 'foo'],
  ["SELECT to_hex(to_utf8('Hello'))", '48656C6C6F'],
  ["SELECT from_hex('48656c6c6f')", '48 65 6c 6c 6f'],
  ['SELECT to_big_endian_32(-2)', 'ff ff ff fe'],
  ["SELECT from_big_endian_32(X'fffffffe')", '-2'],
  ['SELECT to_big_endian_64(1)', '00 00 00 00 00 00 00 01'],
  ["SELECT from_big_endian_64(X'8000000000000000')", '-9223372036854775808'],
  ["SELECT to_ieee754_32(REAL '3.14')", '40 48 f5 c3'],
  ["SELECT from_ieee754_32(X'4048f5c3')", '3.14'],
  ['SELECT to_ieee754_64(1.5E0)', '3f f8 00 00 00 00 00 00'],
  ["SELECT from_ieee754_64(X'3ff8000000000000')", '1.5'],
  ["SELECT substr(X'0102030405', 2, 3)", '02 03 04'],
  ["SELECT substr(X'0102030405', -2)", '04 05'],
  ["SELECT lpad(X'01', 4, X'0a0b')", '0a 0b 0a 01'],
  ["SELECT rpad(X'0102', 1, X'00')", '01'],
  ["SELECT reverse(X'010203')", '03 02 01'],
  ["SELECT length(X'010203')", '3'],
] satisfies DocumentedExample[]);

describe('spooky_hash_v2_32 and spooky_hash_v2_64', () => {
  it("give the reference Hash32 (and as the 64-bit hash's low half) of every prefix of 0..511 bytes: short and long paths", async () => {
    const buffer = Buffer.from(Array.from({ length: 512 }, (_, k) => (k + 128) % 256)).toString('hex');
    const [[hashes]] = (
      await new EngineHarness().query(
        `SELECT transform(sequence(0, 511), n -> to_hex(spooky_hash_v2_32(substr(X'${buffer}', 1, n))) || ':' || to_hex(spooky_hash_v2_64(substr(X'${buffer}', 1, n))))`,
      )
    ).rows as [[string[]]];
    const expected = SPOOKY_V2_REFERENCE_HASH32.map((h) => h.toUpperCase());
    expect(hashes.map((h) => h.split(':')[0])).to.deep.equal(expected);
    expect(hashes.map((h) => h.split(':')[1].slice(8))).to.deep.equal(expected);
  });

  it('are listed in SHOW FUNCTIONS with their signatures and descriptions', async () => {
    const rows = await new EngineHarness().rows("SHOW FUNCTIONS LIKE 'spooky%'");
    expect(rows.map((r) => [r[0], r[1], r[2], r[5]])).to.deep.equal([
      ['spooky_hash_v2_32', 'varbinary', 'varbinary', 'Compute SpookyHashV2 32-bit hash'],
      ['spooky_hash_v2_64', 'varbinary', 'varbinary', 'Compute SpookyHashV2 64-bit hash'],
    ]);
  });
});

describe('binary functions: bad input', () => {
  const engine = new EngineHarness();

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ["SELECT from_hex('abc')", 'invalid input length 3'],
      ["SELECT from_hex('zz')", 'invalid hex character: z'],
      ["SELECT from_base64('a')", 'Last unit does not have enough valid bits'],
      ["SELECT from_base64('ab!c')", 'Illegal base64 character 21'],
      ["SELECT from_base64('Zg=')", 'Input byte array has wrong 4-byte ending unit'],
      ["SELECT from_base32('M')", 'Invalid input length 1'],
      ["SELECT from_big_endian_32(X'01')", 'Expected 4-byte input, but got instead: 1'],
      ["SELECT from_big_endian_64(X'01')", 'Expected 8-byte input, but got instead: 1'],
      ["SELECT from_ieee754_32(X'01')", 'Input floating-point value must be exactly 4 bytes long'],
      ["SELECT from_ieee754_64(X'01')", 'Input floating-point value must be exactly 8 bytes long'],
      ["SELECT lpad(X'01', 3, X'')", 'Padding bytes must not be empty'],
      ["SELECT lpad(X'01', -1, X'00')", 'Target length must be in the range [0..2147483647]'],
    ],
    engine,
  );

  it('wrong argument types name the function and its signatures', async () => {
    const error = await engine.failure("SELECT md5('text')");
    expect(error.errorName).to.equal('FUNCTION_NOT_FOUND');
    expect(error.rawMessage).to.equal('Unexpected parameters (varchar(4)) for function md5. Expected: md5(varbinary)');
  });
});
