import { expect } from 'chai';
import { hashAggregation } from '../../src/exec/operators/hash-aggregation.js';
import { TARGET_PAGE_ROWS } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, DOUBLE, INTEGER, VARCHAR, decimal } from '../../src/types/types.js';
import { resolveCalls } from '../aggregates/aggregate-helpers.js';
import { collectPages, collectRows, errorOf, rowsStream, sortedRows, testContext } from './helpers.js';

describe('hashAggregation operator', () => {
  it('groups NULL keys together (IS NOT DISTINCT) over multi-column keys', async () => {
    const types = [VARCHAR, BIGINT, BIGINT];
    const rows: Scalar[][] = [
      ['a', 1n, 10n],
      [null, 1n, 20n],
      ['a', null, 30n],
      [null, 1n, 40n],
      ['a', 1n, 50n],
      ['a', null, 60n],
      [null, null, 70n],
    ];
    const result = await collectRows(
      hashAggregation(testContext(), rowsStream(types, rows), {
        inputTypes: types,
        groupChannels: [0, 1],
        aggregates: resolveCalls(types, [{ name: 'sum', args: [2] }]),
        step: 'single',
      }),
    );
    expect(sortedRows(result)).to.deep.equal(
      sortedRows([
        ['a', 1n, 60n],
        [null, 1n, 60n],
        ['a', null, 90n],
        [null, null, 70n],
      ]),
    );
  });

  it('groups 0 with -0 and NaN with NaN', async () => {
    const rows: Scalar[][] = [[0], [-0], [NaN], [NaN], [1.5]];
    const result = await collectRows(
      hashAggregation(testContext(), rowsStream([DOUBLE], rows), {
        inputTypes: [DOUBLE],
        groupChannels: [0],
        aggregates: resolveCalls([DOUBLE], [{ name: 'count', args: [] }]),
        step: 'single',
      }),
    );
    expect(result.map((r) => r[1])).to.deep.equal([2n, 2n, 1n]);
  });

  it('with group channels and empty input emits no rows', async () => {
    const result = await collectRows(
      hashAggregation(testContext(), rowsStream([BIGINT], []), {
        inputTypes: [BIGINT],
        groupChannels: [0],
        aggregates: resolveCalls([BIGINT], [{ name: 'count', args: [] }]),
        step: 'single',
      }),
    );
    expect(result).to.deep.equal([]);
  });

  it('is DISTINCT without aggregates, in first-seen order', async () => {
    const rows: Scalar[][] = [[3], [1], [3], [null], [1], [null], [2]];
    const result = await collectRows(
      hashAggregation(testContext(), rowsStream([INTEGER], rows), {
        inputTypes: [INTEGER],
        groupChannels: [0],
        aggregates: [],
        step: 'single',
      }),
    );
    expect(result).to.deep.equal([[3], [1], [null], [2]]);
  });

  it('matches a naive grouping over many groups, in pages of at most TARGET_PAGE_ROWS', async () => {
    const types = [BIGINT, VARCHAR, decimal(12, 2)];
    const rows: Scalar[][] = [];
    const expected = new Map<string, { k: bigint; s: string; sum: bigint; count: bigint }>();
    for (let i = 0; i < 30000; i++) {
      const k = BigInt((i * 7919) % 12007) - 6000n;
      const s = `s${i % 3}`;
      const v = BigInt(i % 1000);
      rows.push([k, s, v]);
      const key = `${k}|${s}`;
      const e = expected.get(key) ?? { k, s, sum: 0n, count: 0n };
      e.sum += v;
      e.count += 1n;
      expected.set(key, e);
    }
    const pages = await collectPages(
      hashAggregation(testContext(), rowsStream(types, rows, 1000), {
        inputTypes: types,
        groupChannels: [0, 1],
        aggregates: resolveCalls(types, [
          { name: 'sum', args: [2] },
          { name: 'count', args: [] },
        ]),
        step: 'single',
      }),
    );
    expect(pages.length).to.be.greaterThan(1);
    for (const p of pages) expect(p.rowCount).to.be.at.most(TARGET_PAGE_ROWS);
    const result = pages.flatMap((p) =>
      Array.from({ length: p.rowCount }, (_, r) => p.columns.map((c) => (c.nulls?.[r] ? null : c.values[r]))),
    );
    expect(result.length).to.equal(expected.size);
    for (const [k, s, sum, count] of result) {
      const e = expected.get(`${k}|${s}`);
      expect(e, `${k}|${s}`).to.not.equal(undefined);
      expect([sum, count]).to.deep.equal([e?.sum, e?.count]);
    }
  });

  it('reserves its hash table in the memory context, fails over the limit, and frees it all', async () => {
    const rows: Scalar[][] = Array.from({ length: 20000 }, (_, i) => [BigInt(i)]);
    const small = testContext(64 * 1024);
    const error = await errorOf(
      collectRows(
        hashAggregation(small, rowsStream([BIGINT], rows, 1000), {
          inputTypes: [BIGINT],
          groupChannels: [0],
          aggregates: [],
          step: 'single',
        }),
      ),
    );
    expect(error.errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(small.memory.reservedBytes).to.equal(0);
    const ctx = testContext();
    let peakDuring = 0;
    for await (const _ of hashAggregation(ctx, rowsStream([BIGINT], rows, 1000), {
      inputTypes: [BIGINT],
      groupChannels: [0],
      aggregates: [],
      step: 'single',
    })) {
      peakDuring = Math.max(peakDuring, ctx.memory.reservedBytes);
    }
    expect(peakDuring).to.be.greaterThan(20000 * 8);
    expect(ctx.memory.reservedBytes).to.equal(0);
  });

  it('stops with USER_CANCELED once the signal aborts', async () => {
    const controller = new AbortController();
    const ctx = { ...testContext(), signal: controller.signal };
    controller.abort();
    const error = await errorOf(
      collectRows(
        hashAggregation(ctx, rowsStream([BIGINT], [[1n]]), { inputTypes: [BIGINT], groupChannels: [0], aggregates: [], step: 'single' }),
      ),
    );
    expect(error.errorName).to.equal('USER_CANCELED');
  });
});
