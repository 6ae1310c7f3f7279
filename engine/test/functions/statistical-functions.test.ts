// The distribution functions and width_bucket/from_base/to_base of functions/math.md (described
// there without examples). Oracles: Python's math.erf and math.lgamma (values recorded below, as
// Python 3.11 printed them), closed forms of the beta and t distributions, and round trips of the
// inverse functions. Doubles agree within a few units in the last place, not bit for bit.

import { expect } from 'chai';
import { erf, logGamma } from '../../src/functions/scalar/statistics/special-functions.js';
import { documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

function expectClose(actual: unknown, expected: number, tolerance = 1e-15): void {
  expect(typeof actual).to.equal('number');
  expect(Math.abs((actual as number) - expected), `${String(actual)} vs ${expected}`).to.be.at.most(
    tolerance * Math.max(1, Math.abs(expected)),
  );
}

describe('distribution functions', function () {
  this.timeout(30_000);
  const engine = new EngineHarness();

  it('erf and ln Γ equal Python math.erf and math.lgamma', () => {
    const erfs: Array<[number, number]> = [
      [0.1, 0.1124629160182849],
      [0.5, 0.5204998778130465],
      [1, 0.8427007929497149],
      [2, 0.9953222650189527],
      [2.9, 0.9999589021219005],
      [3, 0.9999779095030014],
      [3.5, 0.9999992569016276],
      [4, 0.9999999845827421],
      [5.5, 0.9999999999999927],
    ];
    for (const [x, expected] of erfs) {
      expectClose(erf(x), expected);
      expectClose(erf(-x), -expected);
    }
    const lgammas: Array<[number, number]> = [
      [0.3, 1.0957979948180752],
      [1.7, -0.0958076974070654],
      [4.2, 2.0485556369605895],
      [10.5, 13.940625219403763],
      [33.3, 82.60372358165495],
    ];
    for (const [x, expected] of lgammas) expectClose(logGamma(x), expected, 1e-14);
  });

  it("normal_cdf equals 0.5·(1 + erf((v - mean)/(sd·√2))) with Python's erf; inverse_normal_cdf inverts it", async () => {
    const cases: Array<[number, number, number, number]> = [
      [0, 1, 1.96, 0.9750021048517796],
      [0, 1, -1, 0.15865525393145707],
      [2, 3, 4, 0.7475074624530771],
      [0, 1, 0.5, 0.6914624612740131],
      [10, 2, 7, 0.06680720126885809],
      [0, 1, 5, 0.9999997133484282],
    ];
    for (const [mean, sd, v, expected] of cases) {
      const { rows } = await engine.query(
        `SELECT normal_cdf(${mean}, ${sd}, ${v}), inverse_normal_cdf(${mean}, ${sd}, normal_cdf(${mean}, ${sd}, ${v}))`,
      );
      expectClose(rows[0][0], expected);
      expectClose(rows[0][1], v, 1e-9);
    }
    expectClose((await engine.query('SELECT inverse_normal_cdf(0, 1, 0.975)')).rows[0][0], 1.959963984540054, 1e-14);
  });

  it('beta_cdf equals closed forms; inverse_beta_cdf inverts it', async () => {
    const { rows } = await engine.query(
      'SELECT beta_cdf(1, 1, 0.3), beta_cdf(3, 1, 0.5), beta_cdf(0.5, 0.5, 0.25), beta_cdf(2, 5, 0.3), beta_cdf(2, 2, 0.5), inverse_beta_cdf(2, 5, 0.579825), inverse_beta_cdf(1, 1, 0), inverse_beta_cdf(1, 1, 1)',
    );
    // x; x^a; (2/π)·asin(√x); the binomial sum Σ_{j=2..6} C(6,j)·0.3^j·0.7^(6-j); symmetry.
    const expected = [0.3, 0.125, 1 / 3, 0.579825, 0.5, 0.3, 0, 1];
    rows[0].forEach((value, i) => expectClose(value, expected[i], 1e-14));
  });

  it('t_cdf and t_pdf equal the Cauchy distribution at one degree of freedom and closed forms at others', async () => {
    const { rows } = await engine.query(
      'SELECT t_cdf(1, 1), t_cdf(0, 7), t_cdf(-1, 1), t_pdf(0, 1), t_pdf(1.5, 4), t_cdf(2, 2), t_cdf(-2, 2)',
    );
    // Cauchy: 1/2 + atan(x)/π, density 1/π; df 4 at 1.5: 3/8·(1 + 2.25/4)^(-5/2); df 2: 1/2 + x/(2·√(2 + x²)).
    const expected = [
      0.75,
      0.5,
      0.25,
      1 / Math.PI,
      0.375 * Math.pow(1.5625, -2.5),
      0.5 + 2 / (2 * Math.sqrt(6)),
      0.5 - 2 / (2 * Math.sqrt(6)),
    ];
    rows[0].forEach((value, i) => expectClose(value, expected[i], 1e-14));
  });

  it('wilson_interval_lower/upper as the Wilson score formula', async () => {
    const { rows } = await engine.query(
      'SELECT wilson_interval_lower(5, 10, 1.96), wilson_interval_upper(5, 10, 1.96), wilson_interval_lower(0, 10, 1.96)',
    );
    const z = 1.96;
    const center = (0.5 + (z * z) / 20) / (1 + (z * z) / 10);
    const half = (z * Math.sqrt(0.025 + (z * z) / 400)) / (1 + (z * z) / 10);
    expectClose(rows[0][0], center - half);
    expectClose(rows[0][1], center + half);
    expectClose(rows[0][2], 0);
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ['SELECT normal_cdf(0, 0, 1)', 'standardDeviation must be > 0'],
      ['SELECT inverse_normal_cdf(0, 1, 1)', 'p must be 0 > p > 1'],
      ['SELECT beta_cdf(1, 1, 2)', 'value must be 0 >= v >= 1'],
      ['SELECT inverse_beta_cdf(0, 1, 0.5)', 'a, b must be > 0'],
      ['SELECT t_cdf(1, 0.5)', 'degrees of freedom must be greater than or equal to 1'],
      ['SELECT wilson_interval_lower(11, 10, 1.96)', 'number of successes must not be larger than number of trials'],
    ],
    engine,
  );
});

documentedExamples('functions/math.md', [
  ['SELECT cosine_distance(ARRAY[1.0, 2.0], ARRAY[3.0, 4.0])', '0.01613008990009257'],
  ["SELECT cosine_distance(MAP(ARRAY['a'], ARRAY[1.0]), MAP(ARRAY['a'], ARRAY[2.0]))", '0.0'],
  ['SELECT cosine_similarity(ARRAY[1.0, 2.0], ARRAY[3.0, 4.0])', '0.9838699100999074'],
  ["SELECT cosine_similarity(MAP(ARRAY['a'], ARRAY[1.0]), MAP(ARRAY['a'], ARRAY[2.0]))", '1.0'],
  // Sparse vectors: a key missing from one map is zero there; 2·3 / (√5 · 5).
  ["SELECT cosine_similarity(MAP(ARRAY['a', 'b'], ARRAY[1.0, 2]), MAP(ARRAY['b', 'c'], ARRAY[3.0, 4])) = 6 / (sqrt(5) * 5)", 'true'],
  ["SELECT cosine_similarity(MAP(ARRAY['a'], ARRAY[CAST(NULL AS double)]), MAP(ARRAY['a'], ARRAY[1.0]))", 'NULL'],
]);

describe('width_bucket, from_base, to_base', () => {
  const engine = new EngineHarness();

  it('buckets between bounds (either order) and over bins, as Trino counts them', async () => {
    const { rows } = await engine.query(
      'SELECT width_bucket(5.3, 0.2, 10.6, 5), width_bucket(-1, 0, 10, 5), width_bucket(10, 0, 10, 5), width_bucket(11, 10, 0, 5), width_bucket(1, 10, 0, 5), width_bucket(3.0, ARRAY[1.0, 2.0, 3.0, 4.5]), width_bucket(0.5, ARRAY[1.0])',
    );
    expect(rows[0]).to.deep.equal([3n, 0n, 6n, 0n, 5n, 3n, 0n]);
  });

  it('converts between bases 2 to 36 within bigint', async () => {
    const { rows } = await engine.query(
      "SELECT to_base(-255, 16), from_base('-ff', 16), from_base('7FFFFFFFFFFFFFFF', 16), to_base(9223372036854775807, 36), from_base('+101', 2)",
    );
    expect(rows[0]).to.deep.equal(['-ff', -255n, 9223372036854775807n, '1y2p0ij32e8e7', 5n]);
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ['SELECT width_bucket(1, 0, 10, 0)', 'bucketCount must be greater than 0'],
      ['SELECT width_bucket(1, 5, 5, 3)', 'bounds cannot equal each other'],
      ['SELECT width_bucket(nan(), 0, 5, 3)', 'operand must not be NaN'],
      ['SELECT width_bucket(1, ARRAY[3.0, 1.0])', 'Bin values are not sorted in ascending order'],
      ['SELECT width_bucket(1, CAST(ARRAY[] AS array(double)))', 'Bins cannot be an empty array'],
      ["SELECT from_base('8000000000000000', 16)", 'Not a valid base-16 number: 8000000000000000'],
      ["SELECT from_base('12', 2)", 'Not a valid base-2 number: 12'],
      ['SELECT to_base(5, 37)', 'Radix must be between 2 and 36'],
    ],
    engine,
  );
});
