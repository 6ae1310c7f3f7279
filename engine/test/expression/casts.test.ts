import { expect } from 'chai';
import { evaluateConstant } from '../../src/exec/expression/compiler.js';
import type { Scalar } from '../../src/types/scalar.js';
import { canCast } from '../../src/types/casts.js';
import { civilToDays } from '../../src/types/datetime.js';
import { parseTypeSpec } from '../../src/types/parse-type.js';
import type { SqlType } from '../../src/types/types.js';
import { cast, errorOf, evalRows, input, lit } from './eval-helpers.js';

const t = (name: string, ...params: number[]): SqlType => parseTypeSpec(name, params);
const castValue = (value: Scalar, from: SqlType, to: SqlType) => evaluateConstant(cast(lit(value, from), to));
const tryCast = (value: Scalar, from: SqlType, to: SqlType) => evaluateConstant(cast(lit(value, from), to, true));
const castError = (value: Scalar, from: SqlType, to: SqlType) => errorOf(() => castValue(value, from, to));

describe('casts', () => {
  it('between integral types, with range checks', () => {
    expect(castValue(5, t('integer'), t('bigint'))).to.equal(5n);
    expect(castValue(127n, t('bigint'), t('tinyint'))).to.equal(127);
    expect(castError(128n, t('bigint'), t('tinyint'))).to.equal('NUMERIC_VALUE_OUT_OF_RANGE: Out of range for tinyint: 128');
    expect(castError(3000000000n, t('bigint'), t('integer'))).to.equal('NUMERIC_VALUE_OUT_OF_RANGE: Out of range for integer: 3000000000');
    expect(castValue(-32768, t('integer'), t('smallint'))).to.equal(-32768);
  });

  it('from floating point to integers rounds half away from zero', () => {
    expect(castValue(2.5, t('double'), t('integer'))).to.equal(3);
    expect(castValue(-2.5, t('double'), t('integer'))).to.equal(-3);
    expect(castValue(2.4999, t('double'), t('integer'))).to.equal(2);
    expect(castValue(1e15 + 0.5, t('double'), t('bigint'))).to.equal(1000000000000001n);
    expect(castError(3e10, t('double'), t('integer'))).to.equal('NUMERIC_VALUE_OUT_OF_RANGE: Out of range for integer: 3.0E10');
    expect(castError(1e19, t('double'), t('bigint'))).to.equal('NUMERIC_VALUE_OUT_OF_RANGE: Out of range for bigint: 1.0E19');
    expect(castError(NaN, t('double'), t('integer'))).to.match(/^INVALID_CAST_ARGUMENT/);
  });

  it('between numbers and decimals, rounding HALF_UP', () => {
    expect(castValue(1.005, t('double'), t('decimal', 5, 2))).to.equal(101n);
    expect(castValue(-0.125, t('double'), t('decimal', 5, 2))).to.equal(-13n);
    expect(castValue(12, t('integer'), t('decimal', 5, 2))).to.equal(1200n);
    expect(castError(1000, t('integer'), t('decimal', 5, 2))).to.equal(
      "INVALID_CAST_ARGUMENT: Cannot cast INTEGER '1000' to DECIMAL(5, 2)",
    );
    expect(castValue(125n, t('decimal', 5, 2), t('integer'))).to.equal(1);
    expect(castValue(150n, t('decimal', 5, 2), t('integer'))).to.equal(2);
    expect(castValue(-150n, t('decimal', 5, 2), t('bigint'))).to.equal(-2n);
    expect(castValue(12345n, t('decimal', 5, 2), t('double'))).to.equal(123.45);
    expect(castValue(12345n, t('decimal', 5, 2), t('decimal', 4, 1))).to.equal(1235n);
    expect(castError(12345n, t('decimal', 5, 1), t('decimal', 3, 1))).to.equal(
      "INVALID_CAST_ARGUMENT: Cannot cast DECIMAL(5, 1) '1234.5' to DECIMAL(3, 1)",
    );
    expect(castError(Infinity, t('double'), t('decimal', 5, 1))).to.match(
      /^INVALID_CAST_ARGUMENT: Cannot cast DOUBLE 'Infinity' to DECIMAL\(5, 1\)/,
    );
  });

  it('to varchar, as text', () => {
    expect(castValue(1e10, t('double'), t('varchar'))).to.equal('1.0E10');
    expect(castValue(true, t('boolean'), t('varchar'))).to.equal('true');
    expect(castValue(-5n, t('decimal', 3, 2), t('varchar'))).to.equal('-0.05');
    expect(castValue(civilToDays(2020, 1, 2), t('date'), t('varchar'))).to.equal('2020-01-02');
    expect(castValue(12345, t('integer'), t('varchar', 5))).to.equal('12345');
    expect(castError(12345, t('integer'), t('varchar', 3))).to.equal(
      'INVALID_CAST_ARGUMENT: Value 12345 cannot be represented as varchar(3)',
    );
  });

  it('between strings: varchar(n) truncates, char drops trailing spaces and stays unpadded as varchar', () => {
    expect(castValue('abcdef', t('varchar'), t('varchar', 3))).to.equal('abc');
    expect(castValue('日本語です', t('varchar'), t('varchar', 2))).to.equal('日本');
    expect(castValue('ab   ', t('varchar'), t('char', 4))).to.equal('ab');
    // Trino's char -> varchar cast adds no padding (CharToVarcharCast): char(4) 'ab' is varchar 'ab'.
    expect(castValue('ab', t('char', 4), t('varchar'))).to.equal('ab');
    expect(castValue('abcd', t('char', 4), t('varchar', 2))).to.equal('ab');
    expect(castValue('abcdef', t('varchar'), t('char', 2))).to.equal('ab');
  });

  it('from varchar to numbers, booleans and dates, with Trino messages', () => {
    expect(castValue(' 42 ', t('varchar'), t('integer'))).to.equal(42);
    expect(castValue('-9223372036854775808', t('varchar'), t('bigint'))).to.equal(-(2n ** 63n));
    expect(castError('abc', t('varchar'), t('integer'))).to.equal("INVALID_CAST_ARGUMENT: Cannot cast 'abc' to INT");
    expect(castError('3000000000', t('varchar'), t('integer'))).to.equal("INVALID_CAST_ARGUMENT: Cannot cast '3000000000' to INT");
    expect(castError('1.5', t('varchar'), t('bigint'))).to.equal("INVALID_CAST_ARGUMENT: Cannot cast '1.5' to BIGINT");
    expect(castValue('1.5e3', t('varchar'), t('double'))).to.equal(1500);
    expect(castValue('NaN', t('varchar'), t('double'))).to.be.NaN;
    expect(castValue('-Infinity', t('varchar'), t('double'))).to.equal(-Infinity);
    expect(castError('1,5', t('varchar'), t('double'))).to.equal("INVALID_CAST_ARGUMENT: Cannot cast '1,5' to DOUBLE");
    expect(castValue('12.345', t('varchar'), t('decimal', 5, 2))).to.equal(1235n);
    expect(castValue('1.5e2', t('varchar'), t('decimal', 5, 0))).to.equal(150n);
    expect(castError('x', t('varchar'), t('decimal', 5, 2))).to.equal(
      "INVALID_CAST_ARGUMENT: Cannot cast VARCHAR 'x' to DECIMAL(5, 2). Value is not a number.",
    );
    expect(castError('12345', t('varchar'), t('decimal', 5, 2))).to.equal(
      "INVALID_CAST_ARGUMENT: Cannot cast VARCHAR '12345' to DECIMAL(5, 2). Value too large.",
    );
    expect(castValue('TRUE', t('varchar'), t('boolean'))).to.equal(true);
    expect(castValue('0', t('varchar'), t('boolean'))).to.equal(false);
    expect(castError('yes', t('varchar'), t('boolean'))).to.equal("INVALID_CAST_ARGUMENT: Cannot cast 'yes' to BOOLEAN");
    expect(castValue('2020-02-29', t('varchar'), t('date'))).to.equal(civilToDays(2020, 2, 29));
    expect(castError('2021-02-29', t('varchar'), t('date'))).to.equal('INVALID_CAST_ARGUMENT: Value cannot be cast to date: 2021-02-29');
    expect(castValue('2020-01-02 03:04:05.6789', t('varchar'), t('timestamp', 3))).to.equal(Date.UTC(2020, 0, 2, 3, 4, 5, 679) * 1000);
    expect(castError('yesterday', t('varchar'), t('timestamp', 3))).to.equal(
      'INVALID_CAST_ARGUMENT: Value cannot be cast to timestamp: yesterday',
    );
  });

  it('between dates and timestamps', () => {
    const day = civilToDays(2020, 3, 4);
    expect(castValue(day, t('date'), t('timestamp', 3))).to.equal(day * 86_400_000_000);
    // A timestamp(6) is a bigint of picoseconds since the epoch; timestamp(0..3) a number of microseconds.
    const micros = (us: number) => BigInt(us) * 1_000_000n;
    expect(castValue((BigInt(day) * 86_400_000_000n + 5n) * 1_000_000n, t('timestamp', 6), t('date'))).to.equal(day);
    expect(castValue(micros(-1), t('timestamp', 6), t('date'))).to.equal(-1);
    expect(castValue(micros(1_234_567), t('timestamp', 6), t('timestamp', 3))).to.equal(1_235_000);
    expect(castValue(micros(1_500_000), t('timestamp', 6), t('timestamp', 0))).to.equal(2_000_000);
  });

  it('between booleans and numbers', () => {
    expect(castValue(true, t('boolean'), t('integer'))).to.equal(1);
    expect(castValue(false, t('boolean'), t('bigint'))).to.equal(0n);
    expect(castValue(0, t('integer'), t('boolean'))).to.equal(false);
    expect(castValue(-3n, t('bigint'), t('boolean'))).to.equal(true);
    expect(castValue(0.5, t('double'), t('boolean'))).to.equal(true);
  });

  it('of NULL (unknown) to anything is NULL', () => {
    expect(castValue(null, { kind: 'unknown' }, t('integer'))).to.equal(null);
    expect(castValue(null, t('varchar'), t('date'))).to.equal(null);
  });

  it('TRY_CAST yields NULL instead of failing, row by row', () => {
    expect(tryCast('abc', t('varchar'), t('integer'))).to.equal(null);
    expect(tryCast(300, t('integer'), t('tinyint'))).to.equal(null);
    const e = cast(input(0, t('varchar')), t('integer'), true);
    expect(evalRows(e, [t('varchar')], [['1'], ['x'], [null], ['2']])).to.deep.equal([1, null, null, 2]);
  });

  it('knows which casts exist', () => {
    expect(canCast(t('integer'), t('date'))).to.equal(false);
    expect(canCast(t('date'), t('integer'))).to.equal(false);
    expect(canCast(t('varchar'), t('date'))).to.equal(true);
    expect(canCast(t('date'), t('varchar'))).to.equal(true);
    expect(canCast(t('timestamp', 3), t('date'))).to.equal(true);
    expect(canCast({ kind: 'unknown' }, t('date'))).to.equal(true);
    expect(errorOf(() => castValue(1, t('integer'), t('date')))).to.equal('TYPE_MISMATCH: Cannot cast integer to date');
  });
});
