// The main thread's merge of a parallel sort's runs, over more runs than this machine has threads:
// runs of pages of any size (empty pages, an empty run, a run of one row), keys with NULLs, NaN and
// ties, merged whole or up to a limit, give the order of a plain reference sort of the same rows,
// each row once; the memory it held is given back.

import { expect } from 'chai';
import { columnFromScalars, getScalar, type Page } from '../../src/columnar/page.js';
import { MemoryContext } from '../../src/exec/memory.js';
import type { OperatorContext } from '../../src/exec/operators/operator.js';
import { mergeSortedRuns } from '../../src/exec/threads/merge-sorted-runs.js';
import type { ThreadRuns } from '../../src/exec/threads/parallel-source.js';
import type { SortKey } from '../../src/functions/scalar/value-ordering.js';
import { DOUBLE, INTEGER, type SqlType } from '../../src/types/types.js';

const TYPES: SqlType[] = [DOUBLE, INTEGER];
/** The double DESC NULLS FIRST (NaN largest), then the id ASC. */
const KEYS: SortKey[] = [
  { channel: 0, ascending: false, nullsFirst: true },
  { channel: 1, ascending: true, nullsFirst: false },
];

type Row = [number | null, number];

/** The reference order of KEYS, written out on plain values. */
function referenceCompare(a: Row, b: Row): number {
  const [x, y] = [a[0], b[0]];
  if (x === null || y === null) return x === y ? a[1] - b[1] : x === null ? -1 : 1;
  const rank = (v: number) => (Number.isNaN(v) ? Number.POSITIVE_INFINITY : v);
  if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? -1 : 1;
  if (rank(x) !== rank(y)) return rank(y) - rank(x);
  return a[1] - b[1];
}

function page(rows: Row[]): Page {
  return {
    rowCount: rows.length,
    columns: TYPES.map((t, c) =>
      columnFromScalars(
        t,
        rows.map((r) => r[c]),
      ),
    ),
  };
}

/** Runs made of `rows` dealt out to `count` runs, each sorted and cut into pages of varied sizes. */
function runsOf(rows: Row[], count: number): Page[][] {
  const runs: Row[][] = Array.from({ length: count }, () => []);
  rows.forEach((row, i) => runs[(i * 7) % (count - 1)].push(row));
  // The last run stays empty.
  return runs.map((run, r) => {
    run.sort(referenceCompare);
    const pages: Page[] = [page([])];
    for (let start = 0, size = 1 + r; start < run.length; start += size, size = (size * 3) % 5000 || 1)
      pages.push(page(run.slice(start, start + size)));
    return pages;
  });
}

function threadRuns(runs: Page[][]): ThreadRuns {
  const next = runs.map(() => 0);
  return {
    count: runs.length,
    next: async (run) => {
      await Promise.resolve();
      return runs[run][next[run]++];
    },
  };
}

async function merged(runs: Page[][], limit?: number): Promise<{ rows: Row[]; memory: MemoryContext }> {
  const memory = new MemoryContext('merge', 1 << 30);
  const ctx: OperatorContext = { memory, signal: new AbortController().signal, timeZone: 'UTC' };
  const rows: Row[] = [];
  for await (const out of mergeSortedRuns(ctx, threadRuns(runs), TYPES, KEYS, limit)) {
    for (let r = 0; r < out.rowCount; r++) rows.push(out.columns.map((c) => getScalar(c, r)) as Row);
  }
  return { rows, memory };
}

describe('parallel sort: merging the threads sorted runs', () => {
  const rows: Row[] = Array.from({ length: 30_000 }, (_, id): Row => {
    const v = id % 13 === 0 ? null : id % 17 === 0 ? Number.NaN : id % 19 === 0 ? -0 : (id * 7919) % 211;
    return [v, id];
  });
  const expected = [...rows].sort(referenceCompare);

  for (const count of [2, 5, 9]) {
    it(`${count} runs (one empty) merge into the reference order, each row once`, async () => {
      const { rows: out, memory } = await merged(runsOf(rows, count));
      expect(out.length).to.equal(rows.length);
      expect(out.map((r) => r[1])).to.deep.equal(expected.map((r) => r[1]));
      expect(memory.reservedBytes).to.equal(0);
    });

    it(`${count} runs merged up to a limit`, async () => {
      for (const limit of [0, 1, 777, 8192, 8193, 29_999, 40_000]) {
        const { rows: out } = await merged(runsOf(rows, count), limit);
        expect(
          out.map((r) => r[1]),
          `limit ${limit}`,
        ).to.deep.equal(expected.slice(0, limit).map((r) => r[1]));
      }
    });
  }

  it('one run of one row, and no runs at all', async () => {
    expect((await merged([[page([[1.5, 7]])]])).rows).to.deep.equal([[1.5, 7]]);
    expect((await merged([])).rows).to.deep.equal([]);
    expect((await merged([[], [page([])]])).rows).to.deep.equal([]);
  });
});
