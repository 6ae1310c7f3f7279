import { expect } from 'chai';
import { evaluateConstant } from '../../src/exec/expression/compiler.js';
import { formatDecimal } from '../../src/types/decimal.js';
import { typeName } from '../../src/types/types.js';
import { BIG, DBL, INT, REALT, dec, errorOf, evalRows, input, lit, op } from './eval-helpers.js';

const SMALL = { kind: 'smallint' } as const;
const TINY = { kind: 'tinyint' } as const;

describe('integer arithmetic', () => {
  it('computes and truncates division toward zero; modulus takes the sign of the dividend', () => {
    const rows = [
      [7, 2],
      [-7, 2],
      [7, -2],
      [-7, -2],
    ];
    expect(evalRows(op('divide', input(0, INT), input(1, INT)), [INT, INT], rows)).to.deep.equal([3, -3, -3, 3]);
    expect(evalRows(op('modulus', input(0, INT), input(1, INT)), [INT, INT], rows)).to.deep.equal([1, -1, 1, -1]);
    expect(evalRows(op('multiply', input(0, INT), input(1, INT)), [INT, INT], rows)).to.deep.equal([14, -14, -14, 14]);
  });

  it('raises Trino overflow errors at the integer edges', () => {
    expect(errorOf(() => evaluateConstant(op('add', lit(2147483647, INT), lit(1, INT))))).to.equal(
      'NUMERIC_VALUE_OUT_OF_RANGE: integer addition overflow: 2147483647 + 1',
    );
    expect(errorOf(() => evaluateConstant(op('subtract', lit(-2147483648, INT), lit(1, INT))))).to.equal(
      'NUMERIC_VALUE_OUT_OF_RANGE: integer subtraction overflow: -2147483648 - 1',
    );
    expect(errorOf(() => evaluateConstant(op('multiply', lit(65536, INT), lit(65536, INT))))).to.equal(
      'NUMERIC_VALUE_OUT_OF_RANGE: integer multiplication overflow: 65536 * 65536',
    );
    expect(errorOf(() => evaluateConstant(op('negate', lit(-2147483648, INT))))).to.equal(
      'NUMERIC_VALUE_OUT_OF_RANGE: integer negation overflow: -2147483648',
    );
    expect(errorOf(() => evaluateConstant(op('add', lit(127, TINY), lit(1, TINY))))).to.equal(
      'NUMERIC_VALUE_OUT_OF_RANGE: tinyint addition overflow: 127 + 1',
    );
    expect(errorOf(() => evaluateConstant(op('multiply', lit(200, SMALL), lit(200, SMALL))))).to.match(/smallint multiplication overflow/);
    expect(evaluateConstant(op('multiply', lit(46340, INT), lit(46340, INT)))).to.equal(2147395600);
  });

  it('is exact over the whole bigint range and raises at its edges', () => {
    const max = 2n ** 63n - 1n;
    const min = -(2n ** 63n);
    expect(evaluateConstant(op('add', lit(max - 1n, BIG), lit(1n, BIG)))).to.equal(max);
    expect(evaluateConstant(op('subtract', lit(min + 1n, BIG), lit(1n, BIG)))).to.equal(min);
    expect(errorOf(() => evaluateConstant(op('add', lit(max, BIG), lit(1n, BIG))))).to.equal(
      'NUMERIC_VALUE_OUT_OF_RANGE: bigint addition overflow: 9223372036854775807 + 1',
    );
    expect(errorOf(() => evaluateConstant(op('multiply', lit(4294967296n, BIG), lit(4294967296n, BIG))))).to.match(
      /bigint multiplication overflow/,
    );
    expect(errorOf(() => evaluateConstant(op('divide', lit(min, BIG), lit(-1n, BIG))))).to.match(/bigint division overflow/);
    expect(errorOf(() => evaluateConstant(op('negate', lit(min, BIG))))).to.match(/bigint negation overflow/);
    expect(evaluateConstant(op('add', lit(9007199254740993n, BIG), lit(2n, BIG)))).to.equal(9007199254740995n);
  });

  it('raises DIVISION_BY_ZERO for integer division and modulus by zero', () => {
    expect(errorOf(() => evaluateConstant(op('divide', lit(1, INT), lit(0, INT))))).to.equal('DIVISION_BY_ZERO: Division by zero');
    expect(errorOf(() => evaluateConstant(op('modulus', lit(1n, BIG), lit(0n, BIG))))).to.equal('DIVISION_BY_ZERO: Division by zero');
  });

  it('widens mixed operands (integer + bigint is bigint)', () => {
    const e = op('add', lit(2147483647, INT), lit(1n, BIG));
    expect(typeName(e.type)).to.equal('bigint');
    expect(evaluateConstant(e)).to.equal(2147483648n);
  });

  it('propagates NULL', () => {
    expect(
      evalRows(
        op('add', input(0, INT), input(1, INT)),
        [INT, INT],
        [
          [1, null],
          [null, 2],
          [3, 4],
        ],
      ),
    ).to.deep.equal([null, null, 7]);
  });
});

describe('floating point arithmetic', () => {
  it('follows IEEE: division by zero gives infinities and NaN', () => {
    expect(evaluateConstant(op('divide', lit(1, DBL), lit(0, DBL)))).to.equal(Infinity);
    expect(evaluateConstant(op('divide', lit(-1, DBL), lit(0, DBL)))).to.equal(-Infinity);
    expect(evaluateConstant(op('divide', lit(0, DBL), lit(0, DBL)))).to.be.NaN;
    expect(evaluateConstant(op('modulus', lit(5.5, DBL), lit(2, DBL)))).to.equal(1.5);
  });

  it('rounds real arithmetic to float32', () => {
    expect(evaluateConstant(op('add', lit(Math.fround(0.1), REALT), lit(Math.fround(0.2), REALT)))).to.equal(
      Math.fround(Math.fround(0.1) + Math.fround(0.2)),
    );
  });

  it('mixes integers and doubles as doubles', () => {
    const e = op('multiply', lit(3, INT), lit(0.5, DBL));
    expect(typeName(e.type)).to.equal('double');
    expect(evaluateConstant(e)).to.equal(1.5);
  });
});

