// functions/hyperloglog.md: approx_set, merge, cardinality, empty_approx_set and the HyperLogLog /
// P4HyperLogLog types. Oracles: exact distinct counts of the generated rows (estimates must fall
// within 6 standard errors, 1.04/sqrt(4096) each: a false failure has probability ~2e-9), sketches
// built byte by byte in this file from airlift's format description, and Trino's error messages.

import { expect } from 'chai';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { typeName } from '../../src/types/types.js';
import { murmur3x64128 } from '../../src/functions/scalar/binary/non-cryptographic-hashes.js';
import { murmur3Hash64OfLong } from '../../src/functions/sketch/murmur3-long.js';

const STANDARD_ERROR = 1.04 / Math.sqrt(4096);
const BUCKETS = 4096;

/** The airlift sparse entry of a 64-bit hash: its top 26 bits, then the zeros after them (6 bits). */
function sparseEntry(hash: bigint): number {
  const unsigned = BigInt.asUintN(64, hash);
  const rest = BigInt.asUintN(64, unsigned << 26n) | (1n << 25n);
  let zeros = 0;
  while (((rest >> BigInt(63 - zeros)) & 1n) === 0n) zeros++;
  return Number(((unsigned >> 38n) << 6n) | BigInt(zeros));
}

function murmurOfBigint(value: bigint): bigint {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value, true);
  return new DataView(murmur3x64128(bytes).buffer).getBigInt64(0, true);
}

