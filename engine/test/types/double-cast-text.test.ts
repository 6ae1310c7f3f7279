// CAST of double and real to varchar gives Trino's text (its DecimalFormat in scientific form), not
// the display form: the expectations are Trino's own (TestDoubleOperators, TestRealOperators).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('CAST(double | real AS varchar) as Trino casts them', () => {
  const harness = new EngineHarness();
  const cast = async (expression: string) => (await harness.rows(`SELECT ${expression}`))[0][0];

  const cases: [string, string][] = [
    ['CAST(37.7E0 AS varchar)', '3.77E1'],
    ['CAST(17.1E0 AS varchar)', '1.71E1'],
    ['CAST(0E0 / 0E0 AS varchar)', 'NaN'],
    ['CAST(12e2 AS varchar(6))', '1.2E3'],
    ['CAST(12e2 AS varchar(50))', '1.2E3'],
    ['CAST(12345678.9e0 AS varchar(50))', '1.23456789E7'],
    ["CAST(DOUBLE 'NaN' AS varchar(3))", 'NaN'],
    ["CAST(DOUBLE 'Infinity' AS varchar(50))", 'Infinity'],
    ['CAST(12e2 AS varchar(5))', '1.2E3'],
    ["CAST(REAL '12e2' AS varchar(6))", '1.2E3'],
    ["CAST(REAL '12345678.9e0' AS varchar(50))", '1.234568E7'],
    ["CAST(REAL 'NaN' AS varchar(3))", 'NaN'],
    ["CAST(REAL 'Infinity' AS varchar(50))", 'Infinity'],
    ['CAST(0e0 AS varchar)', '0E0'],
    ['CAST(-0e0 AS varchar)', '-0E0'],
    ['CAST(1e-10 AS varchar)', '1.0E-10'],
    ['CAST(-2.5e0 AS varchar)', '-2.5E0'],
  ];
  for (const [expression, expected] of cases) {
    it(`${expression} = '${expected}'`, async () => {
      expect(await cast(expression)).to.equal(expected);
    });
  }

  it('rounds a real to 7 significant digits, half-even on the binary value', async () => {
    // Float.toString(0.1f) is 0.1. The digits 1.2345675 read back as a double just above them (up),
    // 1.2345015 as one just below them (down, where rounding the digits half-up would give 1.234502).
    expect(await cast("CAST(REAL '0.1' AS varchar)")).to.equal('1.0E-1');
    expect(await cast("CAST(REAL '1.2345675' AS varchar)")).to.equal('1.234568E0');
    expect(await cast("CAST(REAL '1.2345015' AS varchar)")).to.equal('1.234501E0');
    expect(await cast("CAST(REAL '9.9999999' AS varchar)")).to.equal('1.0E1');
  });

  const failures: [string, string][] = [
    ['CAST(12e2 AS varchar(4))', 'Value 1200.0 (1.2E3) cannot be represented as varchar(4)'],
    ['CAST(0e0 AS varchar(2))', 'Value 0.0 (0E0) cannot be represented as varchar(2)'],
    ['CAST(-0e0 AS varchar(3))', 'Value -0.0 (-0E0) cannot be represented as varchar(3)'],
    ['CAST(0e0 / 0e0 AS varchar(2))', 'Value NaN (NaN) cannot be represented as varchar(2)'],
    ["CAST(DOUBLE 'Infinity' AS varchar(7))", 'Value Infinity (Infinity) cannot be represented as varchar(7)'],
    ["CAST(REAL '12e2' AS varchar(4))", 'Value 1200.0 (1.2E3) cannot be represented as varchar(4)'],
  ];
  for (const [expression, message] of failures) {
    it(`${expression} fails: ${message}`, async () => {
      const error = await harness.failure(`SELECT ${expression}`);
      expect(error.errorName).to.equal('INVALID_CAST_ARGUMENT');
      expect(error.rawMessage).to.equal(message);
    });
  }
});
