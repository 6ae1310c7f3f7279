// Binary functions (Trino's functions/binary page): encodings, integer and IEEE 754 byte forms,
// checksums and hashes of varbinary values. length, concat and reverse of varbinary live with their
// string namesakes in string-functions.ts.

import { createHash, createHmac } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { EngineError } from '../../../errors/engine-error.js';
import { BIGINT, DOUBLE, INTEGER, REAL, VARBINARY, VARCHAR } from '../../../types/types.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from '../signature.js';
import { fromBase32, fromBase64, fromBase64Url, fromHex, toBase32, toBase64, toBase64Url, toHex } from './base-encodings.js';
import { murmur3x64128, xxhash64 } from './non-cryptographic-hashes.js';
import { spookyHashV2x32, spookyHashV2x64 } from './spooky-hash-v2.js';

const VARCHAR_X = { family: 'varchar' } as const;

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

const binary = (
  params: SignatureTemplate['params'],
  returnType: SignatureTemplate['returnType'],
  f: (...args: never[]) => number | bigint | string | Uint8Array,
): SignatureTemplate => ({
  params,
  returnType,
  implement: () => body(f),
});

function define(name: string, description: string, ...signatures: SignatureTemplate[]): ScalarFunctionDefinition {
  return { names: [name], description, signatures };
}

/** text -> bytes decoders take varchar and, as Trino's, the same text as varbinary. */
function decoder(name: string, description: string, decode: (text: string) => Uint8Array): ScalarFunctionDefinition {
  return define(
    name,
    description,
    binary([VARCHAR_X], VARBINARY, decode),
    binary([VARBINARY], VARBINARY, (bytes: Uint8Array) => decode(Buffer.from(bytes).toString('latin1'))),
  );
}

function digest(name: string, algorithm: string): ScalarFunctionDefinition {
  return define(
    name,
    `Compute ${name} hash`,
    binary([VARBINARY], VARBINARY, (bytes: Uint8Array) => new Uint8Array(createHash(algorithm).update(bytes).digest())),
  );
}

function hmac(name: string, algorithm: string): ScalarFunctionDefinition {
  return define(
    name,
    `Compute HMAC with ${algorithm.toUpperCase()}`,
    binary(
      [VARBINARY, VARBINARY],
      VARBINARY,
      (bytes: Uint8Array, key: Uint8Array) => new Uint8Array(createHmac(algorithm, key).update(bytes).digest()),
    ),
  );
}

