import { expect } from 'chai';
import { hashJoin, type HashJoinSpec, type JoinType } from '../../src/exec/operators/hash-join.js';
import { PROBE_FIRST_MAX_ROWS } from '../../src/exec/operators/probe-head.js';
import { TARGET_PAGE_ROWS } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { call, inputRef } from '../../src/sql/planner/row-expression.js';
import { BIGINT, BOOLEAN, INTEGER, VARCHAR, type SqlType } from '../../src/types/types.js';
import { collectPages, collectRows, errorOf, rowsStream, sortedRows, testContext } from './helpers.js';

const PROBE_TYPES: SqlType[] = [BIGINT, VARCHAR];
const BUILD_TYPES: SqlType[] = [BIGINT, INTEGER];

function join(probe: Scalar[][], build: Scalar[][], spec: Partial<HashJoinSpec> & { type: JoinType }, probePageRows?: number) {
  const full: HashJoinSpec = {
    probeTypes: PROBE_TYPES,
    buildTypes: BUILD_TYPES,
    probeKeys: [0],
    buildKeys: [0],
    probeOutput: [0, 1],
    buildOutput: spec.type === 'mark' ? [] : [0, 1],
    ...spec,
  };
  return collectRows(hashJoin(testContext(), rowsStream(full.probeTypes, probe, probePageRows), rowsStream(full.buildTypes, build), full));
}

/** The filter `build value > n` (build channel 1 follows the probe's two channels). */
const valueAbove = (n: number) => call('greater_than', BOOLEAN, inputRef(3, INTEGER), { kind: 'constant', value: n, type: INTEGER });

/**
 * A mark join's output for `probe`, first with the probe side hashed (the build side, when not
 * empty, padded with unmatched rows to outnumber the probe side), then with the build side hashed
 * (the probe side padded past PROBE_FIRST_MAX_ROWS with unmatched rows, left out of the result).
 */
async function markBothWays(probe: Scalar[][], build: Scalar[][], spec: Partial<HashJoinSpec>): Promise<[Scalar[][], Scalar[][]]> {
  const markSpec = { ...spec, type: 'mark' as const, probeOutput: [1] };
  const buildPadding: Scalar[][] = Array.from({ length: build.length === 0 ? 0 : probe.length + 1 }, () => [-9n, 0]);
  const probeHashed = await join(probe, [...build, ...buildPadding], markSpec);
  const probePadding: Scalar[][] = Array.from({ length: PROBE_FIRST_MAX_ROWS + 1 }, () => [-7n, 'pad']);
  const buildHashed = await join([...probe, ...probePadding], build, markSpec, 8192);
  return [probeHashed, buildHashed.filter((r) => r[0] !== 'pad')];
}

/** Joins by brute force, for comparison. */
function naiveJoin(probe: Scalar[][], build: Scalar[][], type: 'inner' | 'left' | 'right' | 'full'): Scalar[][] {
  const out: Scalar[][] = [];
  const buildMatched = new Set<number>();
  for (const p of probe) {
    let matched = false;
    build.forEach((b, j) => {
      if (p[0] !== null && p[0] === b[0]) {
        out.push([...p, ...b]);
        matched = true;
        buildMatched.add(j);
      }
    });
    if (!matched && (type === 'left' || type === 'full')) out.push([...p, null, null]);
  }
  if (type === 'right' || type === 'full') build.forEach((b, j) => !buildMatched.has(j) && out.push([null, null, ...b]));
  return out;
}

