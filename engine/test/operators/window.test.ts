import { expect } from 'chai';
import { window, type WindowFunctionSpec } from '../../src/exec/operators/window.js';
import type { FrameSpec } from '../../src/sql/planner/window-frame.js';
import type { SortKey } from '../../src/functions/scalar/value-ordering.js';
import type { Scalar } from '../../src/types/scalar.js';
import { isWindowFunctionName, listWindowFunctions, resolveWindowFunction } from '../../src/functions/window/registry.js';
import { BIGINT, DOUBLE, INTEGER, VARCHAR, typeName, type SqlType } from '../../src/types/types.js';
import { collectRows, errorOf, rowsStream, testContext } from './helpers.js';

const DEFAULT_FRAME: FrameSpec<number> = { unit: 'RANGE', start: { type: 'UNBOUNDED_PRECEDING' }, end: { type: 'CURRENT_ROW' } };
const WHOLE: FrameSpec<number> = { unit: 'ROWS', start: { type: 'UNBOUNDED_PRECEDING' }, end: { type: 'UNBOUNDED_FOLLOWING' } };
const asc = (channel: number): SortKey => ({ channel, ascending: true, nullsFirst: false });

/** Appends bigint columns holding the same value on every row (frame offsets are input columns). */
function withOffsets(types: SqlType[], rows: Scalar[][], offsets: bigint[]): { types: SqlType[]; rows: Scalar[][]; channels: number[] } {
  return {
    types: [...types, ...offsets.map(() => BIGINT)],
    rows: rows.map((r) => [...r, ...offsets]),
    channels: offsets.map((_, i) => types.length + i),
  };
}

interface Call {
  name: string;
  args?: number[];
  frame?: FrameSpec<number>;
  ignoreNulls?: boolean;
}

/** Runs one window over rows; returns the function columns (with the first input column) per row. */
async function runWindow(types: SqlType[], rows: Scalar[][], partition: number[], order: SortKey[], calls: Call[]): Promise<Scalar[][]> {
  const functions: WindowFunctionSpec[] = calls.map((c) => ({
    function: resolveWindowFunction(
      c.name,
      (c.args ?? []).map((a) => types[a]),
    ),
    argumentChannels: c.args ?? [],
    frame: c.frame ?? DEFAULT_FRAME,
    ignoreNulls: c.ignoreNulls ?? false,
  }));
  const out = await collectRows(
    window(testContext(), rowsStream(types, rows, 4), types, { partitionChannels: partition, orderKeys: order, functions }),
  );
  return out.map((r) => [r[0], ...r.slice(types.length)]);
}

