import { expect } from 'chai';
import { Field, RecordBatch, Schema, Struct, Table, Utf8, makeData, tableFromIPC, tableToIPC } from 'apache-arrow';
import { SQL_TYPE_METADATA_KEY, pageToRecordBatch, recordBatchToPage, recordBatchTypes } from '../../src/columnar/arrow.js';
import { columnFromScalars, getScalar, type Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { typeName, type SqlType } from '../../src/types/types.js';

interface Case {
  type: SqlType;
  values: Scalar[];
}

const CASES: Case[] = [
  { type: { kind: 'boolean' }, values: [true, null, false, true, false, false, true, true, null, true] },
  { type: { kind: 'tinyint' }, values: [-128, null, 127, 0] },
  { type: { kind: 'smallint' }, values: [-32768, 32767, null, 5] },
  { type: { kind: 'integer' }, values: [-2147483648, null, 2147483647, 42] },
  { type: { kind: 'bigint' }, values: [-9223372036854775808n, 9223372036854775807n, null, 0n] },
  { type: { kind: 'real' }, values: [1.5, null, -0.25, 3.140000104904175] },
  { type: { kind: 'double' }, values: [Math.PI, null, -1e300, Number.NaN, Number.POSITIVE_INFINITY] },
  { type: { kind: 'decimal', precision: 12, scale: 2 }, values: [123456789012n, -99n, null, 0n, -999999999999n] },
  { type: { kind: 'decimal', precision: 18, scale: 0 }, values: [999999999999999999n, -999999999999999999n, null] },
  {
    type: { kind: 'decimal', precision: 38, scale: 10 },
    values: [99999999999999999999999999999999999999n, -99999999999999999999999999999999999999n, null, -1n, 18446744073709551616n],
  },
  { type: { kind: 'varchar', length: 25 }, values: ['hello', null, '', 'Grüße, 世界 🎉', 'x'] },
  { type: { kind: 'varchar' }, values: ['ascii only', null, 'abc'] },
  { type: { kind: 'char', length: 3 }, values: ['ab ', null, 'xyz'] },
  { type: { kind: 'varbinary' }, values: [new Uint8Array([1, 2, 3]), null, new Uint8Array(0), new Uint8Array([255])] },
  { type: { kind: 'date' }, values: [0, null, -719162, 2932896] },
  { type: { kind: 'time', precision: 6 }, values: [0, 86399999999, null, 45296789012] },
  { type: { kind: 'timestamp', precision: 3 }, values: [1700000000123000, null, -62135596800000000, 0] },
  { type: { kind: 'interval year to month' }, values: [14, null, -3] },
  { type: { kind: 'interval day to second' }, values: [86400000, null, -1500] },
  { type: { kind: 'unknown' }, values: [null, null] },
];

function pageOf(columns: Case[]): Page {
  const rowCount = columns[0].values.length;
  return { rowCount, columns: columns.map((c) => columnFromScalars(c.type, c.values)) };
}

function scalarsOf(page: Page, column: number): Scalar[] {
  const out: Scalar[] = [];
  for (let r = 0; r < page.rowCount; r++) out.push(getScalar(page.columns[column], r));
  return out;
}

function viaIpc(batch: RecordBatch): RecordBatch {
  return tableFromIPC(tableToIPC(new Table(batch))).batches[0];
}

describe('arrow page conversion', () => {
  for (const c of CASES) {
    describe(typeName(c.type), () => {
      it('round-trips values and NULLs through a record batch', () => {
        const page = pageOf([c]);
        const batch = pageToRecordBatch(page, ['c']);
        expect(batch.numRows).to.equal(c.values.length);
        const back = recordBatchToPage(batch, [c.type]);
        expect(typeName(back.columns[0].type)).to.equal(typeName(c.type));
        expect(scalarsOf(back, 0)).to.deep.equal(c.values);
      });

      it('round-trips through Arrow IPC and restores the exact SqlType from the metadata', () => {
        const batch = viaIpc(pageToRecordBatch(pageOf([c]), ['c']));
        const types = recordBatchTypes(batch);
        expect(types.map(typeName)).to.deep.equal([typeName(c.type)]);
        expect(scalarsOf(recordBatchToPage(batch, types), 0)).to.deep.equal(c.values);
      });

      it('reads a sliced batch (non-zero offsets)', () => {
        const batch = pageToRecordBatch(pageOf([c]), ['c']).slice(1, c.values.length);
        expect(scalarsOf(recordBatchToPage(batch, [c.type]), 0)).to.deep.equal(c.values.slice(1));
      });
    });
  }

  it('converts a many-column page with names and keeps column order', () => {
    const page = pageOf(CASES.map((c) => ({ type: c.type, values: c.values.slice(0, 2) })));
    const names = CASES.map((_, i) => `c${i}`);
    const batch = viaIpc(pageToRecordBatch(page, names));
    expect(batch.schema.fields.map((f) => f.name)).to.deep.equal(names);
    const back = recordBatchToPage(batch, recordBatchTypes(batch));
    for (let i = 0; i < CASES.length; i++) expect(scalarsOf(back, i)).to.deep.equal(scalarsOf(page, i));
  });

  it('stores the SqlType as JSON field metadata', () => {
    const batch = pageToRecordBatch(pageOf([CASES[7]]), ['price']);
    expect(JSON.parse(batch.schema.fields[0].metadata.get(SQL_TYPE_METADATA_KEY) ?? 'null')).to.deep.equal({
      kind: 'decimal',
      precision: 12,
      scale: 2,
    });
  });

  it('shares integer, double and date buffers with Arrow instead of copying', () => {
    const page = pageOf([
      { type: { kind: 'integer' }, values: [1, 2, 3] },
      { type: { kind: 'double' }, values: [1.5, 2.5, 3.5] },
      { type: { kind: 'date' }, values: [1, 2, 3] },
    ]);
    const batch = pageToRecordBatch(page, ['a', 'b', 'c']);
    const back = recordBatchToPage(
      batch,
      page.columns.map((c) => c.type),
    );
    for (let i = 0; i < 3; i++) {
      const original = page.columns[i].values as Int32Array;
      const roundTripped = back.columns[i].values as Int32Array;
      expect(roundTripped.buffer).to.equal(original.buffer);
      expect(batch.data.children[i].values.buffer).to.equal(original.buffer);
    }
  });

  it('yields no null mask for columns without NULLs', () => {
    const page = pageOf([{ type: { kind: 'varchar' }, values: ['a', 'b'] }]);
    const back = recordBatchToPage(pageToRecordBatch(page, ['s']), [{ kind: 'varchar' }]);
    expect(back.columns[0].nulls).to.equal(null);
  });

  it('refuses to read a column as a type its Arrow layout cannot hold', () => {
    const batch = pageToRecordBatch(pageOf([{ type: { kind: 'integer' }, values: [1] }]), ['a']);
    expect(() => recordBatchToPage(batch, [{ kind: 'varchar' }])).to.throw(/cannot be read as varchar/);
  });

  it('handles an empty page', () => {
    const page = pageOf([{ type: { kind: 'varchar', length: 3 }, values: [] }]);
    const back = recordBatchToPage(viaIpc(pageToRecordBatch(page, ['s'])), [{ kind: 'varchar', length: 3 }]);
    expect(back.rowCount).to.equal(0);
  });
});

// Whole-column conversion paths: bitmaps eight rows at a time (aligned and not), strings encoded and
// decoded as one buffer, 64-bit values moved as 32-bit halves.
describe('arrow page conversion of whole columns', () => {
  const ROWS = 1003; // not a multiple of 8: whole bitmap bytes and a tail

  function roundTrip(c: Case, sliceFrom = 0): Scalar[] {
    const batch = viaIpc(pageToRecordBatch(pageOf([c]), ['c']));
    const sliced = sliceFrom === 0 ? batch : batch.slice(sliceFrom, c.values.length);
    return scalarsOf(recordBatchToPage(sliced, [c.type]), 0);
  }

  it('round-trips long boolean and nullable columns, read at aligned and unaligned offsets', () => {
    const booleans: Scalar[] = Array.from({ length: ROWS }, (_, i) => (i % 7 === 3 ? null : (i * 2654435761) % 5 < 2));
    const integers: Scalar[] = Array.from({ length: ROWS }, (_, i) => (i % 11 === 0 || (i > 500 && i < 540) ? null : i - 400));
    for (const c of [
      { type: { kind: 'boolean' }, values: booleans },
      { type: { kind: 'integer' }, values: integers },
    ] as Case[]) {
      for (const from of [0, 8, 5]) expect(roundTrip(c, from)).to.deep.equal(c.values.slice(from));
    }
  });

  it('writes the exact Arrow validity bitmap and null count', () => {
    const values: Scalar[] = Array.from({ length: 20 }, (_, i) => (i === 0 || i === 9 || i === 19 ? null : i));
    const data = pageToRecordBatch(pageOf([{ type: { kind: 'integer' }, values }]), ['c']).data.children[0];
    expect(data.nullCount).to.equal(3);
    expect([...data.nullBitmap!]).to.deep.equal([0b11111110, 0b11111101, 0b00000111]);
  });

  it('round-trips long string columns, ASCII and not, with NULLs', () => {
    const words = ['DELIVER IN PERSON', 'Grüße', '世界', '🎉 party', '', 'x'];
    for (const pool of [words.filter((w) => /^[\x00-\x7f]*$/.test(w)), words]) {
      const values: Scalar[] = Array.from({ length: ROWS }, (_, i) => (i % 13 === 0 ? null : `${pool[i % pool.length]}${i}`));
      const c: Case = { type: { kind: 'varchar' }, values };
      for (const from of [0, 5]) expect(roundTrip(c, from)).to.deep.equal(values.slice(from));
    }
  });

  it('encodes a lone surrogate per value even when the next value starts with its partner', () => {
    // Joined, "a\uD83D" + "\uDE00b" would be one 4-byte character; each value on its own is U+FFFD.
    const c: Case = { type: { kind: 'varchar' }, values: ['a\uD83D', '\uDE00b', 'é'] };
    expect(roundTrip(c)).to.deep.equal(['a\uFFFD', '\uFFFDb', 'é']);
  });

  it('decodes foreign UTF-8 value by value when values split a character or are invalid', () => {
    const column = (bytes: number[], offsets: number[]): Scalar[] => {
      const data = makeData({
        type: new Utf8(),
        length: offsets.length - 1,
        valueOffsets: Int32Array.from(offsets),
        data: Uint8Array.from(bytes),
      });
      const batch = new RecordBatch(
        new Schema([new Field('s', new Utf8(), true)]),
        makeData({ type: new Struct([new Field('s', new Utf8(), true)]), length: data.length, children: [data] }),
      );
      return scalarsOf(recordBatchToPage(batch, [{ kind: 'varchar' }]), 0);
    };
    // "é" is C3 A9: split over two values, each is an invalid sequence on its own.
    expect(column([0x61, 0xc3, 0xa9, 0x62], [0, 2, 4])).to.deep.equal(['a\uFFFD', '\uFFFDb']);
    expect(column([0xc3, 0xa9, 0xff, 0x41], [0, 2, 4])).to.deep.equal(['é', '\uFFFDA']);
  });

  it('round-trips 64-bit temporal values beyond 2^53 and negative ones exactly', () => {
    const big = [2 ** 60, -(2 ** 60), 2 ** 53 + 2, -1, -(2 ** 32), 2 ** 32 - 1, 2 ** 32, -(2 ** 31) - 1, 0];
    const interval: SqlType = { kind: 'interval day to second' };
    expect(roundTrip({ type: interval, values: big })).to.deep.equal(big);
    // A timestamp(6) is a bigint of picoseconds (long-plain-temporal.ts): the same instants, exact.
    const picos = big.map((micros) => BigInt(micros) * 1_000_000n);
    expect(roundTrip({ type: { kind: 'timestamp', precision: 6 }, values: picos })).to.deep.equal(picos);
  });

  it('round-trips 128-bit values in runs that share a high word, cross it, and alternate signs, read sliced too', () => {
    // Runs of one high word and values either side of each 2^64 boundary (the encoder and decoder reuse a run's high word).
    const edges = [0n, 1n << 64n, -(1n << 64n), 5n << 64n, -(7n << 64n), (1n << 126n) - (1n << 64n)];
    const picos: bigint[] = [];
    for (const edge of edges) for (const d of [-2n, -1n, 0n, 1n, 2n, 123_456_789n]) picos.push(edge + d, edge + d);
    picos.push((1n << 127n) - 1n, -(1n << 127n), 0n, -1n, (1n << 127n) - 1n);
    const timestamps = picos.map((p) => p - (p % 1_000_000n));
    expect(roundTrip({ type: { kind: 'timestamp', precision: 6 }, values: timestamps })).to.deep.equal(timestamps);
    expect(roundTrip({ type: { kind: 'timestamp', precision: 6 }, values: timestamps }, 7)).to.deep.equal(timestamps.slice(7));
    const decimals = picos.map((p) => p % 10n ** 38n);
    expect(roundTrip({ type: { kind: 'decimal', precision: 38, scale: 2 }, values: decimals })).to.deep.equal(decimals);
  });

  it("writes short decimals as sign-extended 128-bit two's complement words", () => {
    const data = pageToRecordBatch(pageOf([{ type: { kind: 'decimal', precision: 12, scale: 2 }, values: [-99n, 4294967296n] }]), ['d'])
      .data.children[0];
    expect([...(data.values as Uint32Array)]).to.deep.equal([0xffffff9d, 0xffffffff, 0xffffffff, 0xffffffff, 0, 1, 0, 0]);
  });
});
