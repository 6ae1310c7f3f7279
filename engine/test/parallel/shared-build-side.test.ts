// A build side shared with the worker threads is made a column, and a slice of a column's
// dictionary, at a time (the event loop gets its turns meanwhile): every thread's view of it holds
// the build's rows exactly, whether a string column went as a dictionary (few distinct values, over
// several slices), as its strings (too many distinct values, found only past the first slice) or
// holds NULLs; a cancelled query stops sharing.

import { expect } from 'chai';
import { columnFromScalars, getScalar, type Page } from '../../src/columnar/page.js';
import { buildSideFromShared, shareBuildSide } from '../../src/exec/threads/shared-build-side.js';
import { BIGINT, VARCHAR } from '../../src/types/types.js';

const ROWS = 200_000;

function buildPage(): Page {
  return {
    rowCount: ROWS,
    columns: [
      columnFromScalars(
        BIGINT,
        Array.from({ length: ROWS }, (_, i) => BigInt(i * 3)),
      ),
      // 7 distinct values and NULLs: a dictionary over every slice.
      columnFromScalars(
        VARCHAR,
        Array.from({ length: ROWS }, (_, i) => (i % 13 === 0 ? null : `nation ${i % 7}`)),
      ),
      // Few distinct values in the first slice, then one per row: no dictionary.
      columnFromScalars(
        VARCHAR,
        Array.from({ length: ROWS }, (_, i) => (i < 70_000 ? `c${i % 5}` : `customer ${i}`)),
      ),
    ],
  };
}

describe('a build side shared with the worker threads', () => {
  it('reads back every row of its bigint, dictionary and plain string columns, NULLs included', async () => {
    const page = buildPage();
    const next = new Int32Array(ROWS);
    const shared = await shareBuildSide({ page, hash: null, next }, { signal: new AbortController().signal });
    // Its 7 strings and the NULL slot.
    expect(shared.dictionaries.map((d) => [d.column, d.values.length])).to.deep.equal([[1, 8]]);
    const view = buildSideFromShared(shared, []);
    expect(view.page.rowCount).to.equal(ROWS);
    for (let c = 0; c < page.columns.length; c++) {
      for (let row = 0; row < ROWS; row++) {
        const expected = getScalar(page.columns[c], row);
        const actual = getScalar(view.page.columns[c], row);
        if (actual !== expected) expect(actual, `column ${c} row ${row}`).to.equal(expected);
      }
    }
  });

  it('stops with USER_CANCELED once the query is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const sharing = shareBuildSide({ page: buildPage(), hash: null, next: new Int32Array(ROWS) }, { signal: controller.signal });
    let error: unknown;
    try {
      await sharing;
    } catch (e) {
      error = e;
    }
    expect(error).to.have.property('errorName', 'USER_CANCELED');
  });
});
