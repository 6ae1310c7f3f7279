// The row column layout (page.ts, row-column.ts): one child column per field, each with its own
// NULLs beside the row's own, nested for rows of rows and arrays of rows. Slicing, gathering,
// concatenating and constant columns keep every row's value; the Arrow IPC stream of the exchange
// (Struct vectors) and the worker-thread transfer give back the same values and types; memory
// accounting counts the fields.

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
import { rowFieldColumns } from '../../src/columnar/row-column.js';
import { PageSerializer, deserializePages, streamChunks } from '../../src/exec/exchange/page-codec.js';
import { decodePage, encodePage } from '../../src/exec/threads/page-transfer.js';
import { arrayOf, BIGINT, VARCHAR, rowOf, typeName } from '../../src/types/types.js';

const POINT = rowOf([
  { name: 'x', type: BIGINT },
  { name: 'label', type: VARCHAR },
]);
const NESTED = rowOf([{ type: arrayOf(POINT) }, { name: 'p', type: POINT }]);
const POINTS: Scalar[] = [[1n, 'a'], null, [null, 'b'], [3n, null], [4n, '日本']];
const ROWS: Scalar[] = [
  [
    [[1n, 'a'], null],
    [2n, 'b'],
  ],
  null,
  [[], null],
  [null, [null, null]],
  [[[5n, '']], [6n, 'f']],
];

function scalars(column: Column): Scalar[] {
  return Array.from({ length: column.length }, (_, i) => getScalar(column, i));
}

describe('row columns (one child column per field)', () => {
  it('build from JS arrays into a child column per field, NULL rows NULL in every field', () => {
    const column = columnFromScalars(POINT, POINTS);
    expect(scalars(column)).to.deep.equal(POINTS);
    const [x, label] = rowFieldColumns(column);
    expect(x.values).to.be.instanceOf(BigInt64Array);
    expect(scalars(x)).to.deep.equal([1n, null, null, 3n, 4n]);
    expect(scalars(label)).to.deep.equal(['a', null, 'b', null, '日本']);
    expect([...(column.nulls as Uint8Array)]).to.deep.equal([0, 1, 0, 0, 0]);
    expect(scalars(columnFromScalars(NESTED, ROWS))).to.deep.equal(ROWS);
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

  it('go through the exchange as Arrow Struct vectors and come back with their types', () => {
    const page = {
      rowCount: 4,
      columns: [sliceColumn(columnFromScalars(NESTED, ROWS), 1, 5), sliceColumn(columnFromScalars(POINT, POINTS), 1, 5)],
    };
    const serializer = new PageSerializer(page.columns.map((c) => c.type));
    const bytes = Buffer.concat(streamChunks([serializer.serialize(page)]));
    const { types, pages } = deserializePages(new Uint8Array(bytes));
    expect(types.map(typeName)).to.deep.equal([
      'row(array(row("x" bigint, "label" varchar)), "p" row("x" bigint, "label" varchar))',
      'row("x" bigint, "label" varchar)',
    ]);
    expect(pages[0].columns.map(scalars)).to.deep.equal([ROWS.slice(1, 5), POINTS.slice(1, 5)]);
  });

  it('cross to worker threads with their children', () => {
    const page = { rowCount: 5, columns: [columnFromScalars(NESTED, ROWS), columnFromScalars(POINT, POINTS)] };
    const { page: encoded } = encodePage(page);
    expect(decodePage(structuredClone(encoded)).columns.map(scalars)).to.deep.equal([ROWS, POINTS]);
  });

  it('count their fields in the memory they report', () => {
    const narrow = rowOf([{ type: BIGINT }]);
    const wide = rowOf([{ type: BIGINT }, { type: BIGINT }, { type: BIGINT }]);
    const rows = (width: number) => Array.from({ length: 1000 }, (_, i) => Array.from({ length: width }, () => BigInt(i)));
    expect(columnSizeInBytes(columnFromScalars(wide, rows(3))) - columnSizeInBytes(columnFromScalars(narrow, rows(1)))).to.equal(
      2 * 1000 * 8,
    );
  });
});
