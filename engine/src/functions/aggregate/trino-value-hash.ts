// Trino's two 64-bit hashes of a value, as checksum(x) needs them: XX_HASH_64 (what checksum sums)
// and HASH_CODE (what a row's XX_HASH_64 combines its fields with). A type held in one long L hashes
// as xxHash64(L) and has the hash code xxHash64's mix of L (AbstractLongType.hash); a type without its
// own hash code (boolean, strings, json, binaries, long decimals, timestamps above precision 6, zoned ones
// above 3, uuid, ipaddress) uses its XX_HASH_64. Containers, as Trino's ArrayType, MapType, RowType:
// an array folds `31 * h + element`, a NULL element 0; a map sums `key ^ value` per entry (order-free);
// a row starts at 1 and folds `31 * h + field` with its fields' hash codes, for both hashes.

import { xxhash64 } from '../scalar/binary/non-cryptographic-hashes.js';
import type { MapValue } from '../../types/map-value.js';
import type { Scalar } from '../../types/scalar.js';
import { uuidToBytes } from '../../types/uuid-type.js';
import { colorCode } from '../../types/color-type.js';
import { SHORT_DECIMAL_PRECISION, type SqlType } from '../../types/types.js';
import { isLongZoned } from '../../types/long-zoned-timestamp.js';
import { MAX_SHORT_PLAIN_PRECISION } from '../../types/long-plain-temporal.js';
import { temporalValueHash } from './temporal-checksum.js';

export type HashFlavor = 'xxhash64' | 'hashCode';
export type ValueHash = (value: Scalar) => bigint;

const PRIME64_1 = 0x9e3779b185ebca87n;
const PRIME64_2 = 0xc2b2ae3d27d4eb4fn;
const encoder = new TextEncoder();

/** xxHash64 of the 8 little-endian bytes of a long (airlift's XxHash64.hash(long)), signed. */
export function xxHashLong(value: bigint): bigint {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, BigInt.asIntN(64, value), true);
  return xxHashBytes(bytes);
}

function xxHashBytes(bytes: Uint8Array): bigint {
  const digest = xxhash64(bytes);
  return new DataView(digest.buffer, digest.byteOffset, 8).getBigInt64(0, false);
}

/** AbstractLongType.hash: rotateLeft(value * PRIME64_2, 31) * PRIME64_1, signed. */
function mixLong(value: bigint): bigint {
  const product = BigInt.asUintN(64, value * PRIME64_2);
  const rotated = BigInt.asUintN(64, (product << 31n) | (product >> 33n));
  return BigInt.asIntN(64, rotated * PRIME64_1);
}

function floatBits(value: number, width: 32 | 64): bigint {
  const view = new DataView(new ArrayBuffer(8));
  if (width === 32) {
    if (Number.isNaN(value)) return 0x7fc00000n;
    view.setFloat32(0, value === 0 ? 0 : value);
    return BigInt(view.getInt32(0));
  }
  if (Number.isNaN(value)) return 0x7ff8000000000000n;
  view.setFloat64(0, value === 0 ? 0 : value);
  return view.getBigInt64(0);
}

/** The long a one-long type holds for a value (Trino's representation), or undefined for other types. */
function longOf(type: SqlType): ((value: Scalar) => bigint) | undefined {
  switch (type.kind) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'date':
    case 'interval year to month': // months
    case 'interval day to second': // milliseconds
      return (v) => BigInt(v as number | bigint);
    case 'color': // Trino's int code
      return (v) => BigInt(colorCode(v as string));
    case 'real':
      return (v) => floatBits(v as number, 32);
    case 'double':
      return (v) => floatBits(v as number, 64);
    case 'decimal':
      return type.precision <= SHORT_DECIMAL_PRECISION ? (v) => v as bigint : undefined;
    default:
      return undefined;
  }
}

/** The two halves of a 16-byte value read as little-endian longs, each xxHashed, XORed (UuidType, IpAddressType). */
function int128Hash(bytes: Uint8Array): bigint {
  return xxHashBytes(bytes.subarray(0, 8)) ^ xxHashBytes(bytes.subarray(8, 16));
}

