import { expect } from 'chai';
import { civilToDays } from '../../src/types/datetime.js';
import { formatValueAsText, toJsonValue } from '../../src/types/values.js';
import type { SqlType } from '../../src/types/types.js';

const T = (kind: string, extra: object = {}): SqlType => ({ kind, ...extra }) as SqlType;
const micros = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => Date.UTC(y, mo - 1, d, h, mi, s, ms) * 1000;

describe('JSON output of values', () => {
  it('writes numbers as JSON numbers and non-finite floats as strings', () => {
    expect(toJsonValue(true, T('boolean'))).to.equal(true);
    expect(toJsonValue(-5, T('tinyint'))).to.equal(-5);
    expect(toJsonValue(2147483647, T('integer'))).to.equal(2147483647);
    expect(toJsonValue(9007199254740993n, T('bigint'))).to.equal(9007199254740992);
    expect(toJsonValue(-12n, T('bigint'))).to.equal(-12);
    expect(toJsonValue(1.5, T('double'))).to.equal(1.5);
    expect(toJsonValue(NaN, T('double'))).to.equal('NaN');
    expect(toJsonValue(Infinity, T('double'))).to.equal('Infinity');
    expect(toJsonValue(-Infinity, T('real'))).to.equal('-Infinity');
    expect(toJsonValue(Math.fround(0.1), T('real'))).to.equal(0.1);
    expect(JSON.stringify(toJsonValue(Math.fround(3.4028234663852886e38), T('real')))).to.equal('3.4028235e+38');
  });

  it('writes decimals as strings with exactly scale digits', () => {
    expect(toJsonValue(123450n, T('decimal', { precision: 12, scale: 2 }))).to.equal('1234.50');
    expect(toJsonValue(-5n, T('decimal', { precision: 3, scale: 2 }))).to.equal('-0.05');
    expect(toJsonValue(7n, T('decimal', { precision: 38, scale: 0 }))).to.equal('7');
    expect(toJsonValue(10n ** 37n, T('decimal', { precision: 38, scale: 0 }))).to.equal('1' + '0'.repeat(37));
  });

  it('writes strings, padded chars and base64 varbinary', () => {
    expect(toJsonValue('héllo', T('varchar'))).to.equal('héllo');
    expect(toJsonValue('ab', T('char', { length: 4 }))).to.equal('ab  ');
    expect(toJsonValue(new Uint8Array([0, 1, 2, 250]), T('varbinary'))).to.equal('AAEC+g==');
  });

  it('writes temporal values and intervals as Trino prints them', () => {
    expect(toJsonValue(civilToDays(2024, 2, 29), T('date'))).to.equal('2024-02-29');
    expect(toJsonValue(micros(2001, 8, 22, 3, 4, 5, 321), T('timestamp', { precision: 3 }))).to.equal('2001-08-22 03:04:05.321');
    expect(toJsonValue(micros(2001, 8, 22, 3, 4, 5, 321), T('timestamp', { precision: 0 }))).to.equal('2001-08-22 03:04:05');
    // timestamp(6) holds picoseconds (long-plain-temporal.ts)
    expect(toJsonValue(BigInt(micros(2001, 8, 22, 3, 4, 5, 321) + 456) * 1_000_000n, T('timestamp', { precision: 6 }))).to.equal(
      '2001-08-22 03:04:05.321456',
    );
    expect(toJsonValue((13 * 3600 + 5) * 1e6, T('time', { precision: 3 }))).to.equal('13:00:05.000');
    expect(toJsonValue(14, T('interval year to month'))).to.equal('1-2');
    expect(toJsonValue(93784000, T('interval day to second'))).to.equal('1 02:03:04.000');
  });

  it('writes NULL of every type as null', () => {
    for (const t of ['integer', 'varchar', 'date', 'double', 'unknown']) expect(toJsonValue(null, T(t))).to.equal(null);
  });
});

describe('values as text (CAST to varchar)', () => {
  it('prints doubles as Java does', () => {
    const text = (x: number) => formatValueAsText(x, T('double'));
    expect(text(1e10)).to.equal('1.0E10');
    expect(text(0.1)).to.equal('0.1');
    expect(text(1.5e-5)).to.equal('1.5E-5');
    expect(text(123)).to.equal('123.0');
    expect(text(1234567.5)).to.equal('1234567.5');
    expect(text(1e7)).to.equal('1.0E7');
    expect(text(0.001)).to.equal('0.001');
    expect(text(-2.5e-4)).to.equal('-2.5E-4');
    expect(text(0)).to.equal('0.0');
    expect(text(-0)).to.equal('-0.0');
    expect(text(NaN)).to.equal('NaN');
    expect(text(-Infinity)).to.equal('-Infinity');
    expect(text(1.7976931348623157e308)).to.equal('1.7976931348623157E308');
  });

  it('prints reals with their shortest float digits', () => {
    expect(formatValueAsText(Math.fround(0.1), T('real'))).to.equal('0.1');
    expect(formatValueAsText(Math.fround(1e10), T('real'))).to.equal('1.0E10');
    expect(formatValueAsText(Math.fround(3.14159), T('real'))).to.equal('3.14159');
  });

  it('prints other types', () => {
    expect(formatValueAsText(true, T('boolean'))).to.equal('true');
    expect(formatValueAsText(-42n, T('bigint'))).to.equal('-42');
    expect(formatValueAsText(123450n, T('decimal', { precision: 12, scale: 2 }))).to.equal('1234.50');
    expect(formatValueAsText(civilToDays(1999, 12, 31), T('date'))).to.equal('1999-12-31');
    expect(formatValueAsText('x', T('char', { length: 3 }))).to.equal('x  ');
    expect(formatValueAsText(-14, T('interval year to month'))).to.equal('-1-2');
    expect(formatValueAsText(null, T('integer'))).to.equal('NULL');
  });
});
