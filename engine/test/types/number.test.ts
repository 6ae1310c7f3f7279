// The NUMBER type (language/types.md): arbitrary-precision decimals with NaN and ±Infinity. The
// oracles are Trino's documented results and the results of Trino's own tests (TestNumberOperators:
// its literal texts are Java's BigDecimal.toString with trailing zeros stripped; Infinity prints as
// +Infinity, as Trino sends and casts it), and DuckDB's exact DECIMAL arithmetic on random values.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { documentedExamples, failureCases, typedCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';

documentedExamples('language/types.md (NUMBER)', [
  ["SELECT NUMBER '3.1415926535897932384626433832795028841971693993751'", '3.1415926535897932384626433832795028841971693993751'],
  ["SELECT NUMBER '12345678901234567890123456789012345678901234567890e30'", '1.234567890123456789012345678901234567890123456789E+79'],
  ["SELECT NUMBER '-Infinity'", '-Infinity'],
  ["SELECT NUMBER 'NaN'", 'NaN'],
  ["SELECT NUMBER 'NaN' = NUMBER 'NaN'", 'false'],
  // The page prints `Infinity`; Trino sends (and casts to varchar) `+Infinity` (SqlNumber, NumberOperators).
  ["SELECT NUMBER 'Infinity'", '+Infinity'],
]);

