// approx_distinct(x): HyperLogLog with 2048 registers (standard error 1.04/sqrt(2048) = 2.3%, Trino's
// default). A group starts sparse (a short list of (register, rank) pairs, exact for small counts
// through linear counting) and turns dense (2048 one-byte registers) once the list grows. Values hash
// through the engine's 32-bit value hashes: estimates stay within the error up to ~10^8 distinct values.

import type { Column } from '../../columnar/page.js';
import { hashColumn, mix32 } from '../../columnar/hash-functions.js';
import { BIGINT, VARBINARY, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn } from './accumulator-support.js';

const INDEX_BITS = 11;
const REGISTERS = 1 << INDEX_BITS;
const SPARSE_LIMIT = 128;
const ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);

/** A group's sketch: sparse entries (register << 5 | rank) or dense registers. */
type Sketch = number[] | Uint8Array;

function addHash(sketch: Sketch, hash: number): Sketch {
  const register = hash & (REGISTERS - 1);
  // The rank comes from a second mix of the hash, so it does not share bits with the register.
  const rank = Math.min(31, Math.clz32(mix32(hash ^ 0x5f356495) | 1) + 1);
  return setRegister(sketch, register, rank);
}

function setRegister(sketch: Sketch, register: number, rank: number): Sketch {
  if (sketch instanceof Uint8Array) {
    if (sketch[register] < rank) sketch[register] = rank;
    return sketch;
  }
  for (let i = 0; i < sketch.length; i++) {
    const entry = sketch[i];
    if (entry >>> 5 === register) {
      if ((entry & 31) < rank) sketch[i] = (register << 5) | rank;
      return sketch;
    }
  }
  sketch.push((register << 5) | rank);
  if (sketch.length <= SPARSE_LIMIT) return sketch;
  const dense = new Uint8Array(REGISTERS);
  for (const e of sketch) dense[e >>> 5] = e & 31;
  return dense;
}

function estimate(sketch: Sketch | undefined): number {
  if (sketch === undefined) return 0;
  if (!(sketch instanceof Uint8Array)) return Math.round(REGISTERS * Math.log(REGISTERS / (REGISTERS - sketch.length)));
  let sum = 0;
  let zeros = 0;
  for (let j = 0; j < REGISTERS; j++) {
    sum += 2 ** -sketch[j];
    if (sketch[j] === 0) zeros++;
  }
  const raw = (ALPHA * REGISTERS * REGISTERS) / sum;
  if (raw <= 2.5 * REGISTERS && zeros > 0) return Math.round(REGISTERS * Math.log(REGISTERS / zeros));
  return Math.round(raw);
}

/** Serialized: [0, then 2 bytes per sparse entry] or [1, then the 2048 registers]. */
function serialize(sketch: Sketch | undefined): Uint8Array {
  if (sketch instanceof Uint8Array) {
    const bytes = new Uint8Array(REGISTERS + 1);
    bytes[0] = 1;
    bytes.set(sketch, 1);
    return bytes;
  }
  const entries = sketch ?? [];
  const bytes = new Uint8Array(1 + entries.length * 2);
  for (let i = 0; i < entries.length; i++) {
    bytes[1 + 2 * i] = entries[i] >>> 8;
    bytes[2 + 2 * i] = entries[i] & 0xff;
  }
  return bytes;
}

function merge(sketch: Sketch, bytes: Uint8Array): Sketch {
  if (bytes[0] === 1) {
    for (let j = 0; j < REGISTERS; j++) if (bytes[j + 1] > 0) sketch = setRegister(sketch, j, bytes[j + 1]);
    return sketch;
  }
  for (let i = 1; i + 1 < bytes.length; i += 2) {
    const entry = (bytes[i] << 8) | bytes[i + 1];
    sketch = setRegister(sketch, entry >>> 5, entry & 31);
  }
  return sketch;
}

class ApproxDistinctAccumulator implements GroupedAccumulator {
  private sketches: (Sketch | undefined)[] = [];
  private hashes = new Int32Array(0);
  private denseCount = 0;
  private sparseEntries = 0;

  ensureCapacity(groupCount: number): void {
    while (this.sketches.length < groupCount) this.sketches.push(undefined);
  }

  /** Stores a group's new sketch; `sparseBefore` is its sparse length before (-1 when dense). */
  private store(group: number, next: Sketch, sparseBefore: number): void {
    if (next instanceof Uint8Array) {
      if (sparseBefore >= 0) {
        this.denseCount++;
        this.sparseEntries -= sparseBefore;
      }
    } else {
      this.sparseEntries += next.length - sparseBefore;
    }
    this.sketches[group] = next;
  }

  private sparseLength(group: number): number {
    const sketch = this.sketches[group];
    return sketch === undefined ? 0 : sketch instanceof Uint8Array ? -1 : sketch.length;
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    if (this.hashes.length < end) this.hashes = new Int32Array(end);
    hashColumn(column, end, this.hashes, false);
    const nulls = column.nulls;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      const sparseBefore = this.sparseLength(g);
      this.store(g, addHash(this.sketches[g] ?? [], this.hashes[i]), sparseBefore);
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const column = intermediates[0];
    const values = column.values as Uint8Array[];
    for (let i = start; i < end; i++) {
      if (column.nulls !== null && column.nulls[i] === 1) continue;
      const g = groupIds[i];
      const sparseBefore = this.sparseLength(g);
      this.store(g, merge(this.sketches[g] ?? [], values[i]), sparseBefore);
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const values: Uint8Array[] = [];
    for (let g = start; g < end; g++) values.push(serialize(this.sketches[g]));
    return [{ type: VARBINARY, length: end - start, values, nulls: null }];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(BIGINT, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    (out.values as BigInt64Array)[row] = BigInt(estimate(this.sketches[group]));
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.sketches.length * 8 + this.denseCount * REGISTERS + this.sparseEntries * 8;
  }
}

export function approxDistinctFunction(argumentType: SqlType): AggregateFunction {
  return {
    name: 'approx_distinct',
    argumentTypes: [argumentType],
    returnType: BIGINT,
    intermediateTypes: [VARBINARY],
    createAccumulator: () => new ApproxDistinctAccumulator(),
  };
}
