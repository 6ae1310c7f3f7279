// functions/setdigest.md: make_set_digest, merge_set_digest, cardinality, intersection_cardinality,
// jaccard_index and hash_counts. Oracles: the page's documented results (hash_counts' hashes are
// airlift's murmur3 of 1 and 2, so they also pin the hashing to Trino's), exact set sizes of the
// generated rows, and bounds from the sketches' standard errors at six sigmas: the HyperLogLog of 2048
// buckets (1.04/sqrt(2048)) and the MinHash of 8192 hashes (sqrt(J(1-J)/8192) for the Jaccard index).

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import type { MapValue } from '../../src/types/map-value.js';

documentedExamples('functions/setdigest.md', [
  ['SELECT cardinality(make_set_digest(value)) FROM (VALUES 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5) T(value)', '5'],
  [
    'SELECT intersection_cardinality(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (1, 1), (NULL, 2), (2, 3), (3, 4)) T(v1, v2)',
    '3',
  ],
  ['SELECT jaccard_index(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (1, 1), (NULL,2), (2, 3), (NULL, 4)) T(v1, v2)', '0.5'],
  ["SELECT typeof(make_set_digest(value)) FROM (VALUES 'Trino', 'SQL', 'on', 'everything') T(value)", 'SetDigest'],
  ["SELECT cardinality(make_set_digest(value)) FROM (VALUES 'Trino', 'SQL', 'on', 'everything') T(value)", '4'],
] satisfies DocumentedExample[]);

/** Rows 1..n as `x`: a cross join of two sequences (sequence() stops at 10,000 elements). */
const numbers = (n: number): string =>
  `(SELECT a * 1000 + b + 1 AS x FROM UNNEST(sequence(0, ${Math.ceil(n / 1000) - 1})) s(a) CROSS JOIN UNNEST(sequence(0, 999)) t(b) WHERE a * 1000 + b < ${n})`;

describe('SetDigest functions (functions/setdigest.md)', () => {
  const engine = new EngineHarness();
  const row = async (sql: string): Promise<unknown[]> => (await engine.query(sql)).rows[0];

  it("hash_counts: the documented hashes of 1 and 2 with their counts (in ascending hash order, as Trino's sorted map)", async () => {
    const [map] = (await row('SELECT hash_counts(make_set_digest(value)) FROM (VALUES 1, 1, 1, 2, 2) T(value)')) as [MapValue];
    expect(map.keys).to.deep.equal([-2447670524089286488n, 19144387141682250n]);
    expect(map.values).to.deep.equal([2, 3]);
  });

  it('is exact below 8192 values and within the HyperLogLog error above, merged or not', async () => {
    const [small, large, merged] = (await row(`SELECT
        (SELECT cardinality(make_set_digest(x)) FROM ${numbers(8000)}),
        (SELECT cardinality(make_set_digest(x)) FROM ${numbers(60000)}),
        (SELECT cardinality(merge_set_digest(d)) FROM (SELECT make_set_digest(x) d FROM ${numbers(60000)} GROUP BY x % 5))`)) as bigint[];
    expect(small).to.equal(8000n);
    expect(Math.abs(Number(large) - 60000)).to.be.at.most(6 * (1.04 / Math.sqrt(2048)) * 60000);
    expect(merged).to.equal(large);
  });

  it('estimates the Jaccard index and the intersection of large overlapping sets', async () => {
    // A = 1..30000, B = 15001..45000: intersection 15000, union 45000, Jaccard 1/3.
    const [jaccard, intersection] = (await row(`SELECT jaccard_index(a, b), intersection_cardinality(a, b) FROM
        (SELECT make_set_digest(x) a FROM ${numbers(30000)}), (SELECT make_set_digest(x + 15000) b FROM ${numbers(30000)})`)) as [
      number,
      bigint,
    ];
    const sigma = Math.sqrt(((1 / 3) * (2 / 3)) / 8192);
    expect(Math.abs(jaccard - 1 / 3)).to.be.at.most(6 * sigma);
    const tolerance = 15000 * (6 * sigma * 3 + 6 * (1.04 / Math.sqrt(2048)));
    expect(Math.abs(Number(intersection) - 15000)).to.be.at.most(tolerance);
  });

  it('casts to varbinary and back, and to its HyperLogLog', async () => {
    const [viaBytes, hll, empty] = (await row(`SELECT cardinality(CAST(CAST(make_set_digest(x) AS varbinary) AS SetDigest)),
        cardinality(CAST(make_set_digest(x) AS HyperLogLog)), make_set_digest(x) FILTER (WHERE x < 0)
      FROM ${numbers(1000)}`)) as [bigint, bigint, null];
    expect(viaBytes).to.equal(1000n);
    expect(Math.abs(Number(hll) - 1000)).to.be.at.most(6 * (1.04 / Math.sqrt(2048)) * 1000);
    expect(empty).to.equal(null);
  });

  failureCases('TYPE_MISMATCH', [
    ['SELECT make_set_digest(1) = make_set_digest(1)', 'Cannot apply operator: SetDigest = SetDigest'],
    ['SELECT CAST(make_set_digest(1) AS P4HyperLogLog)', 'Cannot cast SetDigest to P4HyperLogLog'],
  ]);
  failureCases('FUNCTION_NOT_FOUND', [
    ['SELECT make_set_digest(1.5E0)', 'Unexpected parameters (double) for function make_set_digest. Expected: make_set_digest(T) T'],
  ]);
  failureCases('INVALID_FUNCTION_ARGUMENT', [
    ["SELECT cardinality(CAST(X'02' AS SetDigest))", 'Cannot deserialize SetDigest: too short'],
    ["SELECT cardinality(CAST(X'0200000000' AS SetDigest))", 'Cannot deserialize SetDigest: unexpected version 2'],
  ]);
});
