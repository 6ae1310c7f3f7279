// CAST to and from json with the results and error names of Trino's TestJsonOperators: each JSON
// token read as Trino reads it for the target type (integers as longs, fractions as doubles, strings
// through the varchar cast, booleans as 1/0), and SQL values written as Trino's JsonGenerator writes them.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

type Expected = unknown | { error: string };

const CASES: ReadonlyArray<readonly [sql: string, expected: Expected]> = [
  ["CAST(JSON 'null' AS bigint)", null],
  ["CAST(JSON '128' AS bigint)", 128n],
  ["CAST(JSON '12345678901234567890' AS bigint)", { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '128.9' AS bigint)", 129n],
  ["CAST(JSON '1234567890123456789.0' AS bigint)", 1234567890123456768n],
  ["CAST(JSON '12345678901234567890.0' AS bigint)", { error: 'NUMERIC_VALUE_OUT_OF_RANGE' }],
  ["CAST(JSON '1e-324' AS bigint)", 0n],
  ["CAST(JSON '1e309' AS bigint)", { error: 'NUMERIC_VALUE_OUT_OF_RANGE' }],
  ["CAST(JSON 'true' AS bigint)", 1n],
  ['CAST(JSON \'"128"\' AS bigint)', 128n],
  ['CAST(JSON \'"12345678901234567890"\' AS bigint)', { error: 'INVALID_CAST_ARGUMENT' }],
  ['CAST(JSON \'"128.9"\' AS bigint)', { error: 'INVALID_CAST_ARGUMENT' }],
  ['CAST(JSON \'"true"\' AS bigint)', { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON ' 128' AS bigint)", 128n],
  ["CAST(json_extract('{\"x\":999}', '$.x') AS bigint)", 999n],
  ['CAST(JSON \'{ "x" : 123}\' AS bigint)', { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '-9223372036854775808' AS bigint)", -9223372036854775808n],
  ["CAST(JSON '12345678901' AS integer)", { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '12345678901.0' AS integer)", { error: 'NUMERIC_VALUE_OUT_OF_RANGE' }],
  ["CAST(JSON '128.9' AS integer)", 129],
  ["CAST(JSON '123456' AS smallint)", { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '12345678901234567890' AS double)", 1.2345678901234567e19],
  ["CAST(JSON '1e309' AS double)", Infinity],
  ["CAST(JSON '-1e309' AS double)", -Infinity],
  ['CAST(JSON \'"NaN"\' AS double)', NaN],
  ['CAST(JSON \'"-Infinity"\' AS double)', -Infinity],
  ['CAST(JSON \'"true"\' AS double)', { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '-128' AS real)", -128],
  ["CAST(JSON '128.9' AS real)", Math.fround(128.9)],
  ["CAST(JSON '1e39' AS real)", Infinity],
  ["CAST(JSON '128' AS decimal(10,3))", 128000n],
  ["CAST(JSON '123456789012345678901234567890.12345678' AS decimal(38,8))", 12345678901234567890123456789012345678n],
  ["CAST(CAST(DECIMAL '123456789012345678901234567890.12345678' AS json) AS decimal(38,8))", 12345678901234567890123456789012345678n],
  ["CAST(JSON 'true' AS decimal(10,5))", 100000n],
  ["CAST(JSON '1234567890123456' AS decimal(10,3))", { error: 'NUMERIC_VALUE_OUT_OF_RANGE' }],
  ['CAST(JSON \'{ "x" : 123}\' AS decimal(10,3))', { error: 'INVALID_CAST_ARGUMENT' }],
  ['CAST(JSON \'"abc"\' AS decimal(10,3))', { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '0' AS boolean)", false],
  ["CAST(JSON '128' AS boolean)", true],
  ["CAST(JSON '12345678901234567890' AS boolean)", { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '1e-324' AS boolean)", false],
  ["CAST(JSON '1e309' AS boolean)", true],
  ['CAST(JSON \'"True"\' AS boolean)', true],
  ['CAST(JSON \'"128"\' AS boolean)', { error: 'INVALID_CAST_ARGUMENT' }],
  ['CAST(JSON \'""\' AS boolean)', { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '12345678901234567890' AS varchar)", '12345678901234567890'],
  ['CAST(JSON \'"null"\' AS varchar)', 'null'],
  ['CAST(JSON \'""\' AS varchar)', ''],
  ['CAST(128 AS json)', '128'],
  ["CAST(TINYINT '127' AS json)", '127'],
  ['CAST(3.14E0 AS json)', '3.14'],
  ['CAST(nan() AS json)', '"NaN"'],
  ['CAST(-infinity() AS json)', '"-Infinity"'],
  ["CAST(REAL '3.14' AS json)", '3.14'],
  ["CAST(DECIMAL '0.0000001' AS json)", '1E-7'],
  ["CAST(DATE '2001-08-22' AS json)", '"2001-08-22"'],
  ["CAST(TIMESTAMP '1970-01-01 00:00:01.000' AS json)", '"1970-01-01 00:00:01.000"'],
  ["CAST(ARRAY[JSON '[1]', NULL] AS json)", '[[1],null]'],
  ["CAST(JSON '[1, 12345678901]' AS array(integer))", { error: 'INVALID_CAST_ARGUMENT' }],
  ["CAST(JSON '[1, 12345678901.0]' AS array(integer))", { error: 'INVALID_CAST_ARGUMENT' }],
];

describe('json casts as Trino (TestJsonOperators)', () => {
  const engine = new EngineHarness();
  for (const [sql, expected] of CASES) {
    it(`${sql} -> ${expected !== null && typeof expected === 'object' ? (expected as { error: string }).error : String(expected)}`, async () => {
      if (expected !== null && typeof expected === 'object') {
        expect((await engine.failure(`SELECT ${sql}`)).errorName).to.equal((expected as { error: string }).error);
      } else {
        expect((await engine.query(`SELECT ${sql}`)).rows[0][0]).to.deep.equal(expected);
      }
    });
  }

  it('JSON null casts to SQL NULL row by row, not only in constants; TRY_CAST of a value that does not fit is NULL', async () => {
    const { rows } = await engine.query(
      "SELECT CAST(j AS bigint), CAST(j AS double), TRY_CAST(j AS boolean), TRY_CAST(k AS bigint) FROM (VALUES (JSON 'null', JSON '[2]'), (JSON '1', JSON '3')) t(j, k)",
    );
    expect(rows).to.deep.equal([
      [null, null, null, null],
      [1n, 1, true, 3n],
    ]);
  });
});

describe('casts to json that Trino refuses, with its errors', () => {
  const engine = new EngineHarness();
  // JsonUtil.canCastToJson takes no zoned type, time, interval, uuid or varbinary: with no cast
  // operator to json the analyzer refuses the cast (TYPE_MISMATCH). ArrayToJsonCast and MapToJsonCast
  // bind on castable elements (map keys castable to varchar) and refuse the rest when built;
  // RowToJsonCast binds on any row and its JSON writers refuse the first type they do not take.
  const cases: [sql: string, error: string, message: string][] = [
    [
      "CAST(TIMESTAMP '2020-01-01 10:00:00.123 Europe/Paris' AS json)",
      'TYPE_MISMATCH',
      'line 1:8: Cannot cast timestamp(3) with time zone to json',
    ],
    ["CAST(TIME '10:00:00+01:00' AS json)", 'TYPE_MISMATCH', 'line 1:8: Cannot cast time(0) with time zone to json'],
    [
      "CAST(ARRAY[TIMESTAMP '2020-01-01 10:00 UTC'] AS json)",
      'TYPE_MISMATCH',
      'line 1:8: Cannot cast array(timestamp(0) with time zone) to json',
    ],
    ["CAST(MAP(ARRAY['k'], ARRAY[TIME '10:00']) AS json)", 'TYPE_MISMATCH', 'line 1:8: Cannot cast map(varchar(1), time(0)) to json'],
    ["CAST(INTERVAL '1' DAY AS json)", 'TYPE_MISMATCH', 'line 1:8: Cannot cast interval day to second to json'],
    ["CAST(MAP(ARRAY[DATE '2020-01-01'], ARRAY[1]) AS json)", 'INVALID_CAST_ARGUMENT', 'Cannot cast map(date, integer) to JSON'],
    [
      "CAST(MAP(ARRAY[TIMESTAMP '2020-01-01 00:00 UTC'], ARRAY[1]) AS json)",
      'INVALID_CAST_ARGUMENT',
      'Cannot cast map(timestamp(0) with time zone, integer) to JSON',
    ],
    [
      "CAST(ROW(1, TIMESTAMP '2020-01-01 00:00 UTC') AS json)",
      'INVALID_FUNCTION_ARGUMENT',
      'Unsupported type: timestamp(0) with time zone',
    ],
    [
      "CAST(ROW(1, MAP(ARRAY[UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59'], ARRAY[1])) AS json)",
      'INVALID_FUNCTION_ARGUMENT',
      'Unsupported type: uuid',
    ],
  ];
  for (const [sql, error, message] of cases) {
    it(`${sql}: ${error}`, async () => {
      const e = await engine.failure(`SELECT ${sql}`);
      expect([e.errorName, e.message]).to.deep.equal([error, message]);
    });
  }

  it('casts what Trino casts: dates and timestamps without zone, inside containers too', async () => {
    const rows = await engine.rows(
      "SELECT CAST(DATE '2020-01-02' AS json), CAST(TIMESTAMP '2020-01-01 10:00:00.123' AS json), CAST(ROW(DATE '2020-01-02') AS json)",
    );
    expect(rows).to.deep.equal([['"2020-01-02"', '"2020-01-01 10:00:00.123"', '{"":"2020-01-02"}']]);
  });
});
