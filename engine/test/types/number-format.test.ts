// Doubles and reals as Java's Double.toString and Float.toString print them (Trino's CLI, JSON output
// and CAST to varchar). The expected texts were printed by OpenJDK 25's Double.toString and
// Float.toString for the same values, not by this code.

import { expect } from 'chai';
import { formatDoubleAsText, formatRealAsText, realToShortestNumber } from '../../src/types/number-format.js';

/** The float with these IEEE 754 bits. */
function floatBits(bits: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, bits);
  return view.getFloat32(0);
}

describe("Java's Double.toString and Float.toString", () => {
  it('prints doubles as Java does', () => {
    const cases: Array<[number, string]> = [
      [1, '1.0'],
      [1e10, '1.0E10'],
      [1e-5, '1.0E-5'],
      [0.001, '0.001'],
      [0.000999, '9.99E-4'],
      [1e7, '1.0E7'],
      [9999999, '9999999.0'],
      [123.456, '123.456'],
      [-0, '-0.0'],
      [0.1 + 0.2, '0.30000000000000004'],
      [1e21, '1.0E21'],
      [100, '100.0'],
      [2e23, '2.0E23'],
      [-1.5e-7, '-1.5E-7'],
      [Number.MAX_VALUE, '1.7976931348623157E308'],
      [2 ** -1022, '2.2250738585072014E-308'],
      [NaN, 'NaN'],
      [-Infinity, '-Infinity'],
    ];
    for (const [x, text] of cases) expect(formatDoubleAsText(x), String(x)).to.equal(text);
  });

  it('lets a closer two-digit decimal win over the one digit that suffices, as Java does for subnormals', () => {
    // JavaScript prints these 5e-324, 1e-323 and 2.5e-323; before the fix so did we.
    expect(formatDoubleAsText(Number.MIN_VALUE)).to.equal('4.9E-324');
    expect(formatDoubleAsText(2 * Number.MIN_VALUE)).to.equal('9.9E-324');
    expect(formatDoubleAsText(5 * Number.MIN_VALUE)).to.equal('2.5E-323');
  });

  it('prints reals with the shortest float digits, the even one at a tie, as Java does', () => {
    const cases: Array<[number, string]> = [
      [0x3dcccccd, '0.1'],
      [0x501502f9, '1.0E10'],
      [0x7f7fffff, '3.4028235E38'],
      [0x4b800000, '1.6777216E7'],
      [0x40490fd0, '3.14159'],
      [0x38d1b717, '1.0E-4'],
      [0x3eaaaaab, '0.33333334'],
      // Exactly halfway between two 8-digit decimals that both round to the float: Java takes the even digit.
      [0x4a000001, '2097152.2'],
      [0xca234bfd, '-2675455.2'],
      [0x48e67dc4, '472046.12'],
      // Subnormals: a closer two-digit decimal wins over the one digit that suffices.
      [0x00000001, '1.4E-45'],
      [0x00000003, '4.2E-45'],
      [0x00000004, '5.6E-45'],
    ];
    for (const [bits, text] of cases) expect(formatRealAsText(floatBits(bits)), bits.toString(16)).to.equal(text);
  });

  it("sends a real as the number of Java's digits", () => {
    expect(realToShortestNumber(floatBits(0x4a000001))).to.equal(2097152.2);
    expect(realToShortestNumber(floatBits(0x3dcccccd))).to.equal(0.1);
    expect(realToShortestNumber(-floatBits(0x00000001))).to.equal(-1.4e-45);
  });
});
