import { expect } from 'chai';
import { RecordBatch, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import {
  SQL_TYPE_METADATA_KEY,
  pageToRecordBatch,
  recordBatchToPage,
  recordBatchTypes,
} from '../../src/exec/arrow.js';
import { columnFromScalars, getScalar, type Page, type Scalar } from '../../src/spi/page.js';
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
    const back = recordBatchToPage(batch, page.columns.map((c) => c.type));
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
