// The partial step of a grouping without aggregate calls: keys close to unique in its first rows
// make it pass the other rows' keys on ungrouped; repeated keys keep it grouping (the probe's rows
// and the others apart, so a key may come out twice). Either way the
// final step over its output gives every distinct key once (NULL keys included), as computed
// here from the rows.

import { expect } from 'chai';
import { hashAggregation, type HashAggregationSpec } from '../../src/exec/operators/hash-aggregation.js';
import { PROBE_ROWS } from '../../src/exec/threads/adaptive-partial.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, VARCHAR } from '../../src/types/types.js';
import { collectRows, rowsStream, testContext } from './helpers.js';

const TYPES = [BIGINT, VARCHAR, BIGINT];

/** Rows (key, tag, payload) whose key is `keyOf(i)`, NULL on every 1000th row. */
function rowsWith(count: number, keyOf: (i: number) => number): Scalar[][] {
  return Array.from({ length: count }, (_, i) => [i % 1000 === 0 ? null : BigInt(keyOf(i)), `t${i % 3}`, BigInt(i)]);
}

const spec = (step: HashAggregationSpec['step'], groupChannels: number[], inputTypes = TYPES): HashAggregationSpec => ({
  inputTypes,
  groupChannels,
  aggregates: [],
  step,
});

/** The partial step over `rows` (grouped on key and tag), then the final step over its output. */
async function partialThenFinal(rows: Scalar[][]): Promise<{ partial: Scalar[][]; final: Scalar[][] }> {
  const partial = await collectRows(hashAggregation(testContext(), rowsStream(TYPES, rows, 4096), spec('partial', [0, 1])));
  const final = await collectRows(
    hashAggregation(testContext(), rowsStream([BIGINT, VARCHAR], partial, 4096), spec('final', [0, 1], [BIGINT, VARCHAR])),
  );
  return { partial, final };
}

const distinctKeys = (rows: Scalar[][]) => new Set(rows.map((r) => `${String(r[0])}|${String(r[1])}`));

describe('partial grouping', () => {
  it('passes keys close to unique on ungrouped after its probe, and the final step still gives each key once', async () => {
    const rows = rowsWith(3 * PROBE_ROWS, (i) => i * 7);
    const { partial, final } = await partialThenFinal(rows);
    // The probe's rows grouped (its NULL keys of one tag together), every row after it as it came.
    expect(partial.length).to.be.greaterThan(2 * PROBE_ROWS);
    expect(partial.length).to.be.lessThan(rows.length);
    // Grouped, the NULL keys would be 3 rows (one per tag); passed on, each of the later ones is its own.
    expect(partial.filter((r) => r[0] === null).length).to.be.greaterThan(100);
    const expected = distinctKeys(rows);
    expect(final.length).to.equal(expected.size);
    expect(distinctKeys(final)).to.deep.equal(expected);
  });

  it('keeps grouping repeated keys', async () => {
    const rows = rowsWith(3 * PROBE_ROWS, (i) => i % 500);
    const { partial, final } = await partialThenFinal(rows);
    const expected = distinctKeys(rows);
    // The probe's groups, then those of the other rows: a key may come out twice, never more.
    expect(partial.length).to.be.at.most(2 * expected.size);
    expect(distinctKeys(final)).to.deep.equal(expected);
    expect(final.length).to.equal(expected.size);
  });
});