function exactBytes(bytes: Uint8Array, width: number, message: string): DataView {
  if (bytes.length !== width) throw invalidArgument(message);
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function bytesOf(width: number, write: (view: DataView) => void): Uint8Array {
  const out = new Uint8Array(width);
  write(new DataView(out.buffer));
  return out;
}

/** substr over bytes with the string function's rules: 1-based, negative counts from the end. */
function substrBytes(bytes: Uint8Array, start: bigint, length: bigint): Uint8Array {
  if (start === 0n || length <= 0n || bytes.length === 0) return new Uint8Array(0);
  const size = BigInt(bytes.length);
  const from = start > 0n ? start - 1n : start + size;
  if (from < 0n || from >= size) return new Uint8Array(0);
  const to = from + length > size ? size : from + length;
  return bytes.slice(Number(from), Number(to));
}

/** The longest value a pad may build: a bound on one row's memory, far above any real use. */
const MAX_PADDED_BYTES = 1 << 30;

function padBytes(left: boolean) {
  return (bytes: Uint8Array, size: bigint, padding: Uint8Array): Uint8Array => {
    if (size < 0n || size > 2147483647n) throw invalidArgument('Target length must be in the range [0..2147483647]');
    if (padding.length === 0) throw invalidArgument('Padding bytes must not be empty');
    const target = Number(size);
    if (target > MAX_PADDED_BYTES)
      throw invalidArgument(`Padded value would be longer than ${MAX_PADDED_BYTES} bytes, the longest supported`);
    if (bytes.length >= target) return bytes.slice(0, target);
    const out = new Uint8Array(target);
    const fillFrom = left ? 0 : bytes.length;
    const fillLength = target - bytes.length;
    for (let i = 0; i < fillLength; i++) out[fillFrom + i] = padding[i % padding.length];
    out.set(bytes, left ? fillLength : 0);
    return out;
  };
}

export const BINARY_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['substr', 'substring'],
    description: 'Substring of given length starting at an index',
    signatures: [
      binary([VARBINARY, BIGINT], VARBINARY, (bytes: Uint8Array, start: bigint) => substrBytes(bytes, start, BigInt(bytes.length))),
      binary([VARBINARY, BIGINT, BIGINT], VARBINARY, substrBytes),
    ],
  },
  define('lpad', 'Pad a varbinary on the left to the given length', binary([VARBINARY, BIGINT, VARBINARY], VARBINARY, padBytes(true))),
  define('rpad', 'Pad a varbinary on the right to the given length', binary([VARBINARY, BIGINT, VARBINARY], VARBINARY, padBytes(false))),
  define('to_hex', 'Encode binary data as hex', binary([VARBINARY], VARCHAR, toHex)),
  decoder('from_hex', 'Decode hex encoded binary data', fromHex),
  define('to_base64', 'Encode binary data as base64', binary([VARBINARY], VARCHAR, toBase64)),
  decoder('from_base64', 'Decode base64 encoded binary data', fromBase64),
  define('to_base64url', 'Encode binary data as base64 using the URL safe alphabet', binary([VARBINARY], VARCHAR, toBase64Url)),
  decoder('from_base64url', 'Decode URL safe base64 encoded binary data', fromBase64Url),
  define('to_base32', 'Encode binary data as base32', binary([VARBINARY], VARCHAR, toBase32)),
  decoder('from_base32', 'Decode base32 encoded binary data', fromBase32),
  define(
    'to_big_endian_32',
    "Encode value as a 32-bit 2's complement big endian varbinary",
    binary([INTEGER], VARBINARY, (value: number) => bytesOf(4, (v) => v.setInt32(0, value, false))),
  ),
  define(
    'from_big_endian_32',
    "Decode bigint value from a 32-bit 2's complement big endian varbinary",
    binary([VARBINARY], INTEGER, (bytes: Uint8Array) =>
      exactBytes(bytes, 4, `Expected 4-byte input, but got instead: ${bytes.length}`).getInt32(0, false),
    ),
  ),
  define(
    'to_big_endian_64',
    "Encode value as a 64-bit 2's complement big endian varbinary",
    binary([BIGINT], VARBINARY, (value: bigint) => bytesOf(8, (v) => v.setBigInt64(0, value, false))),
  ),
  define(
    'from_big_endian_64',
    "Decode bigint value from a 64-bit 2's complement big endian varbinary",
    binary([VARBINARY], BIGINT, (bytes: Uint8Array) =>
      exactBytes(bytes, 8, `Expected 8-byte input, but got instead: ${bytes.length}`).getBigInt64(0, false),
    ),
  ),
  define(
    'to_ieee754_32',
    'Encode value as a big endian varbinary according to IEEE 754 single-precision floating-point format',
    binary([REAL], VARBINARY, (value: number) => bytesOf(4, (v) => v.setFloat32(0, value, false))),
  ),
  define(
    'from_ieee754_32',
    'Decode the 32-bit big-endian binary in IEEE 754 single-precision floating-point format',
    binary([VARBINARY], REAL, (bytes: Uint8Array) =>
      exactBytes(bytes, 4, 'Input floating-point value must be exactly 4 bytes long').getFloat32(0, false),
    ),
  ),
  define(
    'to_ieee754_64',
    'Encode value as a big endian varbinary according to IEEE 754 double-precision floating-point format',
    binary([DOUBLE], VARBINARY, (value: number) => bytesOf(8, (v) => v.setFloat64(0, value, false))),
  ),
  define(
    'from_ieee754_64',
    'Decode the 64-bit big-endian binary in IEEE 754 double-precision floating-point format',
    binary([VARBINARY], DOUBLE, (bytes: Uint8Array) =>
      exactBytes(bytes, 8, 'Input floating-point value must be exactly 8 bytes long').getFloat64(0, false),
    ),
  ),
  define(
    'crc32',
    'Compute CRC-32',
    binary([VARBINARY], BIGINT, (bytes: Uint8Array) => BigInt(crc32(bytes))),
  ),
  digest('md5', 'md5'),
  digest('sha1', 'sha1'),
  digest('sha256', 'sha256'),
  digest('sha512', 'sha512'),
  hmac('hmac_md5', 'md5'),
  hmac('hmac_sha1', 'sha1'),
  hmac('hmac_sha256', 'sha256'),
  hmac('hmac_sha512', 'sha512'),
  define('xxhash64', 'Compute xxhash64 hash', binary([VARBINARY], VARBINARY, xxhash64)),
  define('murmur3', 'Compute murmur3 hash', binary([VARBINARY], VARBINARY, murmur3x64128)),
  define('spooky_hash_v2_32', 'Compute SpookyHashV2 32-bit hash', binary([VARBINARY], VARBINARY, spookyHashV2x32)),
  define('spooky_hash_v2_64', 'Compute SpookyHashV2 64-bit hash', binary([VARBINARY], VARBINARY, spookyHashV2x64)),
];
