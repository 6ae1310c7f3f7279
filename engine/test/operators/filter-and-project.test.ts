import { expect } from 'chai';
import { filterAndProject } from '../../src/exec/operators/filter-and-project.js';
import { TARGET_PAGE_ROWS } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { call, constant, inputRef } from '../../src/sql/planner/row-expression.js';
import { BIGINT, BOOLEAN, VARCHAR } from '../../src/types/types.js';
import { collectPages, collectRows, rowsStream, testContext } from './helpers.js';

const types = [BIGINT, VARCHAR];
const value = inputRef(0, BIGINT);
const name = inputRef(1, VARCHAR);
const above = (n: bigint) => call('greater_than', BOOLEAN, value, constant(n, BIGINT));

describe('filterAndProject operator', () => {
  const rows: Scalar[][] = [
    [5n, 'a'],
    [null, 'b'],
    [15n, null],
    [25n, 'd'],
  ];

  it('keeps rows where the filter is TRUE (NULL drops) and computes projections', async () => {
    const out = await collectRows(
      filterAndProject(testContext(), rowsStream(types, rows), types, above(10n), [
        name,
        call('add', BIGINT, value, constant(1n, BIGINT)),
        constant('k', VARCHAR),
      ]),
    );
    expect(out).to.deep.equal([
      [null, 16n, 'k'],
      ['d', 26n, 'k'],
    ]);
  });

  it('projects columns without a filter, reordering them', async () => {
    const out = await collectRows(filterAndProject(testContext(), rowsStream(types, rows), types, undefined, [name, value]));
    expect(out).to.deep.equal(rows.map((r) => [r[1], r[0]]));
  });

  it('compacts the small pages a selective filter leaves', async () => {
    const many: Scalar[][] = Array.from({ length: 40000 }, (_, i) => [BigInt(i), `r${i}`]);
    const selective = call('equal', BOOLEAN, call('modulus', BIGINT, value, constant(100n, BIGINT)), constant(0n, BIGINT));
    const pages = await collectPages(filterAndProject(testContext(), rowsStream(types, many, 1000), types, selective, [value]));
    expect(pages.reduce((s, p) => s + p.rowCount, 0)).to.equal(400);
    expect(pages.length).to.equal(1);
    expect(pages[0].rowCount).to.be.at.most(TARGET_PAGE_ROWS);
  });
});