describe('NUMBER (Trino TestNumberOperators)', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  describe('literals', () => {
    typedCases(
      [
        ["NUMBER '0'", '0', 'number'],
        ["NUMBER '-0'", '0', 'number'],
        ["NUMBER '000.000e3'", '0', 'number'],
        ["NUMBER '1e3'", '1E+3', 'number'],
        ["NUMBER '100.000'", '1E+2', 'number'],
        ["NUMBER '100.000e3'", '1E+5', 'number'],
        ["NUMBER '100.001e3'", '100001', 'number'],
        ["NUMBER '-.1234567890123456'", '-0.1234567890123456', 'number'],
        ["NUMBER '20050910.133100123'", '20050910.133100123', 'number'],
        ["NUMBER '100000000000000000000000000000000000000'", '1E+38', 'number'],
        [
          "NUMBER '3.141592653589793238462643383279502884197169399375105820974944592307'",
          '3.141592653589793238462643383279502884197169399375105820974944592307',
          'number',
        ],
        ["NUMBER '0.0000001'", '1E-7', 'number'],
        ["NUMBER '0.000001'", '0.000001', 'number'],
        ["NUMBER '+Infinity'", '+Infinity', 'number'],
        ["typeof(NUMBER '1')", 'number', 'varchar(6)'],
        // Beyond 200 significant digits Trino rounds HALF_UP (NumberType's MAX_DECIMAL_PRECISION).
        [`NUMBER '1${'0'.repeat(199)}5'`, `1.${'0'.repeat(198)}1E+200`, 'number'],
        [`NUMBER '0.${'9'.repeat(201)}'`, '1', 'number'],
      ],
      engine,
    );
    // A scale beyond Trino's storage (-16384..16383) fails the cast as Trino's does.
    failureCases('INVALID_CAST_ARGUMENT', [["SELECT NUMBER '1e-20000'", "Cannot cast '1e-20000' to NUMBER"]], engine);
    failureCases(
      'NUMERIC_VALUE_OUT_OF_RANGE',
      [["SELECT NUMBER '1e16000' * NUMBER '1e16000'", 'NUMBER value out of range: scale -32000 is outside [-16384, 16383]']],
      engine,
    );
  });

  describe('arithmetic', () => {
    typedCases(
      [
        ["NUMBER '137.7' + NUMBER '17.1'", '154.8', 'number'],
        ["NUMBER '-12345678901234567890' + NUMBER '-12345678901234567890'", '-2.469135780246913578E+19', 'number'],
        ["NUMBER '-99999999999999999999999999999999999999' + NUMBER '99999999999999999999999999999999999999'", '0', 'number'],
        ["NUMBER '.1234567890123456789' - 1234567890123456789", '-1234567890123456788.8765432109876543211', 'number'],
        ["NUMBER '12345678901234567' * 12345678901234567", '152415787532388345526596755677489', 'number'],
        ["DECIMAL '3' * NUMBER '.1234567890'", '0.370370367', 'number'],
        ["NUMBER '1' / NUMBER '3'", '0.333333', 'number'],
        ["NUMBER '1.0' / NUMBER '0.1'", '1E+1', 'number'],
        ["NUMBER '100.00' / NUMBER '-0.30'", '-333.333333', 'number'],
        ["NUMBER '200.00' / NUMBER '0.3'", '666.666667', 'number'],
        ["NUMBER '1' / NUMBER '999999999999999999'", '1E-18', 'number'],
        ["BIGINT '-9' / NUMBER '3.0'", '-3', 'number'],
        ["NUMBER '.1' % NUMBER '.03'", '0.01', 'number'],
        ["NUMBER '-10' % NUMBER '3'", '-1', 'number'],
        ["NUMBER '10' % NUMBER '-3'", '1', 'number'],
        ["-NUMBER '123456789012345678.90123456789012345678'", '-123456789012345678.90123456789012345678', 'number'],
        ["NUMBER '-Infinity' + NUMBER 'Infinity'", 'NaN', 'number'],
        ["NUMBER '+Infinity' - NUMBER '-Infinity'", '+Infinity', 'number'],
        ["NUMBER '-Infinity' * NUMBER '0'", 'NaN', 'number'],
        ["NUMBER '-Infinity' * NUMBER '-1'", '+Infinity', 'number'],
        ["NUMBER '-Infinity' / NUMBER '0'", '-Infinity', 'number'],
        ["NUMBER '1' / NUMBER 'Infinity'", '0', 'number'],
        ["NUMBER 'Infinity' % NUMBER '3'", 'NaN', 'number'],
        ["NUMBER '5' % NUMBER '-Infinity'", '5', 'number'],
        ["NUMBER 'NaN' + NUMBER '1'", 'NaN', 'number'],
        ["-NUMBER '-Infinity'", '+Infinity', 'number'],
      ],
      engine,
    );
    failureCases(
      'DIVISION_BY_ZERO',
      [
        ["SELECT NUMBER '1' / NUMBER '0'", 'Division by zero'],
        ["SELECT NUMBER '1' % NUMBER '0.000'", 'Division by zero'],
      ],
      engine,
    );
  });

  describe('comparison, ordering and grouping', () => {
    typedCases(
      [
        ["NUMBER '37' = NUMBER '00000000037.0000000000000000000000'", 'true', 'boolean'],
        ["NUMBER '-0.000' = NUMBER '0.00000'", 'true', 'boolean'],
        ["NUMBER '-37.000' = NUMBER '37.000'", 'false', 'boolean'],
        ["NUMBER 'NaN' <> NUMBER 'NaN'", 'true', 'boolean'],
        ["NUMBER '+Infinity' = NUMBER 'Infinity'", 'true', 'boolean'],
        ["NUMBER 'NaN' < NUMBER '1'", 'false', 'boolean'],
        ["NUMBER '1' < NUMBER 'NaN'", 'false', 'boolean'],
        ["NUMBER 'NaN' >= NUMBER 'NaN'", 'false', 'boolean'],
        ["NUMBER '-Infinity' < NUMBER '-1e300'", 'true', 'boolean'],
        ["NUMBER '0.1' > NUMBER '0.09999999999999999999999999'", 'true', 'boolean'],
        ["NUMBER '-2' < 1", 'true', 'boolean'],
        ["NUMBER 'NaN' IS DISTINCT FROM NUMBER 'NaN'", 'false', 'boolean'],
        ["NUMBER '7.8' IS DISTINCT FROM NUMBER '00000000000000007.80000000000000000000'", 'false', 'boolean'],
        ["NUMBER '2' BETWEEN 1 AND NUMBER '2.0'", 'true', 'boolean'],
        ["nullif(NUMBER '-2', NUMBER '-2')", 'NULL', 'number'],
        ["coalesce(CAST(NULL AS number), NUMBER '2.1')", '2.1', 'number'],
      ],
      engine,
    );

    it('orders -Infinity, the finite values, +Infinity, then NaN', async () => {
      const sql =
        "SELECT CAST(n AS varchar) FROM (VALUES NUMBER 'NaN', NUMBER '1', NUMBER 'Infinity', NUMBER '-Infinity', NUMBER '-5.5', NUMBER '1e-3', NUMBER '12') t(n) ORDER BY n";
      expect((await engine.rows(sql)).map(([v]) => v)).to.deep.equal(['-Infinity', '-5.5', '0.001', '1', '12', '+Infinity', 'NaN']);
    });

    it('groups NaN with NaN and equal values of different spellings together (DISTINCT, GROUP BY)', async () => {
      expect(
        await engine.rows("SELECT count(*) FROM (SELECT DISTINCT n FROM (VALUES NUMBER 'NaN', NUMBER 'NaN', NUMBER 'NaN') t(n))"),
      ).to.deep.equal([[1n]]);
      expect(await engine.rows("SELECT count(*) FROM (VALUES NUMBER 'NaN', NUMBER 'NaN', NUMBER 'NaN') t(n) GROUP BY n")).to.deep.equal([
        [3n],
      ]);
      expect(
        await engine.rows(
          "SELECT n, count(*) FROM (VALUES NUMBER '1.50', NUMBER '1.5', NUMBER '15e-1', NUMBER '2') t(n) GROUP BY n ORDER BY n",
        ),
      ).to.deep.equal([
        ['1.5', 3n],
        ['2', 1n],
      ]);
    });

    it('joins equal values and never NaN (SQL =)', async () => {
      const sql =
        "SELECT a.n FROM (VALUES NUMBER 'NaN', NUMBER '1.0', NUMBER '2') a(n) JOIN (VALUES NUMBER 'NaN', NUMBER '1', NUMBER '3') b(n) ON a.n = b.n";
      expect(await engine.rows(sql)).to.deep.equal([['1']]);
    });

    it('sum and avg are exact NUMBER addition and division (Trino NumberSumAggregation, NumberAverageAggregation)', async () => {
      const sql = `SELECT g, sum(n), avg(n) FROM (VALUES (1, NUMBER '1'), (1, NUMBER 'Infinity'), (2, NUMBER '1'), (2, NUMBER '2'), (2, NUMBER '0.5'),
        (3, NULL), (4, NUMBER '0.1'), (4, NUMBER '0.2'), (4, NUMBER '-0.3')) t(g, n) GROUP BY g ORDER BY g`;
      expect(await engine.rows(sql)).to.deep.equal([
        [1, '+Infinity', '+Infinity'],
        [2, '3.5', '1.166667'],
        [3, null, null],
        [4, '0', '0'],
      ]);
    });

    it('min and max follow the ordering (10 prints as 1E+1: trailing zeros stripped, as Trino)', async () => {
      expect(await engine.rows("SELECT min(n), max(n) FROM (VALUES NUMBER '10', NUMBER '9.99', NUMBER '-1e2') t(n)")).to.deep.equal([
        ['-1E+2', '1E+1'],
      ]);
    });
  });

  describe('math functions (Trino MathFunctions on NUMBER, Java rounding modes)', () => {
    typedCases(
      [
        ["abs(NUMBER '-1.5')", '1.5', 'number'],
        ["abs(NUMBER '-Infinity')", '+Infinity', 'number'],
        ["ceil(NUMBER '-1.5')", '-1', 'number'],
        ["ceiling(NUMBER '1e-300')", '1', 'number'],
        ["floor(NUMBER '-1.5')", '-2', 'number'],
        ["floor(NUMBER '-1e-300')", '-1', 'number'],
        ["truncate(NUMBER '-1.5')", '-1', 'number'],
        ["round(NUMBER '-2.5')", '-3', 'number'],
        ["round(NUMBER '125', -1)", '1.3E+2', 'number'],
        ["round(NUMBER '1.2345', 2)", '1.23', 'number'],
        ["round(NUMBER '0.4', -2147483647)", '0', 'number'],
        ["round(NUMBER 'NaN')", 'NaN', 'number'],
        ["sign(NUMBER '-Infinity')", '-1', 'number'],
        ["sign(NUMBER '0.000')", '0', 'number'],
        ["mod(NUMBER '7', NUMBER '-3')", '1', 'number'],
        ["is_nan(NUMBER 'NaN')", 'true', 'boolean'],
        ["is_finite(NUMBER '+Infinity')", 'false', 'boolean'],
        ["is_infinite(NUMBER '-Infinity')", 'true', 'boolean'],
        // The other numeric types keep their own overloads.
        ['round(2.5)', '3', 'decimal(2,0)'],
        ['abs(-5)', '5', 'integer'],
      ],
      engine,
    );
  });

  describe('casts', () => {
    typedCases(
      [
        ["CAST(NUMBER '1.5' AS tinyint)", '2', 'tinyint'],
        ["CAST(NUMBER '-2.5' AS tinyint)", '-3', 'tinyint'],
        ["CAST(NUMBER '-128' AS tinyint)", '-128', 'tinyint'],
        ["CAST(NUMBER '32767.4' AS smallint)", '32767', 'smallint'],
        ["CAST(NUMBER '-2147483648' AS integer)", '-2147483648', 'integer'],
        ["CAST(NUMBER '9223372036854775807' AS bigint)", '9223372036854775807', 'bigint'],
        ["CAST(NUMBER '1e3' AS double)", '1000.0', 'double'],
        ["CAST(NUMBER 'NaN' AS double)", 'NaN', 'double'],
        ["CAST(NUMBER '-Infinity' AS real)", '-Infinity', 'real'],
        ["CAST(NUMBER '0.1' AS real)", '0.1', 'real'],
        // Just above the midpoint of the floats 1 and 1 + 2^-23, whose nearest double is that midpoint:
        // rounding through a double would tie to 1.0; the exact value rounds up (Java's floatValue).
        ["CAST(NUMBER '1.000000059604644775390625000001' AS real)", '1.0000001', 'real'],
        ["CAST(NUMBER '1.000000059604644775390625' AS real)", '1.0', 'real'],
        ["CAST(NUMBER '-1.000000059604644775390625000001' AS real)", '-1.0000001', 'real'],
        ["CAST(NUMBER '1.25' AS decimal(5,1))", '1.3', 'decimal(5,1)'],
        ["CAST(NUMBER '-1.25' AS decimal(5,1))", '-1.3', 'decimal(5,1)'],
        ["CAST(NUMBER '123456789e-4' AS varchar)", '12345.6789', 'varchar'],
        ["CAST(NUMBER '123456789e+4' AS varchar)", '1.23456789E+12', 'varchar'],
        ["CAST(NUMBER '1234' AS varchar(4))", '1234', 'varchar(4)'],
        ["CAST(BIGINT '-9223372036854775808' AS number)", '-9223372036854775808', 'number'],
        ["CAST(DECIMAL '12345678901234567890.123456789012345600' AS number)", '12345678901234567890.1234567890123456', 'number'],
        ['CAST(1e-7 AS number)', '1E-7', 'number'],
        ['CAST(0.1e0 AS number)', '0.1', 'number'],
        ['CAST(-infinity() AS number)', '-Infinity', 'number'],
        ["CAST(REAL '0.1' AS number)", '0.1', 'number'],
        ['CAST(true AS number)', '1', 'number'],
        ["CAST(' 12.50 ' AS number)", '12.5', 'number'],
        ["CAST(CHAR '-Infinity' AS number)", '-Infinity', 'number'],
        // bigint, integer and decimal coerce to number implicitly
        ["NUMBER '0.5' + DECIMAL '0.25'", '0.75', 'number'],
      ],
      engine,
    );
    failureCases(
      'INVALID_CAST_ARGUMENT',
      [
        ["SELECT CAST(NUMBER 'NaN' AS tinyint)", "Cannot cast NUMBER 'NaN' to TINYINT"],
        ["SELECT CAST(NUMBER 'NaN' AS decimal(5,1))", "Cannot cast NUMBER 'NaN' to DECIMAL(5, 1)"],
        ["SELECT CAST(NUMBER '1234' AS varchar(3))", 'Value 1234 cannot be represented as varchar(3)'],
        ["SELECT CAST(NUMBER '1e9' AS varchar(3))", 'Value 1E+9 cannot be represented as varchar(3)'],
        ["SELECT CAST('1_000' AS number)", "Cannot cast '1_000' to NUMBER"],
        ["SELECT NUMBER 'abc'", "Cannot cast 'abc' to NUMBER"],
      ],
      engine,
    );
    failureCases(
      'NUMERIC_VALUE_OUT_OF_RANGE',
      [
        ["SELECT CAST(NUMBER '128' AS tinyint)", "Cannot cast NUMBER '128' to TINYINT"],
        ["SELECT CAST(NUMBER '+Infinity' AS tinyint)", "Cannot cast NUMBER '+Infinity' to TINYINT"],
        ["SELECT CAST(NUMBER '2147483648' AS integer)", "Cannot cast NUMBER '2147483648' to INTEGER"],
        ["SELECT CAST(NUMBER '1e300' AS bigint)", "Cannot cast NUMBER '1E+300' to BIGINT"],
        ["SELECT CAST(NUMBER '999.96' AS decimal(4,1))", "Cannot cast NUMBER '999.96' to DECIMAL(4, 1)"],
      ],
      engine,
    );
    // JSON (Trino's JsonOperators): a number as a JSON number, NaN and the infinities as strings; from
    // JSON a number, a string NUMBER reads, or a boolean.
    typedCases(
      [
        ["CAST(NUMBER '1e3' AS json)", '1E+3', 'json'],
        ["CAST(NUMBER 'NaN' AS json)", '"NaN"', 'json'],
        ["CAST(ARRAY[NUMBER '0.5', NULL, NUMBER '-Infinity'] AS json)", '[0.5,null,"-Infinity"]', 'json'],
        ["CAST(JSON '1.50' AS number)", '1.5', 'number'],
        ["CAST(JSON '12345678901234567890123456789.5e-3' AS number)", '12345678901234567890123456.7895', 'number'],
        ['CAST(JSON \'"+Infinity"\' AS number)', '+Infinity', 'number'],
        ["CAST(JSON 'true' AS number)", '1', 'number'],
        ["CAST(JSON 'null' AS number)", 'NULL', 'number'],
      ],
      engine,
    );
    failureCases(
      'INVALID_CAST_ARGUMENT',
      [
        ["SELECT CAST(JSON '[1]' AS number)", "Cannot cast '[1]' to number"],
        ['SELECT CAST(JSON \'"abc"\' AS number)', 'Cannot cast \'"abc"\' to number'],
      ],
      engine,
    );
  });
});