/** A dense (format 3) sketch of p = 12 with the given bucket values, all within 15 of the smallest. */
function denseSketch(values: (bucket: number) => number): Uint8Array {
  const registers = Array.from({ length: BUCKETS }, (_, b) => values(b));
  const baseline = Math.min(...registers);
  const bytes = new Uint8Array(3 + BUCKETS / 2 + 2);
  bytes.set([3, 12, baseline]);
  registers.forEach((v, b) => (bytes[3 + (b >> 1)] |= b % 2 === 0 ? (v - baseline) << 4 : v - baseline));
  return bytes;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('HyperLogLog functions (functions/hyperloglog.md)', () => {
  const engine = new EngineHarness();
  const scalar = async (sql: string): Promise<unknown> => (await engine.query(sql)).rows[0][0];

  it("approx_set of one bigint is a sparse sketch holding airlift's entry for murmur3 of its bytes", async () => {
    const bytes = (await scalar("SELECT CAST(approx_set(x) AS varbinary) FROM (VALUES BIGINT '1') t(x)")) as Uint8Array;
    const entry = new Uint8Array(4);
    new DataView(entry.buffer).setUint32(0, sparseEntry(murmurOfBigint(1n)) >>> 0, true);
    expect(hex(bytes)).to.equal(`020c0100${hex(entry)}`);
  });

  it('hashes longs in 32-bit words exactly as the byte-wise murmur3 (checked against its reference vectors)', () => {
    const out = new Uint32Array(2);
    const samples = [0n, 1n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 0x7ff8000000000000n];
    for (let i = 0; i < 2000; i++)
      samples.push(BigInt.asIntN(64, BigInt(Math.floor(Math.random() * 2 ** 32)) * 0x1_0000_0001n + BigInt(i)));
    for (const value of samples) {
      const words = BigInt.asUintN(64, value);
      murmur3Hash64OfLong(Number(words >> 32n), Number(words & 0xffffffffn), out);
      expect(BigInt.asIntN(64, (BigInt(out[0]) << 32n) | BigInt(out[1])), String(value)).to.equal(murmurOfBigint(value));
    }
  });

  it('empty_approx_set() is an empty sparse sketch of 4096 buckets with cardinality 0', async () => {
    expect(hex((await scalar('SELECT CAST(empty_approx_set() AS varbinary)')) as Uint8Array)).to.equal('020c0000');
    expect(await scalar('SELECT cardinality(empty_approx_set())')).to.equal(0n);
    expect(await scalar('SELECT typeof(empty_approx_set())')).to.equal('HyperLogLog');
  });

  it('counts small sets exactly while sparse, and NULL for no rows', async () => {
    expect(await scalar('SELECT cardinality(approx_set(x)) FROM UNNEST(sequence(1, 300)) t(x)')).to.equal(300n);
    expect(await scalar("SELECT cardinality(approx_set(x)) FROM (VALUES 'a', 'b', 'a', NULL, 'c') t(x)")).to.equal(3n);
    expect(await scalar('SELECT approx_set(x) FROM (VALUES 1) t(x) WHERE x > 1')).to.equal(null);
    expect(await scalar('SELECT merge(h) FROM (SELECT approx_set(1) h) WHERE false')).to.equal(null);
  });

  for (const [label, expression, from, distinct] of [
    ['bigints', 'x * 7919 + y', 'UNNEST(sequence(1, 300)) a(x) CROSS JOIN UNNEST(sequence(1, 300)) b(y)', 300 * 300],
    ['doubles', 'CAST(x AS double) / 7 + y', 'UNNEST(sequence(1, 200)) a(x) CROSS JOIN UNNEST(sequence(1, 100)) b(y)', -1],
    [
      'varchars',
      "CAST(x AS varchar) || '-' || CAST(y % 50 AS varchar)",
      'UNNEST(sequence(1, 400)) a(x) CROSS JOIN UNNEST(sequence(1, 100)) b(y)',
      400 * 50,
    ],
  ] as const) {
    it(`estimates distinct ${label} within 6 standard errors of the exact count`, async () => {
      const [[estimate, exact]] = (
        await engine.query(`SELECT cardinality(approx_set(${expression})), count(DISTINCT ${expression}) FROM ${from}`)
      ).rows as bigint[][];
      if (distinct > 0) expect(Number(exact)).to.equal(distinct);
      expect(Math.abs(Number(estimate) - Number(exact))).to.be.at.most(6 * STANDARD_ERROR * Number(exact));
    });
  }

  it('merge of per-group sketches equals the sketch of all rows, and P4HyperLogLog keeps the estimate', async () => {
    const [[merged, whole, p4, exact]] = (
      await engine.query(`SELECT
          (SELECT cardinality(merge(h)) FROM (SELECT approx_set(l_partkey) h FROM tpch.tiny.lineitem GROUP BY l_suppkey)),
          cardinality(approx_set(l_partkey)),
          cardinality(CAST(approx_set(l_partkey) AS P4HyperLogLog)),
          count(DISTINCT l_partkey)
        FROM tpch.tiny.lineitem`)
    ).rows as bigint[][];
    expect(merged).to.equal(whole);
    expect(p4).to.equal(whole);
    expect(Math.abs(Number(whole) - Number(exact))).to.be.at.most(6 * STANDARD_ERROR * Number(exact));
  });

  it('round-trips through varbinary, and the P4HyperLogLog cast makes the sketch dense', async () => {
    const [[viaBytes, direct, p4Bytes]] = (
      await engine.query(`SELECT cardinality(CAST(CAST(approx_set(x) AS varbinary) AS HyperLogLog)), cardinality(approx_set(x)),
          CAST(CAST(CAST(approx_set(x) AS P4HyperLogLog) AS HyperLogLog) AS varbinary)
        FROM UNNEST(sequence(1, 100)) t(x)`)
    ).rows as [bigint, bigint, Uint8Array][];
    expect(viaBytes).to.equal(direct);
    expect([p4Bytes[0], p4Bytes[1], p4Bytes.length]).to.deep.equal([3, 12, 3 + BUCKETS / 2 + 2]);
    expect(await scalar(`SELECT typeof(CAST(approx_set(1) AS P4HyperLogLog))`)).to.equal('P4HyperLogLog');
  });

  it('reads dense sketches built from the format description (linear counting below 60% full)', async () => {
    const quarter = denseSketch((b) => (b < BUCKETS / 4 ? 1 : 0));
    const expected = Math.round(BUCKETS * Math.log(BUCKETS / (BUCKETS - BUCKETS / 4)));
    expect(await scalar(`SELECT cardinality(CAST(X'${hex(quarter)}' AS HyperLogLog))`)).to.equal(BigInt(expected));
    // Every bucket at value 10: about m * 2^10 * ln 2 values (each bucket has seen ~2^10 ln 2 hashes).
    const full = denseSketch(() => 10);
    const estimate = Number(await scalar(`SELECT cardinality(CAST(X'${hex(full)}' AS HyperLogLog))`));
    expect(Math.abs(estimate / (BUCKETS * 1024 * Math.LN2) - 1)).to.be.below(0.05);
    // Merging it with a sketch of a few values changes nothing: every bucket is already at 10 or more.
    expect(
      await scalar(`SELECT cardinality(merge(h)) FROM (SELECT CAST(X'${hex(full)}' AS HyperLogLog) h UNION ALL SELECT approx_set(42))`),
    ).to.equal(BigInt(estimate));
  });

  it("runs the page's storage example: daily sketches kept as varbinary, merged into a weekly count", async () => {
    await engine.query('CREATE TABLE memory.default.visit_summaries (visit_date date, hll varbinary)');
    await engine.query(`INSERT INTO memory.default.visit_summaries
      SELECT date_add('day', CAST(x % 10 AS integer), current_date - interval '9' day), CAST(approx_set(x * 31 % 5000) AS varbinary)
      FROM UNNEST(sequence(1, 10000)) t(x) GROUP BY x % 10`);
    const weekly = await scalar(
      `SELECT cardinality(merge(CAST(hll AS HyperLogLog))) FROM memory.default.visit_summaries WHERE visit_date >= current_date - interval '7' day`,
    );
    // Days 2..9 of the ten: x % 10 >= 2, whose values x * 31 % 5000 are 4000 distinct ones.
    const exact = await scalar('SELECT count(DISTINCT x * 31 % 5000) FROM UNNEST(sequence(1, 10000)) t(x) WHERE x % 10 >= 2');
    expect(exact).to.equal(4000n);
    expect(Math.abs(Number(weekly) - 4000)).to.be.at.most(6 * STANDARD_ERROR * 4000);
  });

  it('sends sketches to clients as base64 of their bytes, as varbinary', async () => {
    const result = await engine.query('SELECT empty_approx_set()');
    expect(typeName(result.columns[0].type)).to.equal('HyperLogLog');
    const { toJsonValue } = await import('../../src/types/values.js');
    expect(toJsonValue(result.rows[0][0], { kind: 'sketch', sketch: 'HyperLogLog' })).to.equal(
      Buffer.from([2, 12, 0, 0]).toString('base64'),
    );
  });

  describe('refusals', () => {
    failureCases(
      'TYPE_MISMATCH',
      [
        ['SELECT approx_set(1) = approx_set(1)', 'Cannot apply operator: HyperLogLog = HyperLogLog'],
        ['SELECT h FROM (SELECT approx_set(1) h) GROUP BY h', 'HyperLogLog is not comparable, and therefore cannot be used in GROUP BY'],
        ['SELECT DISTINCT approx_set(1)', 'DISTINCT can only be applied to comparable types (actual: HyperLogLog)'],
        ['SELECT approx_set(1) ORDER BY 1', 'HyperLogLog is not orderable, and therefore cannot be used in ORDER BY'],
        ['SELECT CAST(approx_set(1) AS varchar)', 'Cannot cast HyperLogLog to varchar'],
      ],
      engine,
    );
    failureCases(
      'FUNCTION_NOT_FOUND',
      [
        [
          "SELECT approx_set(DATE '2020-01-01')",
          'Unexpected parameters (date) for function approx_set. Expected: approx_set(bigint), approx_set(double), approx_set(varchar(x))',
        ],
        ['SELECT to_hex(approx_set(1))', 'Unexpected parameters (HyperLogLog) for function to_hex. Expected: to_hex(varbinary)'],
      ],
      engine,
    );
    failureCases(
      'INVALID_FUNCTION_ARGUMENT',
      [
        ["SELECT cardinality(CAST(X'00' AS HyperLogLog))", 'Cannot deserialize HyperLogLog: too short'],
        ["SELECT cardinality(CAST(X'090c0000' AS HyperLogLog))", 'Cannot deserialize HyperLogLog: unknown format tag 9'],
        ["SELECT cardinality(CAST(X'020c0100' AS HyperLogLog))", 'Cannot deserialize HyperLogLog: wrong length for its entry count'],
        [
          "SELECT cardinality(merge(h)) FROM (SELECT approx_set(1) h UNION ALL SELECT CAST(X'020b0000' AS HyperLogLog))",
          'Cannot merge HLLs with different number of buckets: 4096 vs 2048',
        ],
      ],
      engine,
    );
  });
});
