import { expect } from 'chai';
import { assignUniqueId, taskIdBase } from '../../src/exec/operators/assign-unique-id.js';
import { enforceSingleRow } from '../../src/exec/operators/enforce-single-row.js';
import { groupId } from '../../src/exec/operators/group-id.js';
import { setOperation } from '../../src/exec/operators/set-operation.js';
import { values } from '../../src/exec/operators/values.js';
import { TARGET_PAGE_ROWS } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, INTEGER, VARCHAR } from '../../src/types/types.js';
import { collectPages, collectRows, errorOf, rowsStream, sortedRows, testContext } from './helpers.js';

describe('values operator', () => {
  it('emits its rows in pages of at most TARGET_PAGE_ROWS', async () => {
    const rows: Scalar[][] = Array.from({ length: TARGET_PAGE_ROWS + 5 }, (_, i) => [i, i % 2 === 0 ? null : `v${i}`]);
    const pages = await collectPages(values([INTEGER, VARCHAR], rows));
    expect(pages.map((p) => p.rowCount)).to.deep.equal([TARGET_PAGE_ROWS, 5]);
    expect(await collectRows(values([INTEGER, VARCHAR], rows.slice(0, 2)))).to.deep.equal([
      [0, null],
      [1, 'v1'],
    ]);
    expect(await collectRows(values([INTEGER], []))).to.deep.equal([]);
  });
});

describe('enforceSingleRow operator', () => {
  it('passes one row, turns none into a row of NULLs, fails on more', async () => {
    expect(await collectRows(enforceSingleRow(rowsStream([INTEGER], [[7]]), [INTEGER]))).to.deep.equal([[7]]);
    expect(await collectRows(enforceSingleRow(rowsStream([INTEGER, VARCHAR], []), [INTEGER, VARCHAR]))).to.deep.equal([[null, null]]);
    const error = await errorOf(collectRows(enforceSingleRow(rowsStream([INTEGER], [[1], [2]], 1), [INTEGER])));
    expect(error.errorName).to.equal('SUBQUERY_MULTIPLE_ROWS');
    expect(error.message).to.equal('Scalar sub-query has returned multiple rows');
  });
});

describe('groupId operator', () => {
  it('emits each page once per grouping set, NULLing channels outside the set', async () => {
    const types = [VARCHAR, INTEGER, BIGINT];
    const rows = await collectRows(groupId(rowsStream(types, [['a', 1, 10n]]), types, [[0, 1], [0], []], [0, 1]));
    expect(rows).to.deep.equal([
      ['a', 1, 10n, 0n],
      ['a', null, 10n, 1n],
      [null, null, 10n, 2n],
    ]);
  });
});

describe('assignUniqueId operator', () => {
  it('appends distinct bigint ids across pages', async () => {
    const rows = await collectRows(assignUniqueId(rowsStream([INTEGER], [[5], [6], [7], [8]], 3), 2 ** 40));
    expect(rows.map((r) => r[1])).to.deep.equal([0n, 1n, 2n, 3n].map((i) => 2n ** 40n + i));
  });

  it("starts a task's ids at its number (the task id's last part) times 2^40; another id's form from 0; a number beyond 2^13 fails", () => {
    expect(taskIdBase('20261127_0001_abc.4.0')).to.equal(0);
    expect(taskIdBase('20261127_0001_abc.4.3')).to.equal(3 * 2 ** 40);
    expect(taskIdBase('20261127_0001_abc.4.8191')).to.equal(8191 * 2 ** 40);
    expect(taskIdBase('a-test-task')).to.equal(0);
    expect(() => taskIdBase('q.1.8192')).to.throw(/beyond the unique ids' range/);
  });
});

describe('setOperation operator', () => {
  const types = [INTEGER, VARCHAR];
  const left: Scalar[][] = [
    [1, 'a'],
    [1, 'a'],
    [1, 'a'],
    [2, null],
    [2, null],
    [3, 'c'],
    [null, null],
  ];
  const right: Scalar[][] = [
    [1, 'a'],
    [2, null],
    [2, null],
    [2, null],
    [null, null],
    [4, 'd'],
  ];
  const run = (kind: 'union' | 'intersect' | 'except', distinct: boolean) =>
    collectRows(setOperation(testContext(), [rowsStream(types, left), rowsStream(types, right)], types, kind, distinct));

  it('UNION ALL concatenates and UNION dedups with NULLs equal', async () => {
    expect((await run('union', false)).length).to.equal(13);
    expect(await run('union', true)).to.deep.equal([
      [1, 'a'],
      [2, null],
      [3, 'c'],
      [null, null],
      [4, 'd'],
    ]);
  });

  it('INTERSECT and INTERSECT ALL', async () => {
    expect(sortedRows(await run('intersect', true))).to.deep.equal(
      sortedRows([
        [1, 'a'],
        [2, null],
        [null, null],
      ]),
    );
    expect(sortedRows(await run('intersect', false))).to.deep.equal(
      sortedRows([
        [1, 'a'],
        [2, null],
        [2, null],
        [null, null],
      ]),
    );
  });

  it('EXCEPT and EXCEPT ALL', async () => {
    expect(await run('except', true)).to.deep.equal([[3, 'c']]);
    expect(sortedRows(await run('except', false))).to.deep.equal(
      sortedRows([
        [1, 'a'],
        [1, 'a'],
        [3, 'c'],
      ]),
    );
  });
});
