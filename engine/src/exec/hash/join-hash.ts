// The lookup table of a hash join over the (concatenated) build side. Open addressing over an
// Int32Array whose slots hold one build row per distinct key; rows with an equal key are chained
// through `next` in build order. Keys match by SQL `=`: rows with a NULL key are never inserted
// (they are listed in `nullKeyRows` for outer and null-aware joins).

import type { Column } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { yieldIfDue } from '../../columnar/cooperative.js';
import type { Turns } from '../operators/sort-cooperatively.js';
import { tableCapacity } from './group-by-hash.js';
import { hashRows } from '../../columnar/hash-functions.js';
import { anyNullKey, type JoinLookup } from './join-lookup.js';
import { makeKeyEquals } from './row-equality.js';
import { newInt32Array, type SharedJoinHash } from './shared-join-lookup.js';
import { addKeyBit, KeyBitsTrial, keyBitsBytes, keyBitShift, mayHaveKey, newKeyBits } from './key-bits.js';
import { regionOf, tableRegions, type TableRegions } from './table-regions.js';

const EMPTY = -1;
/** Rows hashed or inserted between two chances to yield the event loop (well under a millisecond of work). */
const BUILD_SLICE_ROWS = 8192;

export class JoinHash implements JoinLookup {
  private readonly slots: Int32Array;
  /** Its slots cut into regions when threads filled it (table-regions); one region otherwise. */
  private readonly regions: TableRegions;
  private readonly hashes: Int32Array;
  /** next[row]: the next build row with the same key as `row`, or -1. */
  readonly next: Int32Array;
  /** A filter of the keys' hashes tested before the table (see key-bits); empty: none (too many keys). */
  private readonly keyBits: Int32Array;
  private readonly keyBitShift: number;
  /** Whether the filter still rejects enough of this thread's probes to be worth its read. */
  private readonly keyBitsTrial: KeyBitsTrial;
  private nullKeyRowIndexes: Int32Array = new Int32Array(0);
  private probeHashes = new Int32Array(0);

  /** The table over `rowCount` rows of `buildKeys`, built a slice of rows at a time so that the event loop gets its turns. */
  /** `shared`: in shared memory, for other threads to probe. */
  static async build(
    types: readonly SqlType[],
    buildKeys: readonly Column[],
    rowCount: number,
    turns?: Turns,
    shared = false,
  ): Promise<JoinHash> {
    const hash = JoinHash.empty(types, buildKeys, rowCount, 0, shared);
    await hash.insertAll(turns);
    return hash;
  }

  /** The empty table over `rowCount` rows cut into 2^regionBits regions, for threads to fill (hashRange, insertRegion). */
  static empty(types: readonly SqlType[], buildKeys: readonly Column[], rowCount: number, regionBits: number, shared: boolean): JoinHash {
    return new JoinHash(
      types,
      buildKeys,
      rowCount,
      newInt32Array(tableCapacity(rowCount), shared).fill(EMPTY),
      newInt32Array(rowCount, shared),
      newInt32Array(rowCount, shared).fill(EMPTY),
      newKeyBits(rowCount, shared),
      regionBits,
    );
  }

  /** The table another thread shared, over `buildKeys` (this thread's view of the same build rows). */
  static fromShared(shared: SharedJoinHash, buildKeys: readonly Column[]): JoinHash {
    const hash = new JoinHash(
      shared.types,
      buildKeys,
      shared.rowCount,
      shared.slots,
      shared.hashes,
      shared.next,
      shared.keyBits,
      shared.regionBits,
    );
    hash.nullKeyRowIndexes = shared.nullKeyRows;
    return hash;
  }

  share(): SharedJoinHash {
    return {
      kind: 'general',
      types: this.types,
      rowCount: this.rowCount,
      slots: this.slots,
      hashes: this.hashes,
      next: this.next,
      keyBits: this.keyBits,
      nullKeyRows: this.nullKeyRowIndexes,
      regionBits: this.regions.regionBits,
    };
  }

  /** Build rows with a NULL in some key column. */
  get nullKeyRows(): Int32Array {
    return this.nullKeyRowIndexes;
  }

  /** Sets the rows with a NULL key (a table filled by threads: they only skip them). */
  set nullKeyRows(rows: Int32Array) {
    this.nullKeyRowIndexes = rows;
  }

  /** In a worker thread: the hashes of build rows [from, end), the first step of a fill by threads. */
  hashRange(from: number, end: number): void {
    hashRows(this.buildKeys, end, this.hashes, from);
  }

  /**
   * In a worker thread, once every row is hashed: inserts the rows whose keys fall in `region`. False
   * when the region ran out of slots (keys this skewed: the caller builds in one thread).
   */
  insertRegion(region: number): boolean {
    const hasNull = anyNullKey(this.buildKeys, this.rowCount);
    return this.insertRows(hasNull, 0, this.rowCount, [], region, this.regions.regionMask) > 0;
  }