describe('decimal arithmetic', () => {
  const value = (text: string) => {
    const [i, f = ''] = text.replace('-', '').split('.');
    const unscaled = BigInt(i + f) * (text.startsWith('-') ? -1n : 1n);
    return lit(unscaled, dec(Math.max(1, (i + f).replace(/^0+/, '').length), f.length));
  };
  const run = (e: ReturnType<typeof op>) => {
    const t = e.type;
    if (t.kind !== 'decimal') throw new Error('not decimal');
    return `${formatDecimal(evaluateConstant(e) as bigint, t.scale)} ${typeName(t)}`;
  };
  const withType = (text: string, p: number, s: number) => {
    const l = value(text);
    return lit(l.kind === 'constant' ? l.value : null, dec(p, s));
  };

  it('computes result types exactly as Trino', () => {
    expect(typeName(op('add', withType('1', 12, 2), withType('1', 12, 2)).type)).to.equal('decimal(13,2)');
    expect(typeName(op('add', withType('1', 10, 0), withType('1', 5, 3)).type)).to.equal('decimal(14,3)');
    expect(typeName(op('multiply', withType('1', 12, 2), withType('1', 12, 2)).type)).to.equal('decimal(24,4)');
    expect(typeName(op('multiply', withType('1', 30, 2), withType('1', 20, 2)).type)).to.equal('decimal(38,4)');
    expect(typeName(op('divide', withType('1', 12, 2), withType('1', 5, 3)).type)).to.equal('decimal(16,3)');
    expect(typeName(op('modulus', withType('1', 12, 2), withType('1', 5, 3)).type)).to.equal('decimal(5,3)');
    expect(typeName(op('add', withType('1', 38, 0), withType('1', 38, 0)).type)).to.equal('decimal(38,0)');
    expect(typeName(op('add', withType('1', 5, 2), lit(1, INT)).type)).to.equal('decimal(13,2)');
  });

  it('adds, subtracts and multiplies exactly', () => {
    expect(run(op('add', value('1234.50'), value('0.005')))).to.equal('1234.505 decimal(8,3)');
    expect(run(op('subtract', value('0.1'), value('0.3')))).to.equal('-0.2 decimal(2,1)');
    expect(run(op('multiply', value('12.34'), value('-0.5')))).to.equal('-6.170 decimal(5,3)');
    expect(run(op('add', withType('9999999999999999999999999999999999.999', 37, 3), value('0.001')))).to.equal(
      '10000000000000000000000000000000000.000 decimal(38,3)',
    );
  });

  it('divides with HALF_UP rounding at the result scale', () => {
    expect(run(op('divide', value('1.00'), value('3')))).to.equal('0.33 decimal(3,2)');
    expect(run(op('divide', value('2.00'), value('3')))).to.equal('0.67 decimal(3,2)');
    expect(run(op('divide', value('-2.00'), value('3')))).to.equal('-0.67 decimal(3,2)');
    expect(run(op('divide', value('1'), value('8')))).to.equal('0 decimal(1,0)');
    expect(run(op('divide', value('5'), value('10')))).to.equal('1 decimal(1,0)');
    expect(run(op('divide', value('1.000'), value('0.3')))).to.equal('3.333 decimal(5,3)');
    expect(errorOf(() => evaluateConstant(op('divide', value('1.5'), value('0.0'))))).to.equal('DIVISION_BY_ZERO: Division by zero');
  });

  it('computes modulus with the sign of the dividend', () => {
    expect(run(op('modulus', value('10.5'), value('3')))).to.equal('1.5 decimal(2,1)');
    expect(run(op('modulus', value('-10.5'), value('3')))).to.equal('-1.5 decimal(2,1)');
    expect(errorOf(() => evaluateConstant(op('modulus', value('1.5'), value('0'))))).to.equal('DIVISION_BY_ZERO: Division by zero');
  });

  it('raises NUMERIC_VALUE_OUT_OF_RANGE beyond 38 digits', () => {
    const big = withType('99999999999999999999999999999999999999', 38, 0);
    expect(errorOf(() => evaluateConstant(op('add', big, lit(1n, dec(1, 0)))))).to.equal('NUMERIC_VALUE_OUT_OF_RANGE: Decimal overflow');
    expect(
      errorOf(() => evaluateConstant(op('multiply', withType('10000000000000000000', 20, 0), withType('10000000000000000000', 20, 0)))),
    ).to.equal('NUMERIC_VALUE_OUT_OF_RANGE: Decimal overflow');
  });

  it('computes on page columns, short and long decimals, with NULLs', () => {
    const t12 = dec(12, 2);
    const t30 = dec(30, 2);
    const e = op('multiply', input(0, t12), input(1, t30));
    expect(typeName(e.type)).to.equal('decimal(38,4)');
    expect(
      evalRows(
        e,
        [t12, t30],
        [
          [150n, 200n],
          [null, 1n],
          [-1n, 10n ** 28n],
        ],
      ),
    ).to.deep.equal([30000n, null, -(10n ** 28n)]);
  });

  it('negates', () => {
    expect(run(op('negate', value('1.25')))).to.equal('-1.25 decimal(3,2)');
  });
});
