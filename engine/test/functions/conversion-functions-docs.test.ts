// functions/conversion.md: the documented examples of format_number and parse_data_size, with the
// documented results, and their edges as Trino's code gives them (HALF_UP rounding of the double,
// powers of 1024, bytes truncated, decimal(38) bounds). format() is not implemented yet.

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

documentedExamples('functions/conversion.md', [
  ['SELECT format_number(123456)', '123K'],
  ['SELECT format_number(1000000)', '1M'],
  ["SELECT parse_data_size('1B')", '1'],
  ["SELECT parse_data_size('1kB')", '1024'],
  ["SELECT parse_data_size('1MB')", '1048576'],
  ["SELECT parse_data_size('2.3MB')", '2411724'],
] satisfies DocumentedExample[]);

describe('format_number and parse_data_size: edges', () => {
  const engine = new EngineHarness();

  it('format_number keeps three significant digits, negative numbers too, and truncates doubles', async () => {
    const { rows } = await engine.query('SELECT format_number(-1500), format_number(999), format_number(12345), format_number(9223372036854775807), format_number(1.9999e4), format_number(0)');
    expect(rows[0]).to.deep.equal(['-1.5K', '999', '12.3K', '9223Q', '20K', '0']);
  });

  it('parse_data_size reads fractions and every unit up to YB as decimal(38)', async () => {
    const { rows, types } = await engine.query("SELECT parse_data_size('.5kB'), parse_data_size('1.5B'), parse_data_size('1YB')");
    expect(types).to.deep.equal(['decimal(38,0)', 'decimal(38,0)', 'decimal(38,0)']);
    expect(rows[0]).to.deep.equal([512n, 1n, 1208925819614629174706176n]);
  });

  failureCases('INVALID_FUNCTION_ARGUMENT', [
    ["SELECT parse_data_size('1 MB')", "Invalid data size: '1 MB'"],
    ["SELECT parse_data_size('MB')", "Invalid data size: 'MB'"],
    ["SELECT parse_data_size('1.2.3B')", "Invalid data size: '1.2.3B'"],
    ["SELECT parse_data_size('1mb')", "Invalid data size: '1mb'"],
  ], engine);

  it('parse_data_size beyond decimal(38) is NUMERIC_VALUE_OUT_OF_RANGE', async () => {
    const error = await engine.failure("SELECT parse_data_size('1000000000000000YB')");
    expect(error.errorName).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
  });
});
