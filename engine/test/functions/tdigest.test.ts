// functions/tdigest.md: tdigest_agg (weighted or not), merge, value_at_quantile, values_at_quantiles
// and the tdigest type. The page has no examples with results; the oracles are exact order statistics
// of the generated rows, computed here: every returned value's rank lies within 1% of its quantile
// (the t-digest of compression 100 that Trino uses keeps it well inside), exact values for inputs
// small enough to keep one centroid per value, and airlift's serialized layout read byte by byte.

import { expect } from 'chai';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

const N = 60000;
/** The k-th generated value (k = 1..N): a permutation of distinct values spread over [1, 65536]. */
const valueSql = '((a * 1000 + b + 1) * 48271) % 65537';
const rows = `UNNEST(sequence(0, ${N / 1000 - 1})) s(a) CROSS JOIN UNNEST(sequence(0, 999)) t(b)`;
const sorted = Array.from({ length: N }, (_, k) => ((k + 1) * 48271) % 65537).sort((x, y) => x - y);

/** The share of generated values below and at or below `value`. */
function rankRange(value: number): [number, number] {
  const below = sorted.filter((v) => v < value).length;
  const atOrBelow = sorted.filter((v) => v <= value).length;
  return [below / N, atOrBelow / N];
}

describe('tdigest functions (functions/tdigest.md)', () => {
  const engine = new EngineHarness();
  const row = async (sql: string): Promise<unknown[]> => (await engine.query(sql)).rows[0];
  const quantiles = [0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1];

  it('values_at_quantiles of a digest, and of the merge of per-group digests, rank within 1% of each quantile', async () => {
    const [direct, merged] = (await row(`SELECT
        (SELECT values_at_quantiles(tdigest_agg(${valueSql}), ARRAY[${quantiles.join(', ')}]) FROM ${rows}),
        (SELECT values_at_quantiles(merge(d), ARRAY[${quantiles.join(', ')}]) FROM (SELECT tdigest_agg(${valueSql}) d FROM ${rows} GROUP BY a % 7))`)) as number[][];
    for (const values of [direct, merged]) {
      quantiles.forEach((q, i) => {
        const [low, high] = rankRange(values[i]);
        expect(q, `q ${q}: ${values[i]} ranks ${low}..${high}`).to.be.within(low - 0.01, high + 0.01);
      });
    }
    expect([direct[0], direct[quantiles.length - 1]]).to.deep.equal([sorted[0], sorted[N - 1]]);
  });

  it('gives exact order statistics of a few values, weights counting as repetitions', async () => {
    // Weighted: 1, 3, 5 x10, 7, 9 (14 in all): rank 0.5 * 14 = 7 is the centre of the 5s, 0.9 * 14 = 12.6 falls on the 7.
    const [median, weighted, typeName] =
      await row(`SELECT value_at_quantile(tdigest_agg(x), 0.5), values_at_quantiles(tdigest_agg(x, w), ARRAY[0.5, 0.9]), typeof(tdigest_agg(x))
      FROM (VALUES (7, 1), (1, 1), (9, 1), (3, 1), (5, 10)) t(x, w)`);
    expect([median, weighted, typeName]).to.deep.equal([5, [5, 7], 'tdigest']);
    expect(await row('SELECT tdigest_agg(x) FROM (VALUES 1) t(x) WHERE x > 1')).to.deep.equal([null]);
  });

  it("casts to varbinary in airlift's layout and back", async () => {
    const [bytes, roundTrip] =
      (await row(`SELECT CAST(tdigest_agg(x) AS varbinary), value_at_quantile(CAST(CAST(tdigest_agg(x) AS varbinary) AS tdigest), 0.5)
      FROM (VALUES 2.5E0, 4.5E0, 8.5E0) t(x)`)) as [Uint8Array, number];
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const header = [
      bytes[0],
      view.getFloat64(1, true),
      view.getFloat64(9, true),
      view.getFloat64(17, true),
      view.getFloat64(25, true),
      view.getInt32(33, true),
    ];
    expect(header).to.deep.equal([0, 2.5, 8.5, 100, 3, 3]);
    const means = [0, 1, 2].map((i) => view.getFloat64(37 + 8 * i, true));
    const weights = [0, 1, 2].map((i) => view.getFloat64(61 + 8 * i, true));
    expect([means, weights, bytes.length]).to.deep.equal([[2.5, 4.5, 8.5], [1, 1, 1], 85]);
    expect(roundTrip).to.equal(4.5);
  });

  failureCases('INVALID_FUNCTION_ARGUMENT', [
    ['SELECT value_at_quantile(tdigest_agg(x), 1.5) FROM (VALUES 1) t(x)', 'quantiles should be in [0, 1] range'],
    ['SELECT values_at_quantiles(tdigest_agg(x), ARRAY[0.5, 0.1]) FROM (VALUES 1) t(x)', 'percentiles must be sorted in increasing order'],
    ['SELECT tdigest_agg(x, 0.5) FROM (VALUES 1) t(x)', 'weight must be >= 1, was 0.5'],
    ['SELECT tdigest_agg(x) FROM (VALUES infinity()) t(x)', 'value must be finite; was Infinity'],
    ["SELECT CAST(X'01' AS tdigest)", 'Cannot deserialize tdigest: too short'],
  ]);
  failureCases('TYPE_MISMATCH', [
    ['SELECT tdigest_agg(1) = tdigest_agg(1)', 'Cannot apply operator: tdigest = tdigest'],
    ['SELECT CAST(tdigest_agg(1) AS HyperLogLog)', 'Cannot cast tdigest to HyperLogLog'],
  ]);
});
