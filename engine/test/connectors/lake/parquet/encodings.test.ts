// The byte-level pieces the writer and reader share. DuckDB's files prove our decoders and DuckDB
// reading our files proves our encoders (read-duckdb-files, write-read-by-duckdb); these round
// trips cover the shapes those files may not hold: empty and tiny inputs, several 64 KiB snappy
// blocks, every RLE bit width up to 32.

import { expect } from 'chai';
import { decodeRleHybrid, encodeRleHybrid } from '../../../../src/connectors/hive/formats/parquet/rle.js';
import { decompressPage } from '../../../../src/connectors/hive/formats/parquet/codecs.js';
import { Codec } from '../../../../src/connectors/hive/formats/parquet/parquet-constants.js';
import { PageScratch } from '../../../../src/connectors/hive/formats/parquet/page-scratch.js';
import { snappyCompress } from '../../../../src/connectors/hive/formats/parquet/snappy.js';
import { snappyInstance } from '../../../../src/connectors/hive/formats/parquet/wasm-snappy-instance.js';

function pseudoRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

describe('Parquet encodings', () => {
  it('snappy: compressed data decodes to the input (empty, tiny, repetitive, random, past one 64 KiB block)', () => {
    const next = pseudoRandom(7);
    const inputs = [
      new Uint8Array(0),
      Uint8Array.of(42),
      new Uint8Array(100_000).fill(9),
      Uint8Array.from({ length: 200_000 }, () => next() & 0xff),
      new TextEncoder().encode('the quick brown fox jumps over the lazy dog '.repeat(5000)),
      Uint8Array.from({ length: 300_000 }, (_, i) => (i % 7 === 0 ? next() & 0xff : i & 0x3f)),
    ];
    for (const input of inputs) {
      const compressed = snappyCompress(input);
      expect(Array.from(decompressPage(Codec.Snappy, compressed, input.length)), `${input.length} bytes`).to.deep.equal(Array.from(input));
    }
    expect(snappyCompress(new Uint8Array(100_000).fill(9)).length).to.be.lessThan(5_000);
  });

  it('snappy: a block that claims more bytes than it holds fails instead of returning garbage', () => {
    const compressed = snappyCompress(new TextEncoder().encode('abcdabcdabcdabcd'));
    expect(() => decompressPage(Codec.Snappy, compressed.subarray(0, compressed.length - 2), 16)).to.throw(/snappy/);
  });

  it("snappy in place (a page decoded at once): the installed hysnappy's decoder is ours, each page its input, as its memory grows", () => {
    expect(snappyInstance(), 'hysnappy is laid out as wasm-snappy-instance.ts expects').to.not.equal(null);
    const next = pseudoRandom(11);
    const scratch = new PageScratch();
    // Growing pages, then a small one: each must read as its own input, whatever the pages before left in the memory.
    for (const length of [10, 70_000, 1_000_000, 3_000_000, 5]) {
      const input = Uint8Array.from({ length }, (_, i) => (i % 5 === 0 ? next() & 0xff : i & 0x1f));
      const page = decompressPage(Codec.Snappy, snappyCompress(input), length, scratch);
      expect(page.length, `${length} bytes`).to.equal(length);
      expect(Buffer.from(page).equals(Buffer.from(input)), `${length} bytes`).to.equal(true);
    }
    const compressed = snappyCompress(new TextEncoder().encode('abcdabcdabcdabcd'));
    expect(() => decompressPage(Codec.Snappy, compressed.subarray(0, compressed.length - 2), 16, scratch)).to.throw(/snappy/);
  });

  it('RLE / bit-packed hybrid round-trips every bit width, runs and mixed stretches', () => {
    const next = pseudoRandom(3);
    for (let width = 1; width <= 32; width++) {
      const max = width === 32 ? 0xffffffff : 2 ** width - 1;
      const values = new Int32Array(5_003);
      for (let i = 0; i < values.length; i++) {
        // Stretches of repeats (runs) between stretches of random values.
        values[i] = Math.floor(i / 97) % 2 === 0 ? (Math.floor(i / 97) * 31) % (max + 1) : next() % (max + 1);
      }
      const encoded = encodeRleHybrid(values, values.length, width);
      const decoded = new Int32Array(values.length);
      decodeRleHybrid(encoded, 0, encoded.length, width, values.length, decoded);
      expect(Array.from(decoded), `bit width ${width}`).to.deep.equal(Array.from(values));
    }
  });
});