  private constructor(
    private readonly types: readonly SqlType[],
    private readonly buildKeys: readonly Column[],
    readonly rowCount: number,
    slots: Int32Array,
    hashes: Int32Array,
    next: Int32Array,
    keyBits: Int32Array,
    regionBits: number,
  ) {
    this.slots = slots;
    this.regions = tableRegions(slots.length, regionBits);
    this.hashes = hashes;
    this.next = next;
    this.keyBits = keyBits;
    this.keyBitShift = keyBitShift(keyBits);
    this.keyBitsTrial = new KeyBitsTrial(keyBits.length > 0);
  }

  private async insertAll(turns: Turns | undefined): Promise<void> {
    const rowCount = this.rowCount;
    for (let from = 0; from < rowCount; from += BUILD_SLICE_ROWS) {
      hashRows(this.buildKeys, Math.min(rowCount, from + BUILD_SLICE_ROWS), this.hashes, from);
      await yieldIfDue(turns?.signal, turns?.stats);
    }
    const hasNull = anyNullKey(this.buildKeys, rowCount);
    const nullRows: number[] = [];
    const everyRegion = -1;
    for (let end = rowCount; end > 0; end -= BUILD_SLICE_ROWS) {
      this.insertRows(hasNull, Math.max(0, end - BUILD_SLICE_ROWS), end, nullRows, everyRegion, rowCount + 1);
      await yieldIfDue(turns?.signal, turns?.stats);
    }
    this.nullKeyRowIndexes = Int32Array.from(nullRows.reverse());
  }

  /**
   * Inserts hashed rows [first, end) in reverse (prepending keeps each chain in build order), those
   * of `region` only (-1: every row); `room`: new keys the region still takes (one slot is always
   * left empty, where probes stop). Returns the room left, 0 when it ran out.
   */
  private insertRows(hasNull: Uint8Array | null, first: number, end: number, nullRows: number[], region: number, room: number): number {
    const equals = makeKeyEquals(this.types, this.buildKeys, this.buildKeys, false);
    const { regionBits, regionLog2, regionMask } = this.regions;
    for (let row = end - 1; row >= first; row--) {
      if (hasNull !== null && hasNull[row] === 1) {
        nullRows.push(row);
        continue;
      }
      const h = this.hashes[row];
      const keyRegion = regionBits === 0 ? 0 : regionOf(h, regionBits);
      if (region >= 0 && keyRegion !== region) continue;
      if (this.keyBits.length > 0) addKeyBit(this.keyBits, h, this.keyBitShift);
      const base = keyRegion << regionLog2;
      let slot = base | (h & regionMask);
      for (;;) {
        const head = this.slots[slot];
        if (head === EMPTY) {
          if (--room === 0) return 0;
          this.slots[slot] = row;
          break;
        }
        if (this.hashes[head] === h && equals(row, head)) {
          this.next[row] = head;
          this.slots[slot] = row;
          break;
        }
        slot = base | ((slot + 1) & regionMask);
      }
    }
    return room;
  }

  /**
   * For rows [0, count) of the probe keys, writes the first matching build row (or -1) into `out`.
   * When `probeNulls` is given, it is set to 1 for probe rows with a NULL key.
   */
  lookup(probeKeys: readonly Column[], count: number, out: Int32Array, probeNulls?: Uint8Array): void {
    if (this.probeHashes.length < count) this.probeHashes = new Int32Array(count);
    const hashes = this.probeHashes;
    hashRows(probeKeys, count, hashes);
    const hasNull = anyNullKey(probeKeys, count);
    const equals = makeKeyEquals(this.types, probeKeys, this.buildKeys, false);
    const keyBits = this.keyBits;
    const filtered = this.keyBitsTrial.active;
    const shift = this.keyBitShift;
    const { regionBits, regionLog2, regionMask } = this.regions;
    let rejected = 0;
    for (let row = 0; row < count; row++) {
      if (hasNull !== null && hasNull[row] === 1) {
        out[row] = EMPTY;
        if (probeNulls !== undefined) probeNulls[row] = 1;
        continue;
      }
      if (probeNulls !== undefined) probeNulls[row] = 0;
      const h = hashes[row];
      if (filtered && !mayHaveKey(keyBits, h, shift)) {
        out[row] = EMPTY;
        rejected++;
        continue;
      }
      const base = regionBits === 0 ? 0 : regionOf(h, regionBits) << regionLog2;
      let slot = base | (h & regionMask);
      let found = EMPTY;
      for (;;) {
        const head = this.slots[slot];
        if (head === EMPTY) break;
        if (this.hashes[head] === h && equals(row, head)) {
          found = head;
          break;
        }
        slot = base | ((slot + 1) & regionMask);
      }
      out[row] = found;
    }
    if (filtered) this.keyBitsTrial.record(count, rejected);
  }

  /** What a table over `rows` build rows retains (reserve it before building). */
  static estimateBytes(rows: number): number {
    return tableCapacity(rows) * 4 + rows * 8 + keyBitsBytes(rows);
  }

  sizeInBytes(): number {
    return this.slots.byteLength + this.hashes.byteLength + this.next.byteLength + this.keyBits.byteLength + this.nullKeyRows.byteLength;
  }
}
