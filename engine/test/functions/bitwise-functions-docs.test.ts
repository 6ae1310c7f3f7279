// functions/bitwise.md: every documented example, and the type-preserving shifts' edges.

import { expect } from 'chai';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { type DocumentedExample, documentedExamples } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

documentedExamples('functions/bitwise.md', [
  ['SELECT bit_count(9, 64)', '2'],
  ['SELECT bit_count(9, 8)', '2'],
  ['SELECT bit_count(-7, 64)', '62'],
  ['SELECT bit_count(-7, 8)', '6'],
  ['SELECT bitwise_and(19,25)', '17'],
  ['SELECT bitwise_not(-12)', '11'],
  ['SELECT bitwise_not(19)', '-20'],
  ['SELECT bitwise_not(25)', '-26'],
  ['SELECT bitwise_or(19,25)', '27'],
  ['SELECT bitwise_xor(19,25)', '10'],
  ['SELECT bitwise_left_shift(1, 2)', '4'],
  ['SELECT bitwise_left_shift(5, 2)', '20'],
  ['SELECT bitwise_left_shift(20, 0)', '20'],
  ['SELECT bitwise_left_shift(42, 0)', '42'],
  ['SELECT bitwise_left_shift(0, 1)', '0'],
  ['SELECT bitwise_left_shift(0, 2)', '0'],
  ['SELECT bitwise_right_shift(8, 3)', '1'],
  ['SELECT bitwise_right_shift(9, 1)', '4'],
  ['SELECT bitwise_right_shift(20, 0)', '20'],
  ['SELECT bitwise_right_shift(42, 0)', '42'],
  ['SELECT bitwise_right_shift( 12, 64)', '0'],
  ['SELECT bitwise_right_shift(-45, 64)', '0'],
  ['SELECT bitwise_right_shift(0, 1)', '0'],
  ['SELECT bitwise_right_shift(0, 2)', '0'],
  ['SELECT bitwise_right_shift_arithmetic( 12, 64)', '0'],
  ['SELECT bitwise_right_shift_arithmetic(-45, 64)', '-1'],
] satisfies DocumentedExample[]);

describe('bitwise functions: types and edges as Trino', () => {
  const engine = new EngineHarness();

  it('shifts keep the value type and cut to its width', async () => {
    const { rows, types } = await engine.query(
      "SELECT bitwise_left_shift(TINYINT '64', 1), bitwise_left_shift(SMALLINT '1', 15), bitwise_left_shift(2147483647, 1), bitwise_left_shift(BIGINT '1', 63), bitwise_right_shift(TINYINT '-1', 1), bitwise_right_shift(-1, 1), bitwise_right_shift(BIGINT '-1', 1), bitwise_right_shift_arithmetic(SMALLINT '-8', 2)",
    );
    expect(types).to.deep.equal(['tinyint', 'smallint', 'integer', 'bigint', 'tinyint', 'integer', 'bigint', 'smallint']);
    expect(rows[0]).to.deep.equal([-128, -32768, -2, -9223372036854775808n, 127, 2147483647, 9223372036854775807n, -2]);
  });

  it('bit_count refuses a width out of range and a number that does not fit', async () => {
    expect((await engine.failure('SELECT bit_count(1, 1)')).rawMessage).to.equal(
      'Bits specified in bit_count must be between 2 and 64, got 1',
    );
    expect((await engine.failure('SELECT bit_count(128, 8)')).rawMessage).to.equal(
      'Number must be representable with the bits specified. 128 cannot be represented with 8 bits',
    );
    expect((await engine.query('SELECT bit_count(-128, 8), bit_count(127, 8)')).rows[0]).to.deep.equal([1n, 7n]);
  });

  it('equals DuckDB on random values (xor, and, or, not, bit_count)', async () => {
    const duck = await openDuckDb(1);
    try {
      const values = Array.from(
        { length: 200 },
        (_, i) =>
          `(${i}, ${BigInt.asIntN(64, BigInt(i) * 0x9e3779b97f4a7c15n)}, ${BigInt.asIntN(64, BigInt(i + 7) * 0xc2b2ae3d27d4eb4fn)})`,
      ).join(', ');
      await engine.run('CREATE TABLE bits (id integer, a bigint, b bigint)', `INSERT INTO bits VALUES ${values}`);
      await duck.run(`CREATE TABLE bits AS SELECT * FROM (VALUES ${values}) t(id, a, b)`);
      const ours = (
        await engine.query(
          'SELECT bitwise_and(a, b), bitwise_or(a, b), bitwise_xor(a, b), bitwise_not(a), bit_count(a, 64) FROM bits ORDER BY id',
        )
      ).rows;
      const theirs = await duckRows(
        duck,
        'SELECT a::BIGINT & b::BIGINT, a::BIGINT | b::BIGINT, xor(a::BIGINT, b::BIGINT), ~(a::BIGINT), bit_count(a::BIGINT) FROM bits ORDER BY id',
      );
      expect(ours.map((r) => r.map(String))).to.deep.equal(theirs.map((r) => r.map(String)));
    } finally {
      duck.closeSync();
    }
  });
});
