import { expect } from 'chai';
import { evaluateConstant } from '../../src/exec/expression/compiler.js';
import { BIG, DBL, INT, REALT, dec, errorOf, evalFn, fn, lit } from '../expression/eval-helpers.js';

const TINY = { kind: 'tinyint' } as const;

describe('math functions', () => {
  it('abs, sign, ceil, floor on every numeric type', () => {
    expect(evalFn('abs', [-5, INT])).to.equal(5);
    expect(evalFn('abs', [-5n, BIG])).to.equal(5n);
    expect(evalFn('abs', [-125n, dec(5, 2)])).to.equal(125n);
    expect(evalFn('abs', [-2.5, DBL])).to.equal(2.5);
    expect(errorOf(() => evalFn('abs', [-128, TINY]))).to.equal('NUMERIC_VALUE_OUT_OF_RANGE: Value -128 is out of range for abs(tinyint)');
    expect(evalFn('sign', [-7n, BIG])).to.equal(-1n);
    expect(evalFn('sign', [0, INT])).to.equal(0);
    expect(evalFn('sign', [-0.5, DBL])).to.equal(-1);
    expect(evalFn('sign', [12345n, dec(7, 2)])).to.equal(1n);
    expect(evalFn('ceil', [1.2, DBL])).to.equal(2);
    expect(evalFn('ceiling', [-1.2, DBL])).to.equal(-1);
    expect(evalFn('floor', [-1.2, DBL])).to.equal(-2);
    expect(evalFn('ceil', [121n, dec(5, 2)])).to.equal(2n);
    expect(evalFn('ceil', [-121n, dec(5, 2)])).to.equal(-1n);
    expect(evalFn('floor', [-121n, dec(5, 2)])).to.equal(-2n);
    expect(evalFn('floor', [7, INT])).to.equal(7);
  });

  it('round half away from zero, with and without digits', () => {
    expect(evalFn('round', [2.5, DBL])).to.equal(3);
    expect(evalFn('round', [-2.5, DBL])).to.equal(-3);
    expect(evalFn('round', [0.49999999999999994, DBL])).to.equal(0);
    expect(evalFn('round', [3.14159, DBL], [2, INT])).to.equal(3.14);
    expect(evalFn('round', [-3.14159, DBL], [3, INT])).to.equal(-3.142);
    expect(evalFn('round', [1234.5, DBL], [-2, INT])).to.equal(1200);
    expect(evalFn('round', [NaN, DBL])).to.be.NaN;
    expect(evalFn('round', [125n, dec(5, 2)])).to.equal(1n);
    expect(evalFn('round', [150n, dec(5, 2)])).to.equal(2n);
    expect(evalFn('round', [-150n, dec(5, 2)])).to.equal(-2n);
    expect(evalFn('round', [12345n, dec(5, 3)], [2, INT])).to.equal(12350n);
    expect(evalFn('round', [12345n, dec(5, 3)], [-1, INT])).to.equal(10000n);
    expect(evalFn('round', [99999n, dec(5, 3)], [0, INT])).to.equal(100000n); // 99.999 -> 100.000 in decimal(6,3)
    expect(evalFn('round', [1250, INT], [-2, INT])).to.equal(1300);
    expect(evalFn('round', [-1250n, BIG], [-2, INT])).to.equal(-1300n);
    expect(evalFn('round', [17, INT])).to.equal(17);
  });

  it('truncate', () => {
    expect(evalFn('truncate', [-2.7, DBL])).to.equal(-2);
    expect(evalFn('truncate', [-12399n, dec(7, 2)])).to.equal(-123n);
    expect(evalFn('truncate', [12399n, dec(7, 3)], [1, INT])).to.equal(12300n);
    expect(evalFn('truncate', [3.14159, DBL], [2, INT])).to.equal(3.14);
  });

  it('mod follows the dividend sign and raises on zero for exact types', () => {
    expect(evalFn('mod', [-7, INT], [3, INT])).to.equal(-1);
    expect(evalFn('mod', [7n, BIG], [-3, INT])).to.equal(1n);
    expect(evalFn('mod', [5.5, DBL], [2, INT])).to.equal(1.5);
    expect(evalFn('mod', [1, DBL], [0, DBL])).to.be.NaN;
    expect(errorOf(() => evalFn('mod', [1, INT], [0, INT]))).to.equal('DIVISION_BY_ZERO: Division by zero');
  });

  it('powers, roots, logarithms and trigonometry', () => {
    expect(evalFn('power', [2, INT], [10, INT])).to.equal(1024);
    expect(evalFn('pow', [4, DBL], [0.5, DBL])).to.equal(2);
    expect(evalFn('sqrt', [16, INT])).to.equal(4);
    expect(evalFn('sqrt', [-1, DBL])).to.be.NaN;
    expect(evalFn('cbrt', [27, DBL])).to.equal(3);
    expect(evalFn('ln', [1, DBL])).to.equal(0);
    expect(evalFn('ln', [0, DBL])).to.equal(-Infinity);
    expect(evalFn('log10', [1000, DBL])).to.equal(3);
    expect(evalFn('log2', [8, DBL])).to.equal(3);
    expect(evalFn('log', [2, DBL], [8, DBL])).to.be.closeTo(3, 1e-15);
    expect(evalFn('exp', [0, DBL])).to.equal(1);
    expect(evalFn('degrees', [Math.PI, DBL])).to.equal(180);
    expect(evalFn('radians', [180, DBL])).to.equal(Math.PI);
    expect(evalFn('sin', [0, DBL])).to.equal(0);
    expect(evalFn('cos', [0, DBL])).to.equal(1);
    expect(evalFn('atan2', [1, DBL], [1, DBL])).to.equal(Math.PI / 4);
  });

  it('constants and floating point predicates', () => {
    expect(evalFn('pi')).to.equal(Math.PI);
    expect(evalFn('e')).to.equal(Math.E);
    expect(evalFn('infinity')).to.equal(Infinity);
    expect(evalFn('nan')).to.be.NaN;
    expect(evalFn('is_nan', [NaN, DBL])).to.equal(true);
    expect(evalFn('is_nan', [Math.fround(1.5), REALT])).to.equal(false);
    expect(evalFn('is_finite', [Infinity, DBL])).to.equal(false);
    expect(evalFn('is_infinite', [-Infinity, DBL])).to.equal(true);
  });

  it('greatest and least over mixed types, NaN rejected', () => {
    expect(evalFn('greatest', [1, INT], [5n, BIG], [3, INT])).to.equal(5n);
    expect(evalFn('least', [1.5, DBL], [2, INT])).to.equal(1.5);
    expect(evalFn('greatest', ['b', { kind: 'varchar' }], ['a', { kind: 'varchar' }])).to.equal('b');
    expect(errorOf(() => evalFn('greatest', [NaN, DBL], [1, DBL]))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Invalid argument to greatest(): NaN',
    );
  });

  it('random values stay in range', () => {
    for (let i = 0; i < 20; i++) {
      // evaluated once each: random values differ between evaluations
      const r = evaluateConstant(fn('random')) as number;
      expect(r).to.be.within(0, 1);
      const n = evaluateConstant(fn('random', lit(10, INT))) as number;
      expect(Number.isInteger(n) && n >= 0 && n < 10).to.equal(true);
      const b = evaluateConstant(fn('rand', lit(10n ** 18n, BIG))) as bigint;
      expect(b >= 0n && b < 10n ** 18n).to.equal(true);
    }
    expect(errorOf(() => evaluateConstant(fn('random', lit(0, INT))))).to.equal('INVALID_FUNCTION_ARGUMENT: bound must be positive');
  });
});
