// Big pages reach a grouped aggregation in slices, with turns of the event loop between them: its
// answer over one page much bigger than a slice is DuckDB's, and the slices cover the page's rows in
// order, each at most SLICE_ROWS, small pages passing whole.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { SLICE_ROWS, pagesOfAtMost } from '../../src/exec/operators/bounded-pages.js';
import { hashAggregation } from '../../src/exec/operators/hash-aggregation.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, VARCHAR } from '../../src/types/types.js';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { resolveCalls } from '../aggregates/aggregate-helpers.js';
import { collectPages, collectRows, pageOf, pageRows, sortedRows, streamOf, testContext } from './helpers.js';

const BIG_ROWS = 2 * SLICE_ROWS + 1000;

/** Row i: a key of 1,237 distinct strings spread over the rows, and i. */
function bigRows(): Scalar[][] {
  return Array.from({ length: BIG_ROWS }, (_, i) => [`k${(i * 7919) % 1237}`, BigInt(i)]);
}

/** Work that holds the thread for `millis`, so that a turn of the loop is due after it. */
function busyFor(millis: number): void {
  const until = performance.now() + millis;
  while (performance.now() < until) {
    // spinning
  }
}

describe('bounded pages', () => {
  it('cuts a page of more than SLICE_ROWS rows into slices in order, and passes small pages whole', async () => {
    const big = bigRows();
    const small = big.slice(0, 10);
    const pages = await collectPages(
      pagesOfAtMost(testContext(), streamOf([pageOf([VARCHAR, BIGINT], big), pageOf([VARCHAR, BIGINT], small)])),
    );
    expect(pages.map((p) => p.rowCount)).to.deep.equal([SLICE_ROWS, SLICE_ROWS, 1000, 10]);
    expect(pages.flatMap(pageRows)).to.deep.equal([...big, ...small]);
  });

  it('gives the event loop a turn between the slices of a page when one is due', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const turnsAtSlices: number[] = [];
    try {
      for await (const _ of pagesOfAtMost(testContext(), streamOf([pageOf([VARCHAR, BIGINT], bigRows())]))) {
        turnsAtSlices.push(turns);
        busyFor(12);
      }
    } finally {
      counting = false;
    }
    expect(turnsAtSlices).to.have.length(3);
    expect(turnsAtSlices[1]).to.be.greaterThan(turnsAtSlices[0]);
    expect(turnsAtSlices[2]).to.be.greaterThan(turnsAtSlices[1]);
  });

  describe('a grouped aggregation over one big page', () => {
    let duck: DuckDBConnection;
    before(async () => {
      duck = await openDuckDb(1);
    });
    after(() => duck.closeSync());

    it('answers as DuckDB does', async () => {
      const types = [VARCHAR, BIGINT];
      const ours = await collectRows(
        hashAggregation(testContext(), streamOf([pageOf(types, bigRows())]), {
          inputTypes: types,
          groupChannels: [0],
          aggregates: resolveCalls(types, [
            { name: 'sum', args: [1] },
            { name: 'count', args: [] },
          ]),
          step: 'single',
        }),
      );
      const theirs = await duckRows(
        duck,
        `SELECT 'k' || ((i * 7919) % 1237), sum(i)::BIGINT, count(*) FROM range(${BIG_ROWS}) t(i) GROUP BY 1`,
      );
      expect(ours).to.have.length(1237);
      expect(sortedRows(ours)).to.deep.equal(sortedRows(theirs as Scalar[][]));
    });
  });
});