/** The hash of a non-null value of `type` in `flavor`, as Trino's type has it; undefined for types not covered. */
export function trinoValueHash(type: SqlType, flavor: HashFlavor): ValueHash | undefined {
  const long = longOf(type);
  if (long !== undefined) return flavor === 'xxhash64' ? (v) => xxHashLong(long(v)) : (v) => mixLong(long(v));
  switch (type.kind) {
    case 'unknown': // only NULLs, which containers hash as 0 and checksum counts as PRIME64
      return () => 0n;
    case 'boolean':
      return (v) => xxHashLong(v === true || v === 1 ? 1n : 0n);
    case 'decimal':
      return (v) => xxHashLong((v as bigint) >> 64n) ^ xxHashLong(BigInt.asIntN(64, v as bigint));
    case 'varchar':
    case 'char':
    case 'json': // its canonical text's bytes
      return (v) => xxHashBytes(encoder.encode(v as string));
    case 'varbinary':
      return (v) => xxHashBytes(v as Uint8Array);
    case 'uuid':
      return (v) => int128Hash(uuidToBytes(v as string));
    case 'ipaddress':
      return (v) => int128Hash(Uint8Array.from(Buffer.from(v as string, 'hex')));
    case 'array':
      return arrayHash(type.element, flavor);
    case 'map':
      return mapHash(type.key, type.value, flavor);
    case 'row':
      return rowHash(type.fields.map((field) => field.type));
    default:
      return temporalHash(type, flavor);
  }
}

function arrayHash(elementType: SqlType, flavor: HashFlavor): ValueHash | undefined {
  const element = trinoValueHash(elementType, flavor);
  if (element === undefined) return undefined;
  return (v) => {
    let hash = 0n;
    for (const item of v as readonly Scalar[]) hash = BigInt.asIntN(64, 31n * hash + (item === null ? 0n : element(item)));
    return hash;
  };
}

function mapHash(keyType: SqlType, valueType: SqlType, flavor: HashFlavor): ValueHash | undefined {
  const key = trinoValueHash(keyType, flavor);
  const value = trinoValueHash(valueType, flavor);
  if (key === undefined || value === undefined) return undefined;
  return (v) => {
    const map = v as MapValue;
    let hash = 0n;
    for (let i = 0; i < map.size; i++) {
      const entryValue = map.values[i];
      hash = BigInt.asIntN(64, hash + (key(map.keys[i]) ^ (entryValue === null ? 0n : value(entryValue))));
    }
    return hash;
  };
}

function rowHash(fieldTypes: readonly SqlType[]): ValueHash | undefined {
  const fields = fieldTypes.map((type) => trinoValueHash(type, 'hashCode'));
  if (fields.some((field) => field === undefined)) return undefined;
  return (v) => {
    const values = v as readonly Scalar[];
    let hash = 1n;
    for (let i = 0; i < fields.length; i++) {
      const fieldValue = values[i];
      hash = BigInt.asIntN(64, 31n * hash + (fieldValue === null ? 0n : (fields[i] as ValueHash)(fieldValue)));
    }
    return hash;
  };
}

/**
 * Times and timestamps: their XX_HASH_64 as temporal-checksum.ts has it; their hash code the mix of
 * the same long, except where Trino's type (a timestamp above precision 6, a zoned one above 3) has
 * no hash code of its own and uses its XX_HASH_64.
 */
function temporalHash(type: SqlType, flavor: HashFlavor): ValueHash | undefined {
  if (flavor === 'xxhash64') return temporalValueHash(type, xxHashLong);
  const twoLongs =
    (type.kind === 'timestamp' && type.precision > MAX_SHORT_PLAIN_PRECISION) ||
    (type.kind === 'timestamp with time zone' && isLongZoned(type.precision));
  return temporalValueHash(type, twoLongs ? xxHashLong : mixLong);
}
