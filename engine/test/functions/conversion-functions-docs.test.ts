// functions/conversion.md: the documented examples of format_number and parse_data_size, with the
// documented results, and their edges as Trino's code gives them (HALF_UP rounding of the double,
// powers of 1024, bytes truncated, decimal(38) bounds), and format() as java.util.Formatter
// formats the Java values Trino passes it (Long, Double, BigDecimal, String, java.time values).

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

documentedExamples('functions/conversion.md', [
  ["SELECT format('%s%%', 123)", '123%'],
  ["SELECT format('%.5f', pi())", '3.14159'],
  ["SELECT format('%03d', 8)", '008'],
  ["SELECT format('%,.2f', 1234567.89)", '1,234,567.89'],
  ["SELECT format('%-7s,%7s', 'hello', 'world')", 'hello  ,  world'],
  ["SELECT format('%2$s %3$s %1$s', 'a', 'b', 'c')", 'b c a'],
  ["SELECT format('%1$tA, %1$tB %1$te, %1$tY', date '2006-07-04')", 'Tuesday, July 4, 2006'],
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
    const { rows } = await engine.query(
      'SELECT format_number(-1500), format_number(999), format_number(12345), format_number(9223372036854775807), format_number(1.9999e4), format_number(0)',
    );
    expect(rows[0]).to.deep.equal(['-1.5K', '999', '12.3K', '9223Q', '20K', '0']);
  });

  it('parse_data_size reads fractions and every unit up to YB as decimal(38)', async () => {
    const { rows, types } = await engine.query("SELECT parse_data_size('.5kB'), parse_data_size('1.5B'), parse_data_size('1YB')");
    expect(types).to.deep.equal(['decimal(38,0)', 'decimal(38,0)', 'decimal(38,0)']);
    expect(rows[0]).to.deep.equal([512n, 1n, 1208925819614629174706176n]);
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ["SELECT parse_data_size('1 MB')", "Invalid data size: '1 MB'"],
      ["SELECT parse_data_size('MB')", "Invalid data size: 'MB'"],
      ["SELECT parse_data_size('1.2.3B')", "Invalid data size: '1.2.3B'"],
      ["SELECT parse_data_size('1mb')", "Invalid data size: '1mb'"],
    ],
    engine,
  );

  it('parse_data_size beyond decimal(38) is NUMERIC_VALUE_OUT_OF_RANGE', async () => {
    const error = await engine.failure("SELECT parse_data_size('1000000000000000YB')");
    expect(error.errorName).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
  });
});

describe('format() as java.util.Formatter', () => {
  const engine = new EngineHarness();

  it('prints each SQL type as the Java value Trino hands the formatter', async () => {
    const { rows } = await engine.query(
      "SELECT format('%s|%s|%s|%s|%s|%s|%s|%s|%s', 1e10, REAL '0.1', 12.50, 0.0000001, true, NULL, DATE '2024-02-29', TIMESTAMP '2024-01-02 03:04:00', TIME '10:11:12.5')",
    );
    expect(rows[0][0]).to.equal('1.0E10|0.1|12.50|1E-7|true|null|2024-02-29|2024-01-02T03:04|10:11:12.500');
  });

  it('rounds the shortest decimal digits half up, as Java (not the binary value)', async () => {
    const { rows } = await engine.query(
      "SELECT format('%.2f', 1.005e0), format('%.1f', 0.25e0), format('%.0f', 2.5e0), format('%.2f', 1.005), format('%e', 12345.678e0), format('%.3E', 0.00012345e0), format('%g', 0.0001234e0), format('%g', 123456789e0)",
    );
    expect(rows[0]).to.deep.equal(['1.01', '0.3', '3', '1.01', '1.234568e+04', '1.235E-04', '0.000123400', '1.23457e+08']);
  });

  it('flags, widths, indexes and the integral conversions', async () => {
    const { rows } = await engine.query(
      "SELECT format('%+d|% d|%(,d|%08.2f|%-6d|', 5, 5, -1234567, -3.14159e0, 42), format('%x|%X|%o|%#x', 255, -1, 8, 255), format('%s %<s %s', 'a', 'b'), format('%.3s|%S|%b|%B', 'abcdef', 'up', NULL, 'x'), format('%tF %<tT %<tr|%tD', TIMESTAMP '2024-01-02 15:04:05', DATE '2024-07-04')",
    );
    expect(rows[0]).to.deep.equal([
      '+5| 5|(1,234,567)|-0003.14|42    |',
      'ff|FFFFFFFFFFFFFFFF|10|0xff',
      'a a b',
      'abc|UP|false|TRUE',
      '2024-01-02 15:04:05 03:04:05 PM|07/04/24',
    ]);
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ["SELECT format('%d', 1.5)", 'Invalid format string: %d (IllegalFormatConversion: d != java.math.BigDecimal)'],
      ["SELECT format('%f', 1)", 'Invalid format string: %f (IllegalFormatConversion: f != java.lang.Long)'],
      ["SELECT format('%s %s', 1)", "Invalid format string: %s %s (MissingFormatArgument: Format specifier '%s')"],
      ["SELECT format('%q', 1)", "Invalid format string: %q (UnknownFormatConversion: Conversion = 'q')"],
      ["SELECT format('abc %', 1)", "Invalid format string: abc % (UnknownFormatConversion: Conversion = '%')"],
      ["SELECT format('%-d', 1)", 'Invalid format string: %-d (MissingFormatWidth: %-d)'],
      ["SELECT format('%#d', 1)", 'Invalid format string: %#d (FormatFlagsConversionMismatch: Conversion = d, Flags = #)'],
      [
        "SELECT format('%tH', DATE '2020-01-01')",
        'Invalid format string: %tH (UnsupportedTemporalTypeException: Unsupported field: HourOfDay)',
      ],
    ],
    engine,
  );

  it('a NULL format is NULL; an array argument is refused naming its type', async () => {
    expect((await engine.query('SELECT format(CAST(NULL AS varchar), 1)')).rows[0][0]).to.equal(null);
    const error = await engine.failure("SELECT format('%s', ARRAY[1])");
    expect([error.errorName, error.rawMessage]).to.deep.equal(['NOT_SUPPORTED', 'Type not supported for formatting: array(integer)']);
  });
});
