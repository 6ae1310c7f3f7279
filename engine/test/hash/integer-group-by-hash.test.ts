import { expect } from 'chai';
import { IntegerGroupByHash, hasIntegerKeys } from '../../src/exec/hash/integer-group-by-hash.js';
import { newKeyGroupTable } from '../../src/exec/hash/key-group-table.js';
import { GroupByHash } from '../../src/exec/hash/group-by-hash.js';
import { columnFromScalars, getScalar } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, DATE, DOUBLE, INTEGER, SMALLINT, TINYINT, VARCHAR, decimal, type SqlType } from '../../src/types/types.js';

/** Group ids of `rows` put through a fresh table, in pages of `pageRows`, and its key columns as rows. */
function group(types: SqlType[], rows: Scalar[][], pageRows = 1000): { ids: number[]; keys: Scalar[][] } {
  const table = new IntegerGroupByHash(types, 16);
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += pageRows) {
    const page = rows.slice(start, start + pageRows);
    const columns = types.map((t, c) =>
      columnFromScalars(
        t,
        page.map((r) => r[c]),
      ),
    );
    const out = new Int32Array(page.length);
    table.putRows(columns, page.length, out);
    ids.push(...out);
  }
  const keyColumns = table.keyColumns(0, table.groupCount);
  const keys = Array.from({ length: table.groupCount }, (_, g) => keyColumns.map((c) => getScalar(c, g)));
  return { ids, keys };
}

/** The oracle: first-seen numbering of the rows' keys through a Map of their printed form. */
function firstSeenIds(rows: Scalar[][]): number[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const key = r.map((v) => (v === null ? 'null' : String(v))).join('|');
    let id = seen.get(key);
    if (id === undefined) {
      id = seen.size;
      seen.set(key, id);
    }
    return id;
  });
}

describe('IntegerGroupByHash', () => {
  it('is chosen for one or two integer keys only', () => {
    expect(hasIntegerKeys([BIGINT])).to.equal(true);
    expect(hasIntegerKeys([INTEGER, DATE])).to.equal(true);
    expect(hasIntegerKeys([decimal(18, 2), TINYINT])).to.equal(true);
    expect(hasIntegerKeys([decimal(19, 2)])).to.equal(false);
    expect(hasIntegerKeys([DOUBLE])).to.equal(false);
    expect(hasIntegerKeys([BIGINT, VARCHAR])).to.equal(false);
    expect(hasIntegerKeys([BIGINT, BIGINT, BIGINT])).to.equal(false);
    expect(newKeyGroupTable([BIGINT])).to.be.instanceOf(IntegerGroupByHash);
    expect(newKeyGroupTable([VARCHAR])).to.be.instanceOf(GroupByHash);
  });

  it('numbers bigint keys in first-seen order across pages and growth, extremes included', () => {
    const extremes = [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 32n, -(2n ** 32n), 4294967295n];
    const rows: Scalar[][] = [];
    for (let i = 0; i < 50000; i++)
      rows.push([i % 11 === 0 ? extremes[i % extremes.length] : BigInt((i * 7919) % 20011) * 65537n - 600000000n]);
    const { ids, keys } = group([BIGINT], rows);
    expect(ids).to.deep.equal(firstSeenIds(rows));
    const firstRowOf = new Map<number, number>();
    ids.forEach((g, r) => firstRowOf.set(g, firstRowOf.get(g) ?? r));
    expect(keys).to.deep.equal([...firstRowOf.values()].map((r) => rows[r]));
  });

  it('keeps NULL apart from 0 and groups NULLs together, per key of a two-key table', () => {
    const rows: Scalar[][] = [
      [0, 0n],
      [null, 0n],
      [0, null],
      [null, null],
      [0, 0n],
      [null, 0n],
      [0, null],
      [null, null],
      [-1, -1n],
    ];
    const { ids, keys } = group([INTEGER, BIGINT], rows, 4);
    expect(ids).to.deep.equal([0, 1, 2, 3, 0, 1, 2, 3, 4]);
    expect(keys).to.deep.equal([
      [0, 0n],
      [null, 0n],
      [0, null],
      [null, null],
      [-1, -1n],
    ]);
  });

  it('matches first-seen numbering over two narrow keys (smallint, date) and writes them back in their types', () => {
    const rows: Scalar[][] = [];
    for (let i = 0; i < 20000; i++) rows.push([(i % 97) - 48, i % 13 === 0 ? null : (i * 31) % 400]);
    const { ids, keys } = group([SMALLINT, DATE], rows, 333);
    expect(ids).to.deep.equal(firstSeenIds(rows));
    expect(keys.length).to.equal(new Set(firstSeenIds(rows)).size);
    const table = new IntegerGroupByHash([SMALLINT, DATE]);
    table.putRows([columnFromScalars(SMALLINT, [5]), columnFromScalars(DATE, [7])], 1, new Int32Array(1));
    const [a, b] = table.keyColumns(0, 1);
    expect(a.values).to.be.instanceOf(Int16Array);
    expect(b.values).to.be.instanceOf(Int32Array);
  });

  it('numbers keys in order, and keys whose low bits collide (it then mixes its hashes), in first-seen order', () => {
    const ordered: Scalar[][] = [];
    for (let i = 0; i < 120000; i++) ordered.push([i % 5000 === 7 ? null : BigInt(4 * Math.floor(i / 3) + (i % 3 === 2 ? 1 : 0))]);
    const inOrder = group([BIGINT], ordered, 8192);
    expect(inOrder.ids).to.deep.equal(firstSeenIds(ordered));
    expect(inOrder.keys[inOrder.ids[7]]).to.deep.equal([null]);
    // Multiples of 2^16 below 2^32: the low bits of 200,000 keys take a few dozen values.
    const colliding: Scalar[][] = [];
    for (let i = 0; i < 200000; i++) colliding.push([BigInt((((i % 65536) * 65536) >>> 0) + Math.floor(i / 65536))]);
    for (let i = 0; i < 50000; i++) colliding.push([colliding[(i * 7919) % 200000][0]]);
    colliding.push([null], [0n], [null]);
    const { ids, keys } = group([BIGINT], colliding, 8192);
    expect(ids).to.deep.equal(firstSeenIds(colliding));
    expect(keys.length).to.equal(200001);
    expect(keys[200000]).to.deep.equal([null]);
  });

  it('getRows finds present keys and answers -1 for absent ones without adding', () => {
    const table = new IntegerGroupByHash([decimal(12, 2)]);
    table.putRows([columnFromScalars(decimal(12, 2), [150n, -7n, null])], 3, new Int32Array(3));
    const out = new Int32Array(4);
    table.getRows([columnFromScalars(decimal(12, 2), [-7n, 151n, null, 150n])], 4, out);
    expect([...out]).to.deep.equal([1, -1, 2, 0]);
    expect(table.groupCount).to.equal(3);
  });
});