/** A decimal's text (plain or scientific, any trailing zeros) in one plain spelling without trailing zeros. */
function plainDecimal(text: string): string {
  const m = /^(-?)(\d*)\.?(\d*)(?:E([+-]?\d+))?$/i.exec(text) as RegExpExecArray;
  const digits = (m[2] + m[3]).replace(/^0+/, '') || '0';
  const scale = m[3].length - Number(m[4] ?? 0);
  if (digits === '0') return '0';
  const padded = scale <= 0 ? digits + '0'.repeat(-scale) : digits.padStart(scale + 1, '0');
  const point = padded.length - Math.max(scale, 0);
  const fraction = padded.slice(point).replace(/0+$/, '');
  return `${m[1]}${padded.slice(0, point)}${fraction === '' ? '' : `.${fraction}`}`;
}

describe('NUMBER arithmetic equals DuckDB DECIMAL arithmetic on random values', function () {
  this.timeout(60_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;
  const next = seededRandom(26);
  const decimal = () => `${next() < 0.5 ? '-' : ''}${Math.floor(next() * 1e9)}.${String(Math.floor(next() * 1e6)).padStart(6, '0')}`;
  const pairs = Array.from({ length: 200 }, (_, id) => [id, decimal(), decimal()] as const);

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
  });

  after(() => duck.closeSync());

  for (const [operator, name] of [
    ['+', 'sums'],
    ['-', 'differences'],
    ['*', 'products'],
  ] as const) {
    it(`${name} are exact`, async () => {
      const values = pairs.map(([id, a, b]) => `(${id}, '${a}', '${b}')`).join(', ');
      const ours = await engine.rows(
        `SELECT CAST(CAST(a AS number) ${operator} CAST(b AS number) AS varchar) FROM (VALUES ${values}) t(id, a, b) ORDER BY id`,
      );
      const theirs = await duckRows(
        duck,
        `SELECT CAST(CAST(a AS DECIMAL(38, 6)) ${operator} CAST(b AS DECIMAL(38, 6)) AS VARCHAR) FROM (VALUES ${values}) t(id, a, b) ORDER BY id`,
      );
      expect(ours.map(([v]) => plainDecimal(v as string))).to.deep.equal(theirs.map(([v]) => plainDecimal(v as string)));
    });
  }

  it('comparisons agree', async () => {
    const values = pairs.map(([id, a, b]) => `(${id}, '${a}', '${b}')`).join(', ');
    const ours = await engine.rows(
      `SELECT CAST(a AS number) < CAST(b AS number), CAST(a AS number) = CAST(a AS number) FROM (VALUES ${values}) t(id, a, b) ORDER BY id`,
    );
    const theirs = await duckRows(
      duck,
      `SELECT CAST(a AS DECIMAL(38, 6)) < CAST(b AS DECIMAL(38, 6)), true FROM (VALUES ${values}) t(id, a, b) ORDER BY id`,
    );
    expect(ours).to.deep.equal(theirs);
  });
});