describe('window functions', () => {
  it('registry resolves window and aggregate functions with Trino messages', () => {
    expect(isWindowFunctionName('ROW_NUMBER')).to.equal(true);
    expect(isWindowFunctionName('sum')).to.equal(false);
    expect(typeName(resolveWindowFunction('sum', [INTEGER]).returnType)).to.equal('bigint');
    expect(resolveWindowFunction('lag', [VARCHAR, INTEGER]).argumentTypes.map(typeName)).to.deep.equal(['varchar', 'bigint']);
    expect(() => resolveWindowFunction('nope', [])).to.throw("Function 'nope' not registered");
    expect(() => resolveWindowFunction('rank', [BIGINT])).to.throw('Unexpected parameters (bigint) for function rank. Expected: rank()');
    expect(listWindowFunctions().map((f) => f.name)).to.include.members(['row_number', 'lag', 'nth_value']);
  });

  // (id, group, value): partitions by group, ordered by value
  const types = [INTEGER, VARCHAR, BIGINT];
  const rows: Scalar[][] = [
    [1, 'a', 10n],
    [2, 'a', 20n],
    [3, 'a', 20n],
    [4, 'a', 30n],
    [5, 'b', 5n],
    [6, null, 1n],
    [7, null, 2n],
  ];

  it('ranking: row_number, rank, dense_rank, percent_rank, cume_dist; NULL partition keys form one partition', async () => {
    const out = await runWindow(
      types,
      rows,
      [1],
      [asc(2)],
      [{ name: 'row_number' }, { name: 'rank' }, { name: 'dense_rank' }, { name: 'percent_rank' }, { name: 'cume_dist' }],
    );
    const byId = new Map(out.map((r) => [r[0], r.slice(1)]));
    expect(byId.get(1)).to.deep.equal([1n, 1n, 1n, 0, 0.25]);
    expect(byId.get(2)?.slice(1)).to.deep.equal([2n, 2n, 1 / 3, 0.75]);
    expect(byId.get(3)?.slice(1)).to.deep.equal([2n, 2n, 1 / 3, 0.75]);
    expect(byId.get(4)).to.deep.equal([4n, 4n, 3n, 1, 1]);
    expect(byId.get(5)).to.deep.equal([1n, 1n, 1n, 0, 1]);
    expect(byId.get(7)).to.deep.equal([2n, 2n, 2n, 1, 1]);
  });

  it('ntile splits like Trino (first buckets one row larger)', async () => {
    const t = [INTEGER, BIGINT];
    const input: Scalar[][] = Array.from({ length: 7 }, (_, i) => [i, 3n]);
    const out = await runWindow(t, input, [], [asc(0)], [{ name: 'ntile', args: [1] }]);
    expect(out.map((r) => r[1])).to.deep.equal([1n, 1n, 1n, 2n, 2n, 3n, 3n]);
  });

  it('lag and lead with offsets, defaults and IGNORE NULLS', async () => {
    const t = [INTEGER, BIGINT, BIGINT];
    const input: Scalar[][] = [
      [1, 10n, 2n],
      [2, null, 2n],
      [3, 30n, 2n],
      [4, 40n, 2n],
    ];
    const out = await runWindow(
      t,
      input,
      [],
      [asc(0)],
      [
        { name: 'lag', args: [1] },
        { name: 'lead', args: [1, 2, 1] },
        { name: 'lag', args: [1], ignoreNulls: true },
        { name: 'lead', args: [1], ignoreNulls: true },
      ],
    );
    expect(out).to.deep.equal([
      [1, null, 30n, null, 30n],
      [2, 10n, 40n, 10n, 30n],
      [3, null, 30n, 10n, 40n],
      [4, 30n, 40n, 30n, null],
    ]);
  });

  it('first_value, last_value, nth_value over ROWS frames, with IGNORE NULLS', async () => {
    const {
      types: t,
      rows: input,
      channels: [one],
    } = withOffsets(
      [INTEGER, VARCHAR, BIGINT],
      [
        [1, null, 2n],
        [2, 'b', 2n],
        [3, 'c', 2n],
        [4, null, 2n],
      ],
      [1n],
    );
    const around: FrameSpec<number> = { unit: 'ROWS', start: { type: 'PRECEDING', offset: one }, end: { type: 'FOLLOWING', offset: one } };
    const out = await runWindow(
      t,
      input,
      [],
      [asc(0)],
      [
        { name: 'first_value', args: [1], frame: around },
        { name: 'last_value', args: [1], frame: around },
        { name: 'nth_value', args: [1, 2], frame: WHOLE },
        { name: 'first_value', args: [1], frame: WHOLE, ignoreNulls: true },
        { name: 'last_value', args: [1], frame: WHOLE, ignoreNulls: true },
      ],
    );
    expect(out).to.deep.equal([
      [1, null, 'b', 'b', 'b', 'c'],
      [2, null, 'c', 'b', 'b', 'c'],
      [3, 'b', null, 'b', 'b', 'c'],
      [4, 'c', null, 'b', 'b', 'c'],
    ]);
  });

  it('aggregates over the default frame include peers (RANGE .. CURRENT ROW)', async () => {
    const out = await runWindow(
      types,
      rows,
      [1],
      [asc(2)],
      [
        { name: 'sum', args: [2] },
        { name: 'count', args: [] },
        { name: 'max', args: [0], frame: WHOLE },
      ],
    );
    const byId = new Map(out.map((r) => [r[0], r.slice(1)]));
    expect(byId.get(1)).to.deep.equal([10n, 1n, 4]);
    expect(byId.get(2)).to.deep.equal([50n, 3n, 4]);
    expect(byId.get(3)).to.deep.equal([50n, 3n, 4]);
    expect(byId.get(4)).to.deep.equal([80n, 4n, 4]);
    expect(byId.get(6)).to.deep.equal([1n, 1n, 7]);
  });

  it('sliding ROWS frames, and empty frames give count 0 and sum NULL', async () => {
    const offsets = withOffsets(
      [INTEGER, BIGINT],
      [1, 2, 3, 4, 5].map((i) => [i, BigInt(i * 10)]),
      [1n, 2n, 3n],
    );
    const {
      types: t,
      rows: input,
      channels: [one, two, three],
    } = offsets;
    const sliding: FrameSpec<number> = { unit: 'ROWS', start: { type: 'PRECEDING', offset: one }, end: { type: 'FOLLOWING', offset: one } };
    const ahead: FrameSpec<number> = { unit: 'ROWS', start: { type: 'FOLLOWING', offset: two }, end: { type: 'FOLLOWING', offset: three } };
    const out = await runWindow(
      t,
      input,
      [],
      [asc(0)],
      [
        { name: 'sum', args: [1], frame: sliding },
        { name: 'sum', args: [1], frame: ahead },
        { name: 'count', args: [], frame: ahead },
      ],
    );
    expect(out).to.deep.equal([
      [1, 30n, 70n, 2n],
      [2, 60n, 90n, 2n],
      [3, 90n, 50n, 1n],
      [4, 120n, null, 0n],
      [5, 90n, null, 0n],
    ]);
  });

  it('RANGE frames with value offsets, ascending and descending, NULL keys as their own peers', async () => {
    // Columns: id, key, offset 2, key - 2 (the ascending bound value), key + 2 (the descending one).
    const t = [INTEGER, DOUBLE, DOUBLE, DOUBLE, DOUBLE];
    const input: Scalar[][] = [1, 2, 4, 4.5, 7, null].map((key, i) => [
      i + 1,
      key,
      2,
      key === null ? null : key - 2,
      key === null ? null : key + 2,
    ]);
    const range = (value: number): FrameSpec<number> => ({
      unit: 'RANGE',
      start: { type: 'PRECEDING', offset: 2, value, sortKey: 1 },
      end: { type: 'CURRENT_ROW' },
    });
    const ascending = await runWindow(t, input, [], [asc(1)], [{ name: 'count', args: [], frame: range(3) }]);
    expect(ascending).to.deep.equal([
      [1, 1n],
      [2, 2n],
      [3, 2n],
      [4, 2n],
      [5, 1n],
      [6, 1n],
    ]);
    const descending = await runWindow(
      t,
      input,
      [],
      [{ channel: 1, ascending: false, nullsFirst: false }],
      [{ name: 'sum', args: [0], frame: range(4) }],
    );
    // DESC: preceding rows have larger values: for 4 (id 3) the frame is values in [4, 6] -> ids 3, 4.
    expect(descending).to.deep.equal([
      [5, 5n],
      [4, 4n],
      [3, 7n],
      [2, 5n],
      [1, 3n],
      [6, 6n],
    ]);
  });

  it('a NULL or negative offset fails the query', async () => {
    for (const offset of [null, -1n]) {
      const frame: FrameSpec<number> = { unit: 'ROWS', start: { type: 'PRECEDING', offset: 1 }, end: { type: 'CURRENT_ROW' } };
      const error = await errorOf(
        runWindow(
          [INTEGER, BIGINT],
          [
            [1, 1n],
            [2, offset],
          ],
          [],
          [asc(0)],
          [{ name: 'count', args: [], frame }],
        ),
      );
      expect(error.errorName).to.equal('INVALID_WINDOW_FRAME');
      expect(error.message).to.equal('Window frame offset value must not be negative or null');
    }
  });

  it('GROUPS frames count peer groups', async () => {
    const {
      types: t,
      rows: input,
      channels: [one],
    } = withOffsets(
      [INTEGER, BIGINT],
      [
        [1, 1n],
        [2, 1n],
        [3, 2n],
        [4, 3n],
        [5, 3n],
      ],
      [1n],
    );
    const groups: FrameSpec<number> = { unit: 'GROUPS', start: { type: 'PRECEDING', offset: one }, end: { type: 'CURRENT_ROW' } };
    const out = await runWindow(t, input, [], [asc(1)], [{ name: 'count', args: [], frame: groups }]);
    expect(out.map((r) => r[1])).to.deep.equal([2n, 2n, 3n, 3n, 3n]);
  });

  it('matches brute force for sums and minimums over random frames', async () => {
    let seed = 11;
    const next = (m: number) => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % m;
    const random: Scalar[][] = Array.from({ length: 300 }, (_, i) => [i, BigInt(next(4)), next(8) === 0 ? null : BigInt(next(100))]);
    const {
      types: t,
      rows: input,
      channels: [one, two, three],
    } = withOffsets([INTEGER, BIGINT, BIGINT], random, [1n, 2n, 3n]);
    const offsets = new Map([
      [one, 1],
      [two, 2],
      [three, 3],
    ]);
    const frames: FrameSpec<number>[] = [
      { unit: 'ROWS', start: { type: 'PRECEDING', offset: three }, end: { type: 'FOLLOWING', offset: two } },
      { unit: 'ROWS', start: { type: 'UNBOUNDED_PRECEDING' }, end: { type: 'PRECEDING', offset: one } },
      { unit: 'ROWS', start: { type: 'CURRENT_ROW' }, end: { type: 'UNBOUNDED_FOLLOWING' } },
    ];
    for (const frame of frames) {
      const out = await runWindow(
        t,
        input,
        [1],
        [asc(0)],
        [
          { name: 'sum', args: [2], frame },
          { name: 'min', args: [2], frame },
        ],
      );
      for (const [id, sum, min] of out) {
        const row = input[id as number];
        const partition = input.filter((r) => r[1] === row[1]);
        const i = partition.indexOf(row);
        const off = (b: FrameSpec<number>['start']) => (b.offset === undefined ? 0 : (offsets.get(b.offset) as number));
        const s = frame.start.type === 'UNBOUNDED_PRECEDING' ? 0 : frame.start.type === 'CURRENT_ROW' ? i : i - off(frame.start);
        const e =
          frame.end.type === 'UNBOUNDED_FOLLOWING'
            ? partition.length - 1
            : frame.end.type === 'PRECEDING'
              ? i - off(frame.end)
              : i + off(frame.end);
        const values = partition
          .slice(Math.max(0, s), Math.max(0, e + 1))
          .map((r) => r[2])
          .filter((v): v is bigint => v !== null);
        expect(sum).to.equal(values.length === 0 ? null : values.reduce((a, b) => a + b, 0n));
        expect(min).to.equal(values.length === 0 ? null : values.reduce((a, b) => (a < b ? a : b)));
      }
    }
  });

  it('rejects a bucket count below 1', async () => {
    const t = [INTEGER, BIGINT];
    const error = await errorOf(runWindow(t, [[1, 0n]], [], [asc(0)], [{ name: 'ntile', args: [1] }]));
    expect(error.errorName).to.equal('INVALID_FUNCTION_ARGUMENT');
  });
});
