// The word-at-a-time decoding paths of bit-unpacking and snappy, against values built here bit by
// bit and byte by byte: every bit width, data ending exactly where the values end (the last values
// take the byte-wise tail), and snappy copies that overlap their source at every short offset,
// with and without room after them for the decoder's whole-word moves past their end.

import { expect } from 'chai';
import type { ColumnValues } from '../../../../src/columnar/page.js';
import { placeRows } from '../../../../src/connectors/hive/formats/parquet/column-chunk-decoder.js';
import { SelectedRowsOutput } from '../../../../src/connectors/hive/formats/parquet/selected-rows-output.js';
import { decodeRleHybrid, unpackBits } from '../../../../src/connectors/hive/formats/parquet/rle.js';
import { pickRleHybrid } from '../../../../src/connectors/hive/formats/parquet/rle-picks.js';
import { decompressPage } from '../../../../src/connectors/hive/formats/parquet/codecs.js';
import { Codec } from '../../../../src/connectors/hive/formats/parquet/parquet-constants.js';
import { BIGINT, BOOLEAN, DOUBLE, INTEGER, VARCHAR, type SqlType } from '../../../../src/types/types.js';

/** A Snappy page's bytes, decompressed as the reader does. */
const unsnappy = (block: Uint8Array, length: number): Uint8Array => decompressPage(Codec.Snappy, block, length);

/** A dictionary of 3 entries of each storage kind, an allocator of its columns' values, and its type. */
const DICTIONARIES: [string, () => ColumnValues, (n: number) => ColumnValues, SqlType][] = [
  // 64-bit words copied whole: the extremes and -1 (all bits set, a NaN's pattern were they moved as doubles).
  ['bigint', () => BigInt64Array.of(-(2n ** 63n), 2n ** 63n - 1n, -1n), (n) => new BigInt64Array(n), BIGINT],
  ['double', () => Float64Array.of(1.5, -2, 3.25), (n) => new Float64Array(n), DOUBLE],
  ['integer', () => Int32Array.of(10, 20, 30), (n) => new Int32Array(n), INTEGER],
  ['varchar', () => ['a', 'bc', 'def'], (n) => new Array<string>(n).fill(''), VARCHAR],
  ['boolean', () => Uint8Array.of(1, 0, 1), (n) => new Uint8Array(n), BOOLEAN],
];

/** Values packed LSB first, one bit at a time (Parquet's bit-packing), in exactly the bytes they need after `pad` leading bytes. */
function packBitByBit(values: readonly number[], bitWidth: number, pad: number): Uint8Array {
  const bytes = new Uint8Array(pad + Math.ceil((values.length * bitWidth) / 8));
  let bit = pad * 8;
  for (const v of values) {
    for (let b = 0; b < bitWidth; b++, bit++) if (Math.floor(v / 2 ** b) % 2 === 1) bytes[bit >> 3] |= 1 << (bit & 7);
  }
  return bytes;
}

/** Deterministic pseudo-random values below 2^bitWidth. */
function valuesOf(count: number, bitWidth: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: count }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return bitWidth >= 32 ? x : x % 2 ** bitWidth;
  });
}

/** A varint (run headers of the RLE hybrid). */
function varint(value: number): number[] {
  const out: number[] = [];
  for (let v = value; ; v = Math.floor(v / 128)) {
    if (v < 128) return [...out, v];
    out.push((v % 128) | 0x80);
  }
}

/**
 * The RLE hybrid built by hand: an RLE run of `repeat` copies of 5, a bit-packed run of `values`
 * (padded to groups of 8), then an RLE run of 3 copies of 1 (smaller values where the bit width
 * holds no 5 or 1); and all of its values in order.
 */
function hybridOf(values: readonly number[], bitWidth: number, repeat: number): { bytes: Uint8Array; all: number[] } {
  const valueBytes = (n: number) => Array.from({ length: (bitWidth + 7) >> 3 }, (_, i) => Math.floor(n / 2 ** (8 * i)) % 256);
  const groups = Math.ceil(values.length / 8);
  const padded = [...values, ...new Array<number>(groups * 8 - values.length).fill(0)];
  const five = bitWidth >= 3 ? 5 : bitWidth;
  const one = Math.min(bitWidth, 1);
  const bytes = [
    ...varint(repeat * 2),
    ...valueBytes(five),
    ...varint(groups * 2 + 1),
    ...packBitByBit(padded, bitWidth, 0),
    ...varint(3 * 2),
    ...valueBytes(one),
  ];
  return { bytes: Uint8Array.from(bytes), all: [...new Array<number>(repeat).fill(five), ...padded, one, one, one] };
}

