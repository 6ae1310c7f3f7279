// checksum(x): Trino's order-insensitive checksum, the 64-bit wrapping sum over the rows of
// xxHash64(value) * PRIME64 (PRIME64 alone for a NULL), as 8 little-endian bytes; NULL over no
// rows. Each value hashes as Trino's type's XX_HASH_64 operator does (trino-value-hash.ts): scalars,
// arrays, maps, rows, uuid, ipaddress, json and intervals. Other types (sketches, variant) are refused.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { getScalar, type Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { BIGINT, VARBINARY, typeName, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow } from './accumulator-support.js';
import { trinoValueHash } from './trino-value-hash.js';

const PRIME64 = 0x9e3779b185ebca87n;

export function checksumFunction(type: SqlType, location?: SourceLocation): AggregateFunction {
  const hash = trinoValueHash(type, 'xxhash64');
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