describe('hashJoin operator', () => {
  const probe: Scalar[][] = [
    [1n, 'a'],
    [2n, 'b'],
    [null, 'n'],
    [1n, 'c'],
    [4n, 'd'],
  ];
  const build: Scalar[][] = [
    [1n, 10],
    [1n, 11],
    [null, 99],
    [2n, 20],
    [3n, 30],
  ];

  for (const type of ['inner', 'left', 'right', 'full'] as const) {
    it(`${type} join: duplicates match pairwise, NULL keys never match`, async () => {
      expect(sortedRows(await join(probe, build, { type }))).to.deep.equal(sortedRows(naiveJoin(probe, build, type)));
    });
  }

  it('matches a brute-force join on random data with many duplicates, in bounded pages', async () => {
    let seed = 7;
    const next = (m: number) => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % m;
    const p: Scalar[][] = Array.from({ length: 1500 }, (_, i) => [next(10) === 0 ? null : BigInt(next(150)), `p${i}`]);
    const b: Scalar[][] = Array.from({ length: 1000 }, (_, i) => [next(10) === 0 ? null : BigInt(next(200)), i]);
    for (const type of ['inner', 'left', 'right', 'full'] as const) {
      const spec: HashJoinSpec = {
        type,
        probeTypes: PROBE_TYPES,
        buildTypes: BUILD_TYPES,
        probeKeys: [0],
        buildKeys: [0],
        probeOutput: [0, 1],
        buildOutput: [0, 1],
      };
      const pages = await collectPages(hashJoin(testContext(), rowsStream(PROBE_TYPES, p, 700), rowsStream(BUILD_TYPES, b, 700), spec));
      for (const page of pages) expect(page.rowCount).to.be.at.most(TARGET_PAGE_ROWS);
      const rows = pages.flatMap((page) =>
        Array.from({ length: page.rowCount }, (_, r) => page.columns.map((c) => (c.nulls?.[r] ? null : c.values[r]))),
      );
      expect(sortedRows(rows as Scalar[][])).to.deep.equal(sortedRows(naiveJoin(p, b, type)));
    }
  });

  it('joins on several key columns of different types', async () => {
    const types: SqlType[] = [VARCHAR, INTEGER];
    const rows = await collectRows(
      hashJoin(
        testContext(),
        rowsStream(types, [
          ['x', 1],
          ['x', 2],
          ['y', 1],
          [null, 1],
        ]),
        rowsStream(types, [
          ['x', 1],
          ['y', 1],
          ['y', 2],
          ['x', null],
        ]),
        { type: 'inner', probeTypes: types, buildTypes: types, probeKeys: [0, 1], buildKeys: [0, 1], probeOutput: [0, 1], buildOutput: [] },
      ),
    );
    expect(sortedRows(rows)).to.deep.equal([
      ['x', 1],
      ['y', 1],
    ]);
  });

  it('without keys is a nested-loop (cross) join; an empty build side gives nothing, or NULLs for LEFT', async () => {
    const rows = await join(probe.slice(0, 2), build.slice(0, 3), { type: 'inner', probeKeys: [], buildKeys: [], buildOutput: [1] });
    expect(rows.length).to.equal(6);
    expect(await join(probe, [], { type: 'inner' })).to.deep.equal([]);
    expect(await join(probe.slice(0, 1), [], { type: 'left' })).to.deep.equal([[1n, 'a', null, null]]);
    const many = await collectPages(
      hashJoin(
        testContext(),
        rowsStream(
          PROBE_TYPES,
          Array.from({ length: 200 }, (_, i) => [BigInt(i), 'p']),
          50,
        ),
        rowsStream(
          BUILD_TYPES,
          Array.from({ length: 100 }, (_, i) => [BigInt(i), i]),
          50,
        ),
        {
          type: 'inner',
          probeTypes: PROBE_TYPES,
          buildTypes: BUILD_TYPES,
          probeKeys: [],
          buildKeys: [],
          probeOutput: [0],
          buildOutput: [1],
        },
      ),
    );
    expect(many.reduce((s, p) => s + p.rowCount, 0)).to.equal(20000);
    for (const page of many) expect(page.rowCount).to.be.at.most(TARGET_PAGE_ROWS);
  });

  describe('mark join', () => {
    const inProbe: Scalar[][] = [
      [1n, 'one'],
      [3n, 'three'],
      [null, 'null'],
    ];
    const marks = async (buildValues: (bigint | null)[], nullAware: boolean) => {
      const [small, padded] = await markBothWays(
        inProbe,
        buildValues.map((v) => [v, 0]),
        { markNullAware: nullAware },
      );
      expect(padded, 'with the build side hashed').to.deep.equal(small);
      return small;
    };

    it('x IN (1, 2, NULL): TRUE for 1, NULL for 3 and for NULL', async () => {
      expect(await marks([1n, 2n, null], true)).to.deep.equal([
        ['one', true],
        ['three', null],
        ['null', null],
      ]);
    });

    it('x IN (1, 2): TRUE, FALSE, NULL', async () => {
      expect(await marks([1n, 2n], true)).to.deep.equal([
        ['one', true],
        ['three', false],
        ['null', null],
      ]);
    });

    it('x IN (empty): FALSE even for NULL x', async () => {
      expect(await marks([], true)).to.deep.equal([
        ['one', false],
        ['three', false],
        ['null', false],
      ]);
    });

    it('x IN (NULL): NULL for every x', async () => {
      expect(await marks([null], true)).to.deep.equal([
        ['one', null],
        ['three', null],
        ['null', null],
      ]);
    });

    it('EXISTS with a filter: TRUE when some key-equal row passes it, duplicates and NULL filters alike', async () => {
      const probe: Scalar[][] = [
        [1n, 'one'],
        [1n, 'one again'],
        [2n, 'two'],
        [3n, 'three'],
        [null, 'null'],
      ];
      const build: Scalar[][] = [
        [1n, 2],
        [1n, 5],
        [2n, 1],
        [2n, null],
        [null, 9],
      ];
      const expected = [
        ['one', true],
        ['one again', true],
        ['two', false],
        ['three', false],
        ['null', false],
      ];
      const [small, padded] = await markBothWays(probe, build, { filter: valueAbove(3) });
      expect(small).to.deep.equal(expected);
      expect(padded).to.deep.equal(expected);
    });

    it('without null-awareness (EXISTS / semi join) NULLs are FALSE', async () => {
      expect(await marks([1n, 2n, null], false)).to.deep.equal([
        ['one', true],
        ['three', false],
        ['null', false],
      ]);
    });
  });

  it('fails with EXCEEDED_LOCAL_MEMORY_LIMIT when the build side does not fit, and frees what it reserved', async () => {
    const ctx = testContext(256 * 1024);
    const bigBuild: Scalar[][] = Array.from({ length: 50000 }, (_, i) => [BigInt(i), i]);
    const spec: HashJoinSpec = {
      type: 'inner',
      probeTypes: PROBE_TYPES,
      buildTypes: BUILD_TYPES,
      probeKeys: [0],
      buildKeys: [0],
      probeOutput: [0],
      buildOutput: [1],
    };
    const error = await errorOf(
      collectRows(hashJoin(ctx, rowsStream(PROBE_TYPES, [[1n, 'a']]), rowsStream(BUILD_TYPES, bigBuild, 1000), spec)),
    );
    expect(error.errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(ctx.memory.reservedBytes).to.equal(0);
  });

  it('a mark join over a big probe side releases the probe pages it read ahead once it has passed them on', async () => {
    const ctx = testContext();
    const probeRows: Scalar[][] = Array.from({ length: 2 * PROBE_FIRST_MAX_ROWS }, (_, i) => [BigInt(i % 1000), 'probe row']);
    const spec: HashJoinSpec = {
      type: 'mark',
      probeTypes: PROBE_TYPES,
      buildTypes: BUILD_TYPES,
      probeKeys: [0],
      buildKeys: [0],
      probeOutput: [1],
      buildOutput: [],
    };
    let rows = 0;
    let reservedAtLastPage = 0;
    let reservedMost = 0;
    for await (const page of hashJoin(ctx, rowsStream(PROBE_TYPES, probeRows, 8192), rowsStream(BUILD_TYPES, [[1n, 1]]), spec)) {
      rows += page.rowCount;
      reservedAtLastPage = ctx.memory.reservedBytes;
      reservedMost = Math.max(reservedMost, reservedAtLastPage);
    }
    expect(rows).to.equal(probeRows.length);
    // The read-ahead (half the probe side) was held at first; by the last page only the build side is.
    expect(reservedMost).to.be.greaterThan(1_000_000);
    expect(reservedAtLastPage).to.be.lessThan(100_000);
    expect(ctx.memory.reservedBytes).to.equal(0);
  });

  describe('residual filters', () => {
    // filter: probe.name <> 'c' AND build.value > 10  -> written as two separate cases

    it('an inner join keeps only pairs passing the filter', async () => {
      expect(sortedRows(await join(probe, build, { type: 'inner', filter: valueAbove(10) }))).to.deep.equal(
        sortedRows([
          [1n, 'a', 1n, 11],
          [1n, 'c', 1n, 11],
          [2n, 'b', 2n, 20],
        ]),
      );
    });

    it('a probe row whose candidates all fail the filter is unmatched in outer joins', async () => {
      expect(sortedRows(await join(probe, build, { type: 'left', filter: valueAbove(15) }))).to.deep.equal(
        sortedRows([
          [1n, 'a', null, null],
          [1n, 'c', null, null],
          [2n, 'b', 2n, 20],
          [null, 'n', null, null],
          [4n, 'd', null, null],
        ]),
      );
      expect(sortedRows(await join(probe, build, { type: 'right', filter: valueAbove(15) }))).to.deep.equal(
        sortedRows([
          [2n, 'b', 2n, 20],
          [null, null, 1n, 10],
          [null, null, 1n, 11],
          [null, null, null, 99],
          [null, null, 3n, 30],
        ]),
      );
    });

    it('a mark join with a filter: NULL filter results make a null-aware mark NULL', async () => {
      // build value > probe-independent constant; value 99 row has a NULL key.
      const rows = await join(
        [
          [1n, 'one'],
          [3n, 'three'],
        ],
        [
          [1n, 5],
          [1n, null],
          [3n, 1],
        ],
        { type: 'mark', markNullAware: true, probeOutput: [1], filter: valueAbove(3) },
      );
      expect(rows).to.deep.equal([
        ['one', true],
        ['three', false],
      ]);
      const unknown = await join([[1n, 'one']], [[1n, null]], {
        type: 'mark',
        markNullAware: true,
        probeOutput: [1],
        filter: valueAbove(3),
      });
      expect(unknown).to.deep.equal([['one', null]]);
    });
  });
});
