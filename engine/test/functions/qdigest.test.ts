// functions/qdigest.md: qdigest_agg (plain, weighted, with accuracy), merge, value_at_quantile,
// values_at_quantiles, quantile_at_value, the qdigest(T) types and their casts to and from varbinary.
// Oracles: exact order statistics of the generated rows (each answer's rank lies within the digest's
// accuracy of its quantile, the bound airlift's QuantileDigest guarantees); the bytes Trino's own
// engine test (AbstractTestEngineOnlyQueries.testMergeQuantileDigest) expects for a merge; bytes
// derived by hand from airlift's serialized layout; the digests airlift's own QuantileDigest (release
// 438, the one Trino's pom names; compiled once outside the project with stand-ins for its slice
// reader and writer) built from the same rows in the same order, recorded here as SHA-256 of their
// bytes, with its answers to quantile queries on them; and Trino's TestQuantileDigestFunctions cases.

import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { typeSignature } from '../../src/types/types.js';
import { qdigestType } from '../../src/types/sketch/qdigest-type.js';
import { QuantileDigest } from '../../src/types/sketch/qdigest.js';
import { keyOfBigint } from '../../src/types/sketch/qdigest-bits.js';
import { EngineError } from '../../src/errors/engine-error.js';

const N = 30000;
/** The k-th generated value (k = 1..N): a permutation of distinct values spread over [1, 65536], with repeats mod 5000 for half of them. */
const valueOf = (k: number): number => (k % 2 === 0 ? (k * 48271) % 65537 : ((k * 48271) % 65537) % 5000) - 2000;
const valueSql = '(CASE WHEN k % 2 = 0 THEN (k * 48271) % 65537 ELSE ((k * 48271) % 65537) % 5000 END - 2000)';
const rows = `(SELECT a * 1000 + b + 1 AS k FROM UNNEST(sequence(0, ${N / 1000 - 1})) s(a) CROSS JOIN UNNEST(sequence(0, 999)) t(b))`;
const sorted = Array.from({ length: N }, (_, i) => valueOf(i + 1)).sort((x, y) => x - y);