describe('Parquet decoding primitives', () => {
  it('picks values of the RLE hybrid at scattered positions, every bit width from 0 to 32, run edges and the last value included', () => {
    for (let bitWidth = 0; bitWidth <= 32; bitWidth++) {
      for (const count of [1, 8, 61]) {
        const { bytes, all } = hybridOf(valuesOf(count, bitWidth, bitWidth * 7 + count), bitWidth, 10);
        const positions = [0, 9, 10, 11, 10 + Math.floor(count / 2), all.length - 4, all.length - 3, all.length - 1];
        const rows = Int32Array.from(new Set(positions.map((p) => p + 100)).values()).sort();
        const out = new Int32Array(all.length).fill(-1);
        // rows[1, rows.length) of a page whose first row is 100: their values in place, the other entries untouched.
        pickRleHybrid(bytes, 0, bytes.length, bitWidth, all.length, { rows, from: 1, to: rows.length, first: 100 }, out);
        const picked = new Set(Array.from(rows.subarray(1), (r) => r - 100));
        expect(
          Array.from(out, (v) => v >>> 0),
          `width ${bitWidth}, count ${count}`,
        ).to.deep.equal(all.map((v, p) => (picked.has(p) ? v : 0xffffffff)));
      }
    }
  });

  it('picking fails on runs that end before the values asked for or pass the end of the data', () => {
    const { bytes, all } = hybridOf(valuesOf(16, 5, 1), 5, 4);
    const rows = Int32Array.of(all.length - 1);
    const pick = (end: number, count: number) =>
      pickRleHybrid(bytes, 0, end, 5, count, { rows, from: 0, to: 1, first: 0 }, new Int32Array(all.length));
    expect(() => pick(bytes.length, all.length - 1)).to.throw(/RLE data ends/);
    expect(() => pick(bytes.length - 3, all.length)).to.throw(/past the end/);
  });

  it('unpacks every bit width from 1 to 32 at every start byte, to the last value of the data', () => {
    for (let bitWidth = 1; bitWidth <= 32; bitWidth++) {
      for (const pad of [0, 1, 2, 3]) {
        for (const count of [1, 7, 8, 61, 256]) {
          const values = valuesOf(count, bitWidth, bitWidth * 1000 + pad * 10 + count);
          const out = new Int32Array(count);
          unpackBits(packBitByBit(values, bitWidth, pad), pad, bitWidth, count, out, 0);
          expect(
            Array.from(out, (v) => v >>> 0),
            `width ${bitWidth}, pad ${pad}, count ${count}`,
          ).to.deep.equal(values);
        }
      }
    }
  });

  it('decodes a bit-packed run of the RLE hybrid into bytes (definition levels) at the end of a page', () => {
    const values = valuesOf(40, 1, 7);
    // Header: 5 groups of 8 values bit-packed ((5 << 1) | 1), then the values in exactly 5 bytes.
    const packed = packBitByBit(values, 1, 0);
    const page = new Uint8Array([11, ...packed]);
    const out = new Uint8Array(40);
    expect(decodeRleHybrid(page, 0, page.length, 1, 40, out)).to.equal(page.length);
    expect(Array.from(out)).to.deep.equal(values);
  });

  it('snappy: copies overlapping their source repeat it, for offsets 1 to 9 and lengths 4 to 64', () => {
    for (let offset = 1; offset <= 9; offset++) {
      for (const length of [4, 5, 8, 11, 12, 31, 32, 33, 64]) {
        const literal = Array.from({ length: offset }, (_, i) => 97 + i);
        // Literal of `offset` bytes, then a 2-byte-offset copy (tag 2) of `length` bytes from `offset` back.
        const block = new Uint8Array([offset + length, (offset - 1) << 2, ...literal, 2 | ((length - 1) << 2), offset & 0xff, offset >> 8]);
        const expected = Array.from({ length: offset + length }, (_, i) => literal[i % offset]);
        expect(Array.from(unsnappy(block, offset + length)), `offset ${offset}, length ${length}`).to.deep.equal(expected);
      }
    }
  });

  it('snappy: literals of 1 to 40 bytes come out whole, next to each other', () => {
    const bytes: number[] = [];
    const expected: number[] = [];
    for (let n = 1; n <= 40; n++) {
      const literal = Array.from({ length: n }, (_, i) => (n * 31 + i) & 0xff);
      bytes.push((n - 1) << 2, ...literal);
      expected.push(...literal);
    }
    const total = expected.length;
    const block = new Uint8Array([(total & 0x7f) | 0x80, total >> 7, ...bytes]);
    expect(Array.from(unsnappy(block, total))).to.deep.equal(expected);
  });

  it("snappy: short literals and copies followed by more data come out whole, whatever the decoder's memory held", () => {
    // Each element has room after it, so the decoder moves whole words past its end: what follows must overwrite them.
    const tail = Array.from({ length: 20 }, (_, i) => 200 + i);
    for (let offset = 1; offset <= 9; offset++) {
      for (let length = 4; length <= 24; length++) {
        const literal = Array.from({ length: offset }, (_, i) => 97 + i);
        const total = offset + length + tail.length;
        const block = new Uint8Array([
          total,
          (offset - 1) << 2,
          ...literal,
          2 | ((length - 1) << 2),
          offset,
          0,
          (tail.length - 1) << 2,
          ...tail,
        ]);
        const expected = [...Array.from({ length: offset + length }, (_, i) => literal[i % offset]), ...tail];
        expect(Array.from(unsnappy(block, total)), `offset ${offset}, length ${length}`).to.deep.equal(expected);
      }
    }
    for (let n = 1; n <= 17; n++) {
      const literal = Array.from({ length: n }, (_, i) => (n * 7 + i) & 0xff);
      const total = 2 * n + tail.length;
      // A literal, the same again as a 1-byte-offset copy (tag 1) where it is 4 to 11 bytes long, then the tail.
      const copy = n >= 4 && n <= 11 ? [1 | ((n - 4) << 2), n] : [(n - 1) << 2, ...literal];
      const block = new Uint8Array([total, (n - 1) << 2, ...literal, ...copy, (tail.length - 1) << 2, ...tail]);
      expect(Array.from(unsnappy(block, total)), `${n} bytes`).to.deep.equal([...literal, ...literal, ...tail]);
    }
  });

  it('dictionary pages: rows take their entries, and an index past the dictionary fails, for every storage kind, with and without NULLs', () => {
    for (const [kind, dictionary, allocate] of DICTIONARIES) {
      const dict = dictionary();
      // Rows 0..4; with NULLs, rows 1 and 3 are NULL and the indices are those of rows 0, 2 and 4.
      const out = allocate(5);
      placeRows({ rowCount: 5, defined: null, dictionary: dict, indices: Int32Array.of(2, 0, 1, 1, 2) }, out, () => new Uint8Array(5), 0);
      expect(Array.from(out as ArrayLike<unknown>), kind).to.deep.equal([2, 0, 1, 1, 2].map((i) => dict[i]));
      const withNulls = allocate(5);
      const nulls = new Uint8Array(5);
      const defined = Uint8Array.of(1, 0, 1, 0, 1);
      placeRows({ rowCount: 5, defined, dictionary: dict, indices: Int32Array.of(1, 2, 0) }, withNulls, () => nulls, 0);
      expect(
        [0, 2, 4].map((row) => (withNulls as ArrayLike<unknown>)[row]),
        kind,
      ).to.deep.equal([1, 2, 0].map((i) => dict[i]));
      expect(Array.from(nulls), kind).to.deep.equal([0, 1, 0, 1, 0]);
      for (const page of [
        { rowCount: 5, defined: null, dictionary: dict, indices: Int32Array.of(0, 1, 3, 0, 0) },
        { rowCount: 5, defined, dictionary: dict, indices: Int32Array.of(0, 1, 7) },
        { rowCount: 5, defined: null, dictionary: dict, indices: Int32Array.of(0, 1, -1, 0, 0) },
      ]) {
        expect(() => placeRows(page, allocate(5), () => new Uint8Array(5), 0), kind).to.throw(
          /dictionary index (3|7|4294967295) past the dictionary's 3 entries/,
        );
      }
    }
  });

  it('dictionary pages with some rows wanted: those rows take their entries, and a wanted index past the dictionary fails', () => {
    for (const [kind, dictionary, , type] of DICTIONARIES) {
      const dict = dictionary();
      // Rows 1, 3 and 4 of a page of 6 rows without NULLs (rows 0 and 5 hold indices past the dictionary, never read).
      const wanted = new SelectedRowsOutput(type, Int32Array.of(1, 3, 4));
      wanted.append(0, { rowCount: 6, defined: null, dictionary: dict, indices: Int32Array.of(9, 2, 0, 1, 0, -1) });
      expect(Array.from(wanted.build().values as ArrayLike<unknown>), kind).to.deep.equal([2, 1, 0].map((i) => dict[i]));
      for (const bad of [3, -1]) {
        const output = new SelectedRowsOutput(type, Int32Array.of(1, 3));
        expect(
          () => output.append(0, { rowCount: 5, defined: null, dictionary: dict, indices: Int32Array.of(0, 1, 0, bad, 0) }),
          `${kind} ${bad}`,
        ).to.throw(/past the dictionary's 3 entries/);
      }
    }
  });

  it('plain pages with some rows wanted: those rows take their values, 64-bit words whole', () => {
    const values = BigInt64Array.of(1n, -(2n ** 63n), 5n, -1n, 2n ** 63n - 1n, 2n ** 40n + 3n);
    const wanted = new SelectedRowsOutput(BIGINT, Int32Array.of(1, 3, 4, 7));
    wanted.append(0, { rowCount: 6, defined: null, dense: values });
    wanted.append(6, { rowCount: 2, defined: null, dense: BigInt64Array.of(9n, -7n) });
    expect(Array.from(wanted.build().values as BigInt64Array)).to.deep.equal([-(2n ** 63n), -1n, 2n ** 63n - 1n, -7n]);
  });
});
