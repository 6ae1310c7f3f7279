import { expect } from 'chai';
import { columnFromScalars, getScalar, type Column, type Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { roundTrip } from './parallel-helpers.js';
import { encodePage } from '../../src/exec/threads/page-transfer.js';
import { BIGINT, BOOLEAN, DATE, DOUBLE, INTEGER, VARBINARY, VARCHAR, decimal } from '../../src/types/types.js';

function rows(page: Page): Scalar[][] {
  return Array.from({ length: page.rowCount }, (_, r) => page.columns.map((c) => getScalar(c, r)));
}

describe('pages posted between threads', () => {
  it('arrive with the same values for every storage kind, NULLs included', async () => {
    const bytes = (s: string) => new Uint8Array(Buffer.from(s));
    const columns = [
      columnFromScalars(BOOLEAN, [true, null, false]),
      columnFromScalars(INTEGER, [1, 2, null]),
      columnFromScalars(BIGINT, [-(2n ** 63n), null, 2n ** 63n - 1n]),
      columnFromScalars(DOUBLE, [0.5, NaN, null]),
      columnFromScalars(decimal(12, 2), [12345n, null, -1n]),
      columnFromScalars(decimal(30, 2), [10n ** 28n, -(10n ** 27n), null]),
      columnFromScalars(VARCHAR, ['a', '', 'ünï']),
      columnFromScalars(VARBINARY, [bytes('xy'), null, new Uint8Array(0)]),
      columnFromScalars(DATE, [0, 18000, null]),
    ];
    const page: Page = { rowCount: 3, columns };
    const arrived = await roundTrip(page);
    expect(rows(arrived)).to.deep.equal(rows(page));
    expect(arrived.columns.map((c) => c.type)).to.deep.equal(columns.map((c) => c.type));
  });

  it('packs long decimals that fit 64 bits and clones those that do not, exactly either way', async () => {
    const int64Edges = [2n ** 63n - 1n, -(2n ** 63n), 0n, -1n, null, 10n ** 18n + 7n];
    const beyond = [...int64Edges, 2n ** 63n, -(2n ** 63n) - 1n, 10n ** 37n];
    for (const values of [int64Edges, beyond]) {
      const page: Page = { rowCount: values.length, columns: [columnFromScalars(decimal(38, 2), values)] };
      expect('int64' in (encodePage(page).page.columns[0].values as object)).to.equal(values === int64Edges);
      const arrived = await roundTrip(page);
      expect(rows(arrived)).to.deep.equal(rows(page));
      expect(Array.isArray(arrived.columns[0].values)).to.equal(true);
    }
  });

  it('leaves the sender its own buffers: views of a larger buffer are copied to their rows', async () => {
    const whole = new Int32Array([1, 2, 3, 4, 5, 6]);
    const column: Column = { type: INTEGER, length: 2, values: whole.subarray(2, 4), nulls: null };
    const arrived = await roundTrip({ rowCount: 2, columns: [column] });
    expect(Array.from(arrived.columns[0].values as Int32Array)).to.deep.equal([3, 4]);
    expect((arrived.columns[0].values as Int32Array).buffer.byteLength).to.equal(8);
    expect(Array.from(whole)).to.deep.equal([1, 2, 3, 4, 5, 6]);
  });

  it('shares views of shared memory instead of copying them', async () => {
    const shared = new BigInt64Array(new SharedArrayBuffer(24));
    shared.set([7n, 8n, 9n]);
    const arrived = await roundTrip({ rowCount: 3, columns: [{ type: BIGINT, length: 3, values: shared, nulls: null }] });
    const values = arrived.columns[0].values as BigInt64Array;
    expect(values.buffer).to.be.instanceOf(SharedArrayBuffer);
    shared[0] = 70n;
    expect(values[0]).to.equal(70n);
  });

  it('sends only the rows of a column whose values array is longer than the page', async () => {
    const column: Column = { type: VARCHAR, length: 2, values: ['a', 'b', 'not a row'], nulls: null };
    const arrived = await roundTrip({ rowCount: 2, columns: [column] });
    expect(arrived.columns[0].values).to.deep.equal(['a', 'b']);
  });
});
