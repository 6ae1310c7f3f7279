// checksum(x): Trino's order-insensitive checksum, the 64-bit wrapping sum over the rows of
// xxHash64(value) * PRIME64 (PRIME64 alone for a NULL), as 8 little-endian bytes; NULL over no
// rows. Each value hashes as Trino's type's XX_HASH_64 operator does: the xxHash64 of its long
// (integers, dates, short decimals, boolean as 0/1, real and double as their bits with -0 as 0), of
// its two longs for long decimals, of its bytes for strings and binaries; times and timestamps as
// temporal-checksum.ts has them. Other types are refused.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { xxhash64 } from '../scalar/binary/non-cryptographic-hashes.js';
import { getScalar, type Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { BIGINT, SHORT_DECIMAL_PRECISION, VARBINARY, typeName, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow } from './accumulator-support.js';
import { temporalValueHash } from './temporal-checksum.js';

const PRIME64 = 0x9e3779b185ebca87n;
const encoder = new TextEncoder();

/** xxHash64 of the 8 little-endian bytes of a long (airlift's XxHash64.hash(long)), signed. */
function hashLong(value: bigint): bigint {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, BigInt.asIntN(64, value), true);
  return hashBytes(bytes);
}

function hashBytes(bytes: Uint8Array): bigint {
  const digest = xxhash64(bytes);
  return new DataView(digest.buffer, digest.byteOffset, 8).getBigInt64(0, false);
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

/** The XX_HASH_64 of a non-null value of `type`, as Trino's type has it; undefined for types not covered. */
function valueHash(type: SqlType): ((value: Scalar) => bigint) | undefined {
  switch (type.kind) {
    case 'boolean':
      return (v) => hashLong(v === true || v === 1 ? 1n : 0n);
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'date':
      return (v) => hashLong(BigInt(v as number | bigint));
    case 'real':
      return (v) => hashLong(floatBits(v as number, 32));
    case 'double':
      return (v) => hashLong(floatBits(v as number, 64));
    case 'decimal':
      if (type.precision <= SHORT_DECIMAL_PRECISION) return (v) => hashLong(v as bigint);
      return (v) => hashLong((v as bigint) >> 64n) ^ hashLong(BigInt.asIntN(64, v as bigint));
    case 'varchar':
    case 'char':
      return (v) => hashBytes(encoder.encode(v as string));
    case 'varbinary':
      return (v) => hashBytes(v as Uint8Array);
    default:
      return temporalValueHash(type, hashLong);
  }
}

export function checksumFunction(type: SqlType, location?: SourceLocation): AggregateFunction {
  const hash = type.kind === 'unknown' ? () => 0n : valueHash(type);
  if (hash === undefined) throw new EngineError('NOT_SUPPORTED', `checksum of ${typeName(type)} values is not supported`, location);
  return {
    name: 'checksum',
    argumentTypes: [type],
    returnType: VARBINARY,
    intermediateTypes: [BIGINT],
    createAccumulator: () => new ChecksumAccumulator(hash),
  };
}

class ChecksumAccumulator implements GroupedAccumulator {
  private sums = new BigInt64Array(16);
  private seen = new Uint8Array(16);

  constructor(private readonly hash: (value: Scalar) => bigint) {}

  ensureCapacity(groupCount: number): void {
    if (this.sums.length < groupCount) {
      const sums = new BigInt64Array(Math.max(groupCount, this.sums.length * 2));
      sums.set(this.sums);
      this.sums = sums;
    }
    this.seen = grow(this.seen, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    for (let i = start; i < end; i++) {
      const value = getScalar(column, i);
      const g = groupIds[i];
      const term = value === null ? PRIME64 : this.hash(value) * PRIME64;
      this.sums[g] = BigInt.asIntN(64, this.sums[g] + term);
      this.seen[g] = 1;
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const column = intermediates[0];
    for (let i = start; i < end; i++) {
      const value = getScalar(column, i);
      if (value === null) continue;
      const g = groupIds[i];
      this.sums[g] = BigInt.asIntN(64, this.sums[g] + (value as bigint));
      this.seen[g] = 1;
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [
      finalColumn(BIGINT, start, end, (g, out, row) => {
        if (this.seen[g] === 0) out.nulls[row] = 1;
        else (out.values as BigInt64Array)[row] = this.sums[g];
      }),
    ];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(VARBINARY, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    if (this.seen[group] === 0) {
      out.nulls[row] = 1;
      return;
    }
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigInt64(0, this.sums[group], true);
    (out.values as Uint8Array[])[row] = bytes;
  }

  sizeInBytes(): number {
    return this.sums.byteLength + this.seen.byteLength;
  }
}
