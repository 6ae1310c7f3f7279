import { expect } from 'chai';
import {
  checkDecimalOverflow,
  decimalToNumber,
  divideRoundHalfUp,
  formatDecimal,
  numberToUnscaled,
  parseDecimal,
  rescale,
} from '../../src/types/decimal.js';

describe('decimal values', () => {
  it('parses text with Trino precision and scale', () => {
    expect(parseDecimal('1234.50')).to.deep.equal({ unscaled: 123450n, precision: 6, scale: 2 });
    expect(parseDecimal('0.5')).to.deep.equal({ unscaled: 5n, precision: 1, scale: 1 });
    expect(parseDecimal('0.05')).to.deep.equal({ unscaled: 5n, precision: 2, scale: 2 });
    expect(parseDecimal('-007')).to.deep.equal({ unscaled: -7n, precision: 1, scale: 0 });
    expect(parseDecimal('.5')).to.deep.equal({ unscaled: 5n, precision: 1, scale: 1 });
    expect(parseDecimal('0')).to.deep.equal({ unscaled: 0n, precision: 1, scale: 0 });
    expect(parseDecimal('12345678901234567890123456789012345678')?.precision).to.equal(38);
    expect(parseDecimal('abc')).to.equal(undefined);
    expect(parseDecimal('.')).to.equal(undefined);
    expect(parseDecimal('1.2.3')).to.equal(undefined);
  });

  it('formats with exactly scale fraction digits', () => {
    expect(formatDecimal(123450n, 2)).to.equal('1234.50');
    expect(formatDecimal(-5n, 2)).to.equal('-0.05');
    expect(formatDecimal(0n, 3)).to.equal('0.000');
    expect(formatDecimal(42n, 0)).to.equal('42');
    expect(formatDecimal(-(10n ** 37n), 37)).to.equal('-1.' + '0'.repeat(37));
  });

  it('rounds HALF_UP (ties away from zero) when rescaling and dividing', () => {
    expect(rescale(125n, 2, 1)).to.equal(13n);
    expect(rescale(-125n, 2, 1)).to.equal(-13n);
    expect(rescale(124n, 2, 1)).to.equal(12n);
    expect(rescale(5n, 1, 0)).to.equal(1n);
    expect(rescale(12n, 1, 3)).to.equal(1200n);
    expect(divideRoundHalfUp(7n, 2n)).to.equal(4n);
    expect(divideRoundHalfUp(-7n, 2n)).to.equal(-4n);
    expect(divideRoundHalfUp(7n, -2n)).to.equal(-4n);
    expect(divideRoundHalfUp(1n, 3n)).to.equal(0n);
    expect(divideRoundHalfUp(2n, 3n)).to.equal(1n);
  });

  it('checks precision', () => {
    expect(checkDecimalOverflow(999n, 3)).to.equal(999n);
    expect(() => checkDecimalOverflow(1000n, 3)).to.throw('Decimal overflow');
    expect(() => checkDecimalOverflow(-1000n, 3)).to.throw('Decimal overflow');
  });

  it('converts to and from doubles', () => {
    expect(decimalToNumber(12345n, 2)).to.equal(123.45);
    expect(decimalToNumber(1n, 1)).to.equal(0.1);
    expect(decimalToNumber(10n ** 30n + 1n, 10)).to.equal(1e20);
    expect(numberToUnscaled(0.1, 19)).to.equal(10n ** 18n);
    expect(numberToUnscaled(1.005, 2)).to.equal(101n); // from the shortest digits "1.005", HALF_UP
    expect(numberToUnscaled(-2.5, 0)).to.equal(-3n);
    expect(numberToUnscaled(1e20, 0)).to.equal(10n ** 20n);
    expect(numberToUnscaled(NaN, 2)).to.equal(undefined);
  });
});
