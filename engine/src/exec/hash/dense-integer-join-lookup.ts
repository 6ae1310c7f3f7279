// The lookup table of a hash join on one integer key whose build keys are dense: they span no more
// numbers than IntegerJoinHash's table would take words, as surrogate keys do (TPC-H's order, part,
// supplier and customer keys). Key k's first build row sits at heads[k - base]: a build writes and
// a probe reads one word, with no hash, no probing and no filter, and keys in order (a table
// clustered by its key, lineitem by order) write and read the heads in order too; the hashed table
// put every key at a random slot (a cache miss a row: 200 ms of q7's 1.5M orders). Equal keys chain
// through next in build order, as in IntegerJoinHash. DuckDB's perfect hash join does the same.

import type { Column } from '../../columnar/page.js';
import { yieldIfDue } from '../../columnar/cooperative.js';
import type { Turns } from '../operators/sort-cooperatively.js';
import { tableCapacity } from './group-by-hash.js';
import { integerKeyWords, integerProbeKeys, keyRunsOf } from './integer-join-hash.js';
import { anyNullKey, type JoinLookup } from './join-lookup.js';
import { newInt32Array, type SharedDenseIntegerJoinLookup } from './shared-join-lookup.js';

const EMPTY = -1;
/** Rows inserted between two chances to yield the event loop. */
const BUILD_SLICE_ROWS = 65536;
const TWO_POW_32 = 4294967296;
/** |high word| below this: the int64 is a safe integer, high * 2^32 + low. */
const SAFE_HIGH_WORD = 2 ** 21;
/** Words a slot of IntegerJoinHash's table takes (first row, key's low and high words). */
const HASHED_SLOT_WORDS = 3;

export class DenseIntegerJoinLookup implements JoinLookup {
  private probeScratch: Int32Array | undefined;

  /**
   * The table over `rowCount` rows of one integer key column, or undefined when its keys are not
   * dense (or not all within 2^53): IntegerJoinHash takes them. `shared`: in shared memory, for other threads to probe.
   */
  static async build(buildKey: Column, rowCount: number, turns?: Turns, shared = false): Promise<DenseIntegerJoinLookup | undefined> {
    const words = integerKeyWords(buildKey, rowCount);
    const hasNull = anyNullKey([buildKey], rowCount);
    const range = keyRange(words, hasNull, rowCount);
    if (range === undefined || range.span > HASHED_SLOT_WORDS * tableCapacity(keyRunsOf(buildKey, rowCount))) return undefined;
    const heads = newInt32Array(range.span, shared);
    const next = newInt32Array(rowCount, shared);
    const nullRows: number[] = [];
    // Inserting in reverse and prepending keeps each chain in build order.
    for (let end = rowCount; end > 0; end -= BUILD_SLICE_ROWS) {
      const first = Math.max(0, end - BUILD_SLICE_ROWS);
      for (let row = end - 1; row >= first; row--) {
        if (hasNull !== null && hasNull[row] === 1) {
          next[row] = EMPTY;
          nullRows.push(row);
          continue;
        }
        const offset = words[2 * row + 1] * TWO_POW_32 + (words[2 * row] >>> 0) - range.base;
        next[row] = heads[offset] - 1;
        heads[offset] = row + 1;
      }
      await yieldIfDue(turns?.signal, turns?.stats);
    }
    return new DenseIntegerJoinLookup(rowCount, range.base, heads, next, Int32Array.from(nullRows.reverse()));
  }

  /** The table another thread shared (probed read only). */
  static fromShared(shared: SharedDenseIntegerJoinLookup): DenseIntegerJoinLookup {
    return new DenseIntegerJoinLookup(shared.rowCount, shared.base, shared.heads, shared.next, shared.nullKeyRows);
  }

  private constructor(
    readonly rowCount: number,
    /** The smallest build key: heads[k - base] holds key k's first build row plus one (0: none). */
    private readonly base: number,
    private readonly heads: Int32Array,
    readonly next: Int32Array,
    readonly nullKeyRows: Int32Array,
  ) {}

  share(): SharedDenseIntegerJoinLookup {
    return {
      kind: 'dense-integer',
      rowCount: this.rowCount,
      base: this.base,
      heads: this.heads,
      next: this.next,
      nullKeyRows: this.nullKeyRows,
    };
  }

  lookup(probeKeys: readonly Column[], count: number, out: Int32Array, probeNulls?: Uint8Array): void {
    const { words, hasNull, scratch } = integerProbeKeys(probeKeys, count, this.probeScratch, probeNulls);
    this.probeScratch = scratch;
    const { heads, base } = this;
    const span = heads.length;
    for (let row = 0; row < count; row++) {
      const high = words[2 * row + 1];
      // A key beyond 2^53 is outside the build keys' range (all within it): no match.
      if ((hasNull !== null && hasNull[row] === 1) || high >= SAFE_HIGH_WORD || high < -SAFE_HIGH_WORD) {
        out[row] = EMPTY;
        continue;
      }
      // Exact where it matters: both terms are safe integers, and a difference below 2^31 is representable.
      const offset = high * TWO_POW_32 + (words[2 * row] >>> 0) - base;
      out[row] = offset >= 0 && offset < span ? heads[offset] - 1 : EMPTY;
    }
  }

  sizeInBytes(): number {
    return this.heads.byteLength + this.next.byteLength + this.nullKeyRows.byteLength;
  }
}

/** The smallest key and how many numbers the keys span, of rows [0, count) without a NULL; undefined when a key is beyond 2^53. */
function keyRange(words: Int32Array, hasNull: Uint8Array | null, count: number): { base: number; span: number } | undefined {
  let low = Infinity;
  let high = -Infinity;
  for (let row = 0; row < count; row++) {
    if (hasNull !== null && hasNull[row] === 1) continue;
    const hi = words[2 * row + 1];
    if (hi >= SAFE_HIGH_WORD || hi < -SAFE_HIGH_WORD) return undefined;
    const v = hi * TWO_POW_32 + (words[2 * row] >>> 0);
    if (v < low) low = v;
    if (v > high) high = v;
  }
  // No key at all: an empty range (every probe misses).
  return low > high ? { base: 0, span: 0 } : { base: low, span: high - low + 1 };
}
