// The map column layout (page.ts, map-column.ts): offsets over a key column and a value column, as
// Arrow's Map. Slicing, gathering, concatenating and constant columns keep every row's entries; the
// Arrow IPC stream of the exchange (a Map vector over an entries struct) and the worker-thread
// transfer give back the same values and types; memory accounting counts keys and values.

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
import { listOffsets } from '../../src/columnar/list-column.js';
import { mapKeys, mapValues } from '../../src/columnar/map-column.js';
import { MapValue } from '../../src/types/map-value.js';
import { PageSerializer, deserializePages, streamChunks } from '../../src/exec/exchange/page-codec.js';
import { decodePage, encodePage } from '../../src/exec/threads/page-transfer.js';
import { arrowType } from '../../src/columnar/arrow.js';
import { arrayOf, mapOf, BIGINT, VARCHAR, typeName } from '../../src/types/types.js';

const NESTED = mapOf(VARCHAR, arrayOf(BIGINT));
const ROWS: Scalar[] = [
  new MapValue(['a', 'b'], [[1n, 2n], null]),
  null,
  new MapValue([], []),
  new MapValue(['日本'], [[]]),
  new MapValue(['x', 'y', 'z'], [[3n], [null], null]),
];
const OF_MAPS = mapOf(BIGINT, mapOf(VARCHAR, BIGINT));
const MAPS_OF_MAPS: Scalar[] = [
  new MapValue([1n], [new MapValue(['k'], [null])]),
  null,
  new MapValue([2n, 3n], [null, new MapValue([], [])]),
];

function scalars(column: Column): Scalar[] {
  return Array.from({ length: column.length }, (_, i) => getScalar(column, i));
}

describe('map columns (offsets over keys and values)', () => {
  it('build from MapValues with one offset list over a key column and a value column', () => {
    const column = columnFromScalars(NESTED, ROWS);
    expect(scalars(column)).to.deep.equal(ROWS);
    expect([...listOffsets(column)]).to.deep.equal([0, 2, 2, 2, 3, 6]);
    expect(mapKeys(column).values).to.deep.equal(['a', 'b', '日本', 'x', 'y', 'z']);
    expect(typeName(mapValues(column).type)).to.equal('array(bigint)');
    expect(String(arrowType(NESTED))).to.equal('Map<{key:Utf8, value:List<Int64>}>');
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

  it('go through the exchange as Arrow Map vectors and come back with their types', () => {
    const page = { rowCount: 3, columns: [sliceColumn(columnFromScalars(NESTED, ROWS), 2, 5), columnFromScalars(OF_MAPS, MAPS_OF_MAPS)] };
    const serializer = new PageSerializer(page.columns.map((c) => c.type));
    const bytes = Buffer.concat(streamChunks([serializer.serialize(page)]));
    const { types, pages } = deserializePages(new Uint8Array(bytes));
    expect(types.map(typeName)).to.deep.equal(['map(varchar, array(bigint))', 'map(bigint, map(varchar, bigint))']);
    expect(pages[0].columns.map(scalars)).to.deep.equal([ROWS.slice(2, 5), MAPS_OF_MAPS]);
  });

  it('cross to worker threads with their keys and values', () => {
    const page = { rowCount: 5, columns: [columnFromScalars(NESTED, ROWS)] };
    const { page: encoded } = encodePage(page);
    expect(scalars(decodePage(structuredClone(encoded)).columns[0])).to.deep.equal(ROWS);
  });

  it('count their keys and values in the memory they report', () => {
    const small = columnFromScalars(mapOf(BIGINT, BIGINT), [new MapValue([1n], [1n]), new MapValue([2n], [2n])]);
    const keys = Array.from({ length: 1000 }, (_, i) => BigInt(i));
    const large = columnFromScalars(mapOf(BIGINT, BIGINT), [new MapValue(keys, keys), new MapValue([2n], [2n])]);
    expect(columnSizeInBytes(large) - columnSizeInBytes(small)).to.equal(999 * 8 * 2);
  });
});