/** The share of generated values below `value`, and at or below it. */
function rankRange(value: number): [number, number] {
  const below = sorted.filter((v) => v < value).length;
  const atOrBelow = sorted.filter((v) => v <= value).length;
  return [below / N, atOrBelow / N];
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const quantiles = [0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1];

describe('qdigest functions (functions/qdigest.md)', () => {
  const engine = new EngineHarness();
  const row = async (sql: string): Promise<unknown[]> => (await engine.query(sql)).rows[0];

  for (const [element, accuracy] of [
    ['bigint', 0.01],
    ['double', 0.01],
    ['real', 0.05],
    ['bigint', 0.002],
  ] as const) {
    it(`qdigest(${element}) at accuracy ${accuracy}: every quantile's value ranks within the accuracy, merged per-group digests too`, async () => {
      const x = `CAST(${valueSql} AS ${element})`;
      const [direct, merged] = (await row(`SELECT
          (SELECT values_at_quantiles(qdigest_agg(${x}, 1, ${accuracy}), ARRAY[${quantiles.join(', ')}]) FROM ${rows}),
          (SELECT values_at_quantiles(merge(d), ARRAY[${quantiles.join(', ')}]) FROM (SELECT qdigest_agg(${x}, 1, ${accuracy}) d FROM ${rows} GROUP BY k % 7))`)) as (
        | number
        | bigint
      )[][];
      for (const values of [direct, merged]) {
        quantiles.forEach((q, i) => {
          const [low, high] = rankRange(Number(values[i]));
          expect(q, `q ${q}: ${values[i]} ranks ${low}..${high}`).to.be.within(low - accuracy, high + accuracy);
        });
      }
      // the largest value seen caps every answer, so quantile 1 is exact
      expect(Number(direct[quantiles.length - 1])).to.equal(sorted[N - 1]);
    });
  }

  it('quantile_at_value is the share of the weight below the value, within the accuracy', async () => {
    const probes = [-1500, 0, 1234, 2999, 20000, 60000];
    const [answers] = (await row(
      `SELECT ARRAY[${probes.map((p) => `quantile_at_value(d, ${p})`).join(', ')}] FROM (SELECT qdigest_agg(${valueSql}) d FROM ${rows})`,
    )) as [number[]];
    probes.forEach((p, i) => {
      const [below] = rankRange(p);
      expect(answers[i], `value ${p}`).to.be.within(below - 0.01, below + 0.01);
    });
  });

  it('weights count as repetitions', async () => {
    // 1, 3, 5 x10, 7, 9 (14 in all): ranks 7 and 12.6 fall on the 5s and the 7.
    const [values, typeName] = await row(`SELECT values_at_quantiles(qdigest_agg(x, w), ARRAY[0.5, 0.9]), typeof(qdigest_agg(x, w))
      FROM (VALUES (7, 1), (1, 1), (9, 1), (3, 1), (5, 10)) t(x, w)`);
    expect([values, typeName]).to.deep.equal([[5n, 7n], 'qdigest(bigint)']);
  });

  // Trino declares qdigest_agg order-sensitive, so it takes ORDER BY (which leaves a small digest the
  // same), FILTER and window frames. airlift's value_at_quantile is the first value whose running weight
  // exceeds quantile x total: over 1, 2, 3 (weight 10) the medians are 1, 2, 3 as rows arrive.
  it('takes ORDER BY, FILTER and window frames, weighted and not, with accuracy', async () => {
    const rows = await engine.rows(`SELECT
        value_at_quantile(qdigest_agg(x, w) OVER (ORDER BY x), 0.5),
        value_at_quantile(qdigest_agg(x, w, 0.01) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), 0.5),
        quantile_at_value(qdigest_agg(x) OVER (ORDER BY x), 2)
      FROM (VALUES (1, 1), (2, 1), (3, 10)) t(x, w) ORDER BY x`);
    expect(rows).to.deep.equal([
      [1n, 1n, null],
      [2n, 2n, 0.5],
      [3n, 3n, 1 / 3],
    ]);
    const [ordered, filtered] = await row(`SELECT value_at_quantile(qdigest_agg(x, w ORDER BY w), 0.5),
        value_at_quantile(qdigest_agg(x, w, 0.01) FILTER (WHERE x < 3), 0.9)
      FROM (VALUES (1, 1), (2, 1), (3, 10)) t(x, w)`);
    expect([ordered, filtered]).to.deep.equal([3n, 2n]);
  });

  it('builds the digest in the order ORDER BY gives (Trino keeps ORDER BY for qdigest_agg and merge: compression depends on it)', async () => {
    const digest = (call: string, order: string) =>
      `CAST(${call} AS varbinary) FROM (SELECT x FROM unnest(${order}(sequence(1, 2000))) t(x))`;
    const [ordered, fedDescending, fedAscending] = await row(`SELECT
      (SELECT ${digest('qdigest_agg(x, 1, 0.9 ORDER BY x DESC)', '')}),
      (SELECT ${digest('qdigest_agg(x, 1, 0.9)', 'reverse')}),
      (SELECT ${digest('qdigest_agg(x, 1, 0.9)', '')})`);
    expect(ordered).to.deep.equal(fedDescending);
    expect(ordered).to.not.deep.equal(fedAscending);
  });

  it('answers in the element type: typeof, value_at_quantile of doubles (negative zero, NaN) and reals', async () => {
    const answers =
      await row(`SELECT typeof(qdigest_agg(x)), value_at_quantile(qdigest_agg(x), 0), value_at_quantile(qdigest_agg(x), 0.5), value_at_quantile(qdigest_agg(x), 1),
        typeof(qdigest_agg(CAST(x AS real))), value_at_quantile(qdigest_agg(CAST(x AS real)), 0.3), typeof(qdigest_agg(CAST(x AS integer)))
      FROM (VALUES -2.5E0, -0E0, 1.25E0, 3E0, nan()) t(x)`);
    expect(answers.slice(0, 2)).to.deep.equal(['qdigest(double)', -2.5]);
    expect(Object.is(answers[2], 1.25)).to.equal(true);
    expect(Number.isNaN(answers[3])).to.equal(true);
    expect(answers.slice(4)).to.deep.equal(['qdigest(real)', -0, 'qdigest(bigint)']);
    // two of the five values lie below 1.25, three below 3 (NaN sorts above every number)
    expect(
      await row(`SELECT quantile_at_value(qdigest_agg(CAST(x AS real)), REAL '1.25'), quantile_at_value(qdigest_agg(x), 3E0), quantile_at_value(qdigest_agg(x), 4E0)
      FROM (VALUES -2.5E0, -0E0, 1.25E0, 3E0, nan()) t(x)`),
    ).to.deep.equal([0.4, 0.6, 0.8]);
    // decimal takes the real overload, NULL the bigint one: Trino's most specific applicable signatures
    expect(
      await row(
        'SELECT typeof(qdigest_agg(x)), value_at_quantile(qdigest_agg(x), 1), typeof(qdigest_agg(NULL)) FROM (VALUES 1.5, 2.5) t(x)',
      ),
    ).to.deep.equal(['qdigest(real)', 2.5, 'qdigest(bigint)']);
  });

  it("casts to the bytes airlift's layout gives, derived by hand for 1, 2, 3", async () => {
    const [bytes] = (await row('SELECT CAST(qdigest_agg(x) AS varbinary) FROM (VALUES 1, 2, 3) t(x)')) as [Uint8Array];
    const long = (hi: number, lo: number): string => {
      const b = Buffer.alloc(8);
      b.writeUInt32LE(lo, 0);
      b.writeUInt32LE(hi, 4);
      return b.toString('hex');
    };
    const double = (v: number): string => {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(v, 0);
      return b.toString('hex');
    };
    // Keys are the values with the sign bit flipped. Leaves 1, 2, 3 (level 0, count 1); 2 and 3 part
    // at bit 0 under a level-1 node keyed 2; 1 and that node part at bit 1 under the level-2 root keyed
    // 1. Both inner nodes weigh 0; levels of nodes with children are written less one, beside the
    // has-left (1) and has-right (2) flags: 0b1_11 and 0b0_11.
    const node = (structure: number, count: number, value: number): string =>
      structure.toString(16).padStart(2, '0') + double(count) + long(0x80000000, value);
    const expected =
      '00' +
      double(0.01) +
      double(0) +
      long(0, 0) +
      long(0, 1) +
      long(0, 3) +
      '05000000' +
      node(0, 1, 1) +
      node(0, 1, 2) +
      node(0, 1, 3) +
      node(0b11, 0, 2) +
      node(0b111, 0, 1);
    expect(hex(bytes)).to.equal(expected);
  });

  it('gives the bytes Trino gives for the merge of two digests of doubles, and reads them back', async () => {
    // AbstractTestEngineOnlyQueries.testMergeQuantileDigest in Trino's source.
    const trino = `00 7b 14 ae 47 e1 7a 84 3f 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 00 9a 99 99 99 99 99 24
      40 9a 99 99 99 99 99 26 40 03 00 00 00 00 00 00
      00 00 00 00 f0 3f 9a 99 99 99 99 99 24 c0 00 00
      00 00 00 00 00 f0 3f 9a 99 99 99 99 99 26 c0 c7
      00 00 00 00 00 00 00 00 9a 99 99 99 99 99 24 c0`.replace(/\s+/g, '');
    const [merged] = (await row(`WITH a(field_a, field_b) AS (VALUES (DOUBLE '10.3', 'group1'), (DOUBLE '11.3', 'group2')),
        b AS (SELECT CAST(qdigest_agg(field_a) AS varbinary) AS qdigest_binary FROM a GROUP BY field_b)
      SELECT CAST(merge(CAST(qdigest_binary AS qdigest(double))) AS varbinary) FROM b`)) as [Uint8Array];
    expect(hex(merged)).to.equal(trino);
    const [median, roundTrip] = await row(
      `SELECT value_at_quantile(CAST(X'${trino}' AS qdigest(double)), 0.5), CAST(CAST(X'${trino}' AS qdigest(double)) AS varbinary) = X'${trino}'`,
    );
    // rank 0.5 * 2 = 1 is passed only once the second value is counted
    expect([median, roundTrip]).to.deep.equal([11.3, true]);
  });

  describe("as airlift's QuantileDigest builds them, byte for byte", () => {
    const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
    const weighted = 'SELECT k, (k * 48271 % 1000) - 500 AS x, k % 3 + 1 AS w FROM UNNEST(sequence(1, 500)) t(k)';
    const quantileList = 'ARRAY[0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1]';

    it('weighted bigints at accuracy 0.05, with the same answers to value_at_quantile and quantile_at_value', async () => {
      const [bytes] = (await row(`SELECT CAST(qdigest_agg(x, w, 0.05) AS varbinary) FROM (${weighted})`)) as [Uint8Array];
      expect([sha256(bytes), bytes.length]).to.deep.equal(['2d3ccf648e6eccf03bcd901cba2725081ec56487c4573e3463174ab55a793c7e', 17028]);
      const digest = `CAST(X'${Buffer.from(bytes).toString('hex')}' AS qdigest(bigint))`;
      const [values, shares] = await row(
        `SELECT values_at_quantiles(${digest}, ${quantileList}), transform(ARRAY[-600, -500, -123, 0, 1, 250, 499, 500], v -> quantile_at_value(${digest}, v))`,
      );
      expect(values).to.deep.equal([-498n, -487n, -398n, -249n, 1n, 250n, 402n, 489n, 499n]);
      expect(shares).to.deep.equal([
        null,
        null,
        0.3756243756243756,
        0.4955044955044955,
        0.4985014985014985,
        0.7482517482517482,
        0.999000999000999,
        null,
      ]);
    });

    it('per-group digests, and their merge in group order', async () => {
      const groups = (
        await engine.query(`SELECT k % 4, CAST(qdigest_agg(x, w, 0.05) AS varbinary) FROM (${weighted}) GROUP BY k % 4 ORDER BY 1`)
      ).rows.map((r) => r[1] as Uint8Array);
      expect(groups.map(sha256)).to.deep.equal([
        '70b2e664f1b95bd5809b6f15e5cde7361327e26cc080a980dda122ec815c129b',
        'dd122dcf28deb67bddb7aac7db250254e41ad15d638e5775a55f1c250428fab9',
        '4ebf58671a4171037f402fcb192517e64fce0afcc01a9df5c01f4d974d85c780',
        '9754c546e49aa6674289174b3b70f8ef14d08ed00eadc2eb2de641ca6307a88f',
      ]);
      const merged = QuantileDigest.deserialize(groups[0]);
      for (const group of groups.slice(1)) merged.mergeWith(QuantileDigest.deserialize(group));
      expect(sha256(merged.serialize())).to.equal('08392f76b944e29cc37ffdf508438cabdbe8b530615aa6a204fec7c59786f10b');
    });

    it('doubles at the default accuracy and reals at 0.02', async () => {
      const [doubles, reals, values] = (await row(`SELECT
          (SELECT CAST(qdigest_agg(CAST(k * 48271 % 10007 AS double) / 7 - 700) AS varbinary) FROM UNNEST(sequence(1, 3000)) t(k)),
          (SELECT CAST(qdigest_agg(CAST(CAST(k * 7919 % 1009 AS double) / 4 - 100 AS real), 1, 0.02) AS varbinary) FROM UNNEST(sequence(1, 2000)) t(k)),
          (SELECT values_at_quantiles(qdigest_agg(CAST(k * 48271 % 10007 AS double) / 7 - 700), ${quantileList}) FROM UNNEST(sequence(1, 3000)) t(k))`)) as [
        Uint8Array,
        Uint8Array,
        number[],
      ];
      expect([sha256(doubles), sha256(reals)]).to.deep.equal([
        'c07149ad94e5fddf23cd296f1ed5c1adc32b8c818312f02df04aefa530b8c3b9',
        '987fe10e2c25bcb7ade47604edc9371008b5c9dc0bd507cbb0edc521d47d0eae',
      ]);
      expect(values).to.deep.equal([
        -699.8571428571429, -685.7142857142857, -558.1428571428571, -343.7142857142857, 14, 371.7142857142858, 586.1428571428571,
        713.5714285714287, 727.8571428571429,
      ]);
    });

    it("Trino's quantile_at_value cases on airlift's digest of 0..9 at maximum error 1", async () => {
      const digest =
        "CAST(X'00000000000000f03f00000000000000000000000000000000000000000000000009000000000000001300000000000000000000f03f000000000000008000000000000000f03f0100000000000080030000000000000000000000000000008000000000000000f03f020000000000008000000000000000f03f03000000000000800300000000000000000200000000000080070000000000000000000000000000008000000000000000f03f040000000000008000000000000000f03f0500000000000080030000000000000000040000000000008000000000000000f03f060000000000008000000000000000f03f0700000000000080030000000000000000060000000000008007000000000000000004000000000000800b0000000000000000000000000000008000000000000000f03f080000000000008000000000000000f03f090000000000008003000000000000000008000000000000800f00000000000000000000000000000080' AS qdigest(bigint))";
      expect(
        await row(`SELECT quantile_at_value(d, 20), quantile_at_value(d, 6), quantile_at_value(d, -1), value_at_quantile(d, quantile_at_value(d, 6)),
          quantile_at_value(d, value_at_quantile(d, 0.6)) FROM (SELECT ${digest} d)`),
      ).to.deep.equal([null, 0.6, null, 6n, 0.6]);
    });
  });

  it("Trino's quantile_at_value cases: outside the range, empty digests and NaN give NULL; round trips", async () => {
    const digits = 'FROM (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) t(x)';
    expect(
      await row(`SELECT quantile_at_value(qdigest_agg(x), 20), quantile_at_value(qdigest_agg(x), 6), quantile_at_value(qdigest_agg(x), -1),
        value_at_quantile(qdigest_agg(x), quantile_at_value(qdigest_agg(x), 6)), quantile_at_value(qdigest_agg(x), value_at_quantile(qdigest_agg(x), 0.6)) ${digits}`),
    ).to.deep.equal([null, 0.6, null, 6n, 0.6]);
    expect(
      await row(`SELECT quantile_at_value(qdigest_agg(CAST(x AS double)), 5.6), quantile_at_value(qdigest_agg(CAST(x AS double)), -1.23), quantile_at_value(qdigest_agg(CAST(x AS double)), 12.3),
        quantile_at_value(qdigest_agg(CAST(x AS double)), nan()), value_at_quantile(qdigest_agg(CAST(x AS double)), quantile_at_value(qdigest_agg(CAST(x AS double)), 5.6)) ${digits}`),
    ).to.deep.equal([0.6, null, null, null, 6]);
    // An empty digest (as airlift writes one: min Long.MAX_VALUE, max Long.MIN_VALUE, no nodes).
    const empty = `00${'7b14ae47e17a843f'}${'00'.repeat(16)}ffffffffffffff7f0000000000000080${'00'.repeat(4)}`;
    expect(
      await row(`SELECT quantile_at_value(CAST(X'${empty}' AS qdigest(bigint)), 5), qdigest_agg(x) FROM (VALUES 1) t(x) WHERE x > 1`),
    ).to.deep.equal([null, null]);
  });

  it("gives clients Trino's typeSignature: rawType qdigest with the element type as parameter", () => {
    expect(typeSignature(qdigestType('double'))).to.deep.equal({
      rawType: 'qdigest',
      arguments: [{ kind: 'TYPE', value: { rawType: 'double', arguments: [] } }],
    });
  });

  it('lists the functions with their signatures in SHOW FUNCTIONS', async () => {
    const listed = await engine.rows("SHOW FUNCTIONS LIKE 'qdigest_agg'");
    expect(listed.map((r) => r.slice(0, 3))).to.deep.include.members([
      ['qdigest_agg', 'qdigest(bigint)', 'bigint'],
      ['qdigest_agg', 'qdigest(real)', 'real, bigint, double'],
    ]);
    const scalars = await engine.rows("SHOW FUNCTIONS LIKE 'quantile_at_value'");
    expect(scalars.map((r) => r.slice(0, 3))).to.deep.include.members([['quantile_at_value', 'double', 'qdigest(double), double']]);
    const merges = await engine.rows("SHOW FUNCTIONS LIKE 'merge'");
    expect(merges.map((r) => r.slice(0, 3))).to.deep.include.members([['merge', 'qdigest(real)', 'qdigest(real)']]);
  });

  it('reads damaged bytes as a digest or fails with INVALID_FUNCTION_ARGUMENT, never otherwise', async () => {
    const [valid] = (await row(`SELECT CAST(qdigest_agg(${valueSql}) AS varbinary) FROM ${rows}`)) as [Uint8Array];
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const outcomes = new Set<string>();
    for (let trial = 0; trial < 300; trial++) {
      const bytes = Uint8Array.from(valid.subarray(0, trial % 3 === 0 ? random(valid.length) : valid.length));
      for (let flips = 0; flips < 1 + random(4); flips++) if (bytes.length > 0) bytes[random(bytes.length)] = random(256);
      try {
        const digest = QuantileDigest.deserialize(bytes);
        digest.valueAt(0.5);
        digest.quantileAt(keyOfBigint(1000n));
        digest.mergeWith(QuantileDigest.deserialize(valid));
        QuantileDigest.deserialize(digest.serialize());
        outcomes.add('read');
      } catch (error) {
        outcomes.add(error instanceof EngineError ? error.errorName : String(error));
      }
    }
    expect([...outcomes].sort()).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'read']);
  });

  failureCases('INVALID_FUNCTION_ARGUMENT', [
    ['SELECT value_at_quantile(qdigest_agg(x), 1.5) FROM (VALUES 1) t(x)', 'quantile must be between [0,1]'],
    ['SELECT qdigest_agg(x, 0) FROM (VALUES 1) t(x)', 'Percentile weight must be > 0, was 0'],
    ['SELECT qdigest_agg(x, 1, 1) FROM (VALUES 1) t(x)', 'Percentile accuracy must be exclusively between 0 and 1, was 1.0'],
    [
      'SELECT merge(d) FROM (SELECT qdigest_agg(x, 1, 0.5) d FROM (VALUES 1) t(x) UNION ALL SELECT qdigest_agg(x, 1, 0.25) FROM (VALUES 2) t(x))',
      'Cannot merge qdigests with different accuracies (0.5 vs. 0.25)',
    ],
    ["SELECT CAST(X'01' AS qdigest(bigint))", 'Cannot deserialize qdigest: too short'],
    [`SELECT CAST(X'01${'00'.repeat(44)}' AS qdigest(bigint))`, 'Cannot deserialize qdigest: Invalid format'],
  ]);
  failureCases('TYPE_NOT_FOUND', [
    ["SELECT CAST(X'00' AS qdigest(varchar))", 'Unsupported qdigest element type: varchar'],
    ["SELECT CAST(X'00' AS qdigest(bigint, 3))", 'QDIGEST type expects exactly one type as a parameter'],
    ["SELECT CAST(X'00' AS qdigest)", 'QDIGEST type expects exactly one type as a parameter'],
  ]);
  failureCases('TYPE_MISMATCH', [
    ['SELECT qdigest_agg(1) = qdigest_agg(1)', 'Cannot apply operator: qdigest(bigint) = qdigest(bigint)'],
    ['SELECT CAST(qdigest_agg(1) AS qdigest(double))', 'Cannot cast qdigest(bigint) to qdigest(double)'],
  ]);
});
