// The array column layout (page.ts, list-column.ts): offsets plus one child column, nested for
// array(array(T)). Slicing, gathering, concatenating and constant columns keep every row's value;
// the Arrow IPC stream of the exchange and the worker-thread transfer give back the same values and
// types; memory accounting counts the elements.

import { expect } from 'chai';
import {
  columnFromScalars,
  columnSizeInBytes,
  concatColumns,
  constantColumn,
  getScalar,
  sliceColumn,
  takeColumn,
  type Column,
} from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { listElements, listOffsets } from '../../src/columnar/list-column.js';
import { PageSerializer, deserializePages, streamChunks } from '../../src/exec/exchange/page-codec.js';
import { decodePage, encodePage } from '../../src/exec/threads/page-transfer.js';
import { arrayOf, BIGINT, VARCHAR, typeName } from '../../src/types/types.js';

const NESTED = arrayOf(arrayOf(BIGINT));
const ROWS: Scalar[] = [[[1n, 2n], null, []], null, [], [[3n]], [[null, 4n], [5n]]];
const STRINGS: Scalar[] = [['a', null], null, [], ['日本', '']];

function scalars(column: Column): Scalar[] {
  return Array.from({ length: column.length }, (_, i) => getScalar(column, i));
}

describe('array columns (offsets and child columns)', () => {
  it('build from JS arrays with offsets into one child column per level', () => {
    const column = columnFromScalars(NESTED, ROWS);
    expect(scalars(column)).to.deep.equal(ROWS);
    expect([...listOffsets(column)]).to.deep.equal([0, 3, 3, 3, 4, 6]);
    const inner = listElements(column);
    expect(typeName(inner.type)).to.equal('array(bigint)');
    expect([...listOffsets(inner)]).to.deep.equal([0, 2, 2, 2, 3, 5, 6]);
    expect(listElements(inner).values).to.be.instanceOf(BigInt64Array);
  });

  it('slices, gathers, concatenates and repeats rows', () => {
    const column = columnFromScalars(NESTED, ROWS);
    expect(scalars(sliceColumn(column, 2, 5))).to.deep.equal(ROWS.slice(2, 5));
    expect(scalars(takeColumn(column, Int32Array.from([4, 0, 4, 1])))).to.deep.equal([ROWS[4], ROWS[0], ROWS[4], ROWS[1]]);
    const joined = concatColumns(NESTED, [sliceColumn(column, 3, 5), sliceColumn(column, 0, 2), column]);
    expect(scalars(joined)).to.deep.equal([...ROWS.slice(3, 5), ...ROWS.slice(0, 2), ...ROWS]);
    expect(scalars(constantColumn(NESTED, ROWS[0], 3))).to.deep.equal([ROWS[0], ROWS[0], ROWS[0]]);
    expect(scalars(constantColumn(NESTED, null, 2))).to.deep.equal([null, null]);
  });

  it('go through the exchange as Arrow List vectors and come back with their types', () => {
    const page = {
      rowCount: 4,
      columns: [sliceColumn(columnFromScalars(NESTED, ROWS), 1, 5), columnFromScalars(arrayOf(VARCHAR), STRINGS)],
    };
    const serializer = new PageSerializer(page.columns.map((c) => c.type));
    const bytes = Buffer.concat(streamChunks([serializer.serialize(page)]));
    const { types, pages } = deserializePages(new Uint8Array(bytes));
    expect(types.map(typeName)).to.deep.equal(['array(array(bigint))', 'array(varchar)']);
    expect(pages[0].columns.map(scalars)).to.deep.equal([ROWS.slice(1, 5), STRINGS]);
  });

  it('cross to worker threads with their children', () => {
    const page = { rowCount: 5, columns: [columnFromScalars(NESTED, ROWS)] };
    const { page: encoded } = encodePage(page);
    expect(scalars(decodePage(structuredClone(encoded)).columns[0])).to.deep.equal(ROWS);
  });

  it('count their elements in the memory they report', () => {
    const small = columnFromScalars(arrayOf(BIGINT), [[1n], [2n]]);
    const large = columnFromScalars(arrayOf(BIGINT), [Array.from({ length: 1000 }, (_, i) => BigInt(i)), [2n]]);
    expect(columnSizeInBytes(large) - columnSizeInBytes(small)).to.equal(999 * 8);
  });
});
