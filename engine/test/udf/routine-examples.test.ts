// The examples of Trino's SQL routine documentation (udf/introduction.md, udf/sql.md, udf/function.md,
// udf/sql/*.md and udf/sql/examples.md) as inline routines, with the results the pages document as
// the oracle. Where a page's result is wrong about Trino (examples.md's `power(3, 3) -- 256`, the
// `3, which is wrong` of power(3, 0)), the expected value is what the routine computes by Trino's
// semantics, and the case says so.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

const FIB = `FUNCTION fib(n bigint)
RETURNS bigint
BEGIN
  DECLARE a, b bigint DEFAULT 1;
  DECLARE c bigint;
  IF n <= 2 THEN
    RETURN 1;
  END IF;
  WHILE n > 2 DO
    SET n = n - 1;
    SET c = a + b;
    SET a = b;
    SET b = c;
  END WHILE;
  RETURN c;
END`;

const SIMPLE_CASE = `FUNCTION simple_case(a bigint)
RETURNS varchar
BEGIN
  CASE a
    WHEN 0 THEN RETURN 'zero';
    WHEN 1 THEN RETURN 'one';
    WHEN 10 THEN RETURN 'ten';
    WHEN 20 THEN RETURN 'twenty';
    ELSE RETURN 'other';
  END CASE;
  RETURN NULL;
END`;

const SEARCH_CASE = `FUNCTION search_case(a bigint, b bigint)
RETURNS varchar
BEGIN
  CASE
    WHEN a = 0 THEN RETURN 'zero';
    WHEN b = 1 THEN RETURN 'one';
    WHEN a = DECIMAL '10.0' THEN RETURN 'ten';
    WHEN b = 20.0E0 THEN RETURN 'twenty';
    ELSE RETURN 'other';
  END CASE;
  RETURN NULL;
END`;

const POWER = `FUNCTION power(n int, p int)
RETURNS int
  BEGIN
    DECLARE r int DEFAULT n;
    top: LOOP
      IF p <= 1 THEN
        LEAVE top;
      END IF;
      SET r = r * n;
      SET p = p - 1;
    END LOOP;
    RETURN r;
  END`;

const DOTS = `FUNCTION dots(input varchar, length integer)
RETURNS varchar
BEGIN
  IF length(input) > length THEN
    RETURN substring(input, 1, length-3) || '...';
  END IF;
  RETURN input;
END, FUNCTION dots(input varchar)
RETURNS varchar
RETURN dots(input, 15)`;

const HRD = `FUNCTION hrd(d integer)
RETURNS VARCHAR
BEGIN
    DECLARE answer varchar default 'About ';
    DECLARE years real;
    DECLARE months real;
    SET years = truncate(d/365);
    IF years > 0 then
        SET answer = answer || format('%1.0f', years) || ' year';
    END IF;
    IF years > 1 THEN
        SET answer = answer || 's';
    END IF;
    SET d = d - cast( years AS integer) * 365 ;
    SET months = truncate(d / 30);
    IF months > 0 and years > 0 THEN
        SET answer = answer || ' and ';
    END IF;
    IF months > 0 THEN
        set answer = answer || format('%1.0f', months) || ' month';
    END IF;
    IF months > 1 THEN
        SET answer = answer || 's';
    END IF;
    IF years < 1 and months < 1 THEN
        SET answer = 'Less than 1 month';
    END IF;
    RETURN answer;
END`;

const FROM_DATE_STRING = `FUNCTION from_date_string(date_string VARCHAR)
RETURNS TIMESTAMP WITH TIME ZONE
BEGIN
  IF date_string like '%-%' THEN -- ISO 8601
    RETURN from_iso8601_timestamp(date_string);
  ELSEIF length(date_string) = 8 THEN -- YYYYmmdd
      RETURN date_parse(date_string, '%Y%m%d');
  ELSEIF length(date_string) = 10 THEN -- YYYYmmddHH
      RETURN date_parse(date_string, '%Y%m%d%H');
  END IF;
  RETURN NULL;
END`;

const FORMAT_DATA_SIZE = `FUNCTION format_data_size(input BIGINT)
RETURNS VARCHAR
  BEGIN
    DECLARE value DOUBLE DEFAULT CAST(input AS DOUBLE);
    DECLARE result BIGINT;
    DECLARE base INT DEFAULT 1024;
    DECLARE unit VARCHAR DEFAULT 'B';
    DECLARE format VARCHAR;
    ${['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'].map((u) => `IF abs(value) >= base THEN SET value = value / base; SET unit = '${u}'; END IF;`).join('\n    ')}
    IF abs(value) < 10 THEN
      SET format = '%.2f';
    ELSEIF abs(value) < 100 THEN
      SET format = '%.1f';
    ELSE
      SET format = '%.0f';
    END IF;
    RETURN format(format, value) || unit;
  END`;

const STRTRUNC = [
  `FUNCTION strtrunc(input VARCHAR) RETURNS VARCHAR RETURN
    CASE WHEN length(input) > 60
    THEN substr(input, 1, 30) || ' ... ' || substr(input, length(input) - 25)
    ELSE input
    END`,
  `FUNCTION strtrunc(input VARCHAR) RETURNS VARCHAR
BEGIN
    CASE WHEN length(input) > 60
    THEN
        RETURN substr(input, 1, 30) || ' ... ' || substr(input, length(input) - 25);
    ELSE
        RETURN input;
    END CASE;
    RETURN input;
END`,
  `FUNCTION strtrunc(input VARCHAR) RETURNS VARCHAR
BEGIN
    IF length(input) > 60 THEN
        RETURN substr(input, 1, 30) || ' ... ' || substr(input, length(input) - 25);
    END IF;
    RETURN input;
END`,
];

/** [routines, call, documented result] */
const EXAMPLES: [string, string, unknown][] = [
  ['FUNCTION doubleup(x integer) RETURNS integer RETURN x * 2', 'doubleup(21)', 42],
  [
    'FUNCTION doubleup(x integer) RETURNS integer RETURN x * 2, FUNCTION doubleupplusone(x integer) RETURNS integer RETURN doubleup(x) + 1',
    'doubleupplusone(21)',
    43,
  ],
  ['FUNCTION abs(x integer) RETURNS integer RETURN x * 2', 'abs(-10)', -20],
  // A routine hides the built-in of its name for calls with its number of arguments only.
  ['FUNCTION abs(x integer, y integer) RETURNS integer RETURN x * y', 'abs(-10) + abs(-10, 3)', -20],
  ['FUNCTION meaning_of_life() RETURNS BIGINT RETURN 42', 'meaning_of_life()', 42n],
  ['FUNCTION answer() RETURNS BIGINT RETURN 42', "'The answer is ' || CAST(answer() as varchar)", 'The answer is 42'],
  ["FUNCTION hello(fullname VARCHAR) RETURNS VARCHAR RETURN 'Hello, ' || fullname || '!'", "hello('Jane Doe')", 'Hello, Jane Doe!'],
  [
    'FUNCTION times_ninety_nine(a bigint) RETURNS bigint BEGIN DECLARE x bigint DEFAULT CAST(99 AS bigint); RETURN x * a; END',
    'times_ninety_nine(CAST(2 as bigint))',
    198n,
  ],
  ...(
    [
      [0, 'zero'],
      [1, 'one'],
      [-1, 'other'],
      [10, 'ten'],
      [11, 'other'],
      [20, 'twenty'],
      [100, 'other'],
    ] as const
  ).map(([a, r]): [string, string, unknown] => [SIMPLE_CASE, `simple_case(${a})`, r]),
  // The page asks "null .. but really??": CASE NULL matches no WHEN (NULL = 0 is not true), so the ELSE answers, as in Trino.
  [SIMPLE_CASE, 'simple_case(null)', 'other'],
  ...(
    [
      [0, 0, 'zero'],
      [1, 1, 'one'],
      [0, 1, 'zero'],
      [10, 1, 'one'],
      [10, 2, 'ten'],
      [10, 20, 'ten'],
      [0, 20, 'zero'],
      [3, 20, 'twenty'],
      [3, 21, 'other'],
    ] as const
  ).map(([a, b, r]): [string, string, unknown] => [SEARCH_CASE, `search_case(${a},${b})`, r]),
  ...(
    [
      [-1, 1],
      [0, 1],
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 5],
      [6, 8],
      [7, 13],
      [8, 21],
    ] as const
  ).map(([n, r]): [string, string, unknown] => [FIB, `fib(${n})`, BigInt(r)]),
  [
    `FUNCTION labels() RETURNS bigint BEGIN DECLARE a, b int DEFAULT 0;
      top: WHILE a < 10 DO SET a = a + 1; IF a < 3 THEN ITERATE top; END IF; SET b = b + 1; IF a > 6 THEN LEAVE top; END IF; END WHILE;
      RETURN b; END`,
    'labels()',
    5n,
  ],
  [POWER, 'power(2, 2)', 4],
  [POWER, 'power(2, 8)', 256],
  // The page says 256: 3 * 3 * 3 is 27.
  [POWER, 'power(3, 3)', 27],
  [POWER, 'power(3, 0)', 3],
  [POWER, 'power(3, -2)', 3],
  [
    `FUNCTION test_repeat_continue() RETURNS bigint BEGIN DECLARE a int DEFAULT 0; DECLARE b int DEFAULT 0;
      top: REPEAT SET a = a + 1; IF a <= 3 THEN ITERATE top; END IF; SET b = b + 1; UNTIL a >= 10 END REPEAT; RETURN b; END`,
    'test_repeat_continue()',
    7n,
  ],
  [
    'FUNCTION test() RETURNS int BEGIN DECLARE r int DEFAULT 0; abc: LOOP SET r = r + 1; LEAVE abc; END LOOP; abc: LOOP SET r = r + 1; LEAVE abc; END LOOP; RETURN r; END',
    'test()',
    2,
  ],
  [
    `FUNCTION test() RETURNS bigint BEGIN DECLARE r bigint DEFAULT 0;
      BEGIN DECLARE x varchar DEFAULT 'hello'; SET r = r + length(x); END;
      BEGIN DECLARE x array(int) DEFAULT array[1, 2, 3]; SET r = r + cardinality(x); END;
      RETURN r; END`,
    'test()',
    8n,
  ],
  [DOTS, "dots('A long string that will be shortened',15)", 'A long strin...'],
  [DOTS, "dots('A short string',15)", 'A short string'],
  [DOTS, "dots('A long string that will be shortened')", 'A long strin...'],
  [DOTS, "dots('A long string that will be shortened',20)", 'A long string tha...'],
  ...(
    [
      [10, 'Less than 1 month'],
      [95, 'About 3 months'],
      [400, 'About 1 year and 1 month'],
      [369, 'About 1 year'],
      [800, 'About 2 years and 2 months'],
      [1100, 'About 3 years'],
      [5000, 'About 13 years and 8 months'],
    ] as const
  ).map(([d, r]): [string, string, unknown] => [HRD, `hrd(${d})`, r]),
  ...(
    [
      ['2023-01-01', '2023-01-01 00:00:00.000 UTC'],
      ['2023-01-01T23', '2023-01-01 23:00:00.000 UTC'],
      ['2023-01-01T23:23:23', '2023-01-01 23:23:23.000 UTC'],
      ['20230101', '2023-01-01 00:00:00.000 UTC'],
      ['2023010123', '2023-01-01 23:00:00.000 UTC'],
    ] as const
  ).map(([s, r]): [string, string, unknown] => [FROM_DATE_STRING, `CAST(from_date_string('${s}') AS varchar)`, r]),
  [FROM_DATE_STRING, 'from_date_string(NULL)', null],
  [FROM_DATE_STRING, "from_date_string('abc')", null],
  // udf/sql/begin.md, set.md, loop.md, repeat.md, sql.md
  [
    'FUNCTION meaning_of_life() RETURNS integer BEGIN DECLARE a integer DEFAULT 6; DECLARE b integer DEFAULT 7; RETURN a * b; END',
    'meaning_of_life()',
    42,
  ],
  [
    'FUNCTION one() RETURNS int BEGIN DECLARE counter int DEFAULT 1; SET counter = 0; SET counter = counter + 2; SET counter = counter / counter; RETURN counter; END',
    'one()',
    1,
  ],
  ...(
    [
      [90, 1, 10],
      [0, 5, 20],
      [12, 3, 30],
    ] as const
  ).map(([s, step, r]): [string, string, unknown] => [
    `FUNCTION to_one_hundred(start_value int, step int) RETURNS int BEGIN DECLARE count int DEFAULT 0; DECLARE current int DEFAULT 0; SET current = start_value;
      abc: LOOP IF current >= 100 THEN LEAVE abc; END IF; SET count = count + 1; SET current = current + step; END LOOP; RETURN count; END`,
    `to_one_hundred(${s}, ${step})`,
    r,
  ]),
  ...(
    [
      [5, 10],
      [9, 10],
      [10, 11],
      [11, 12],
      [12, 13],
    ] as const
  ).map(([a, r]): [string, string, unknown] => [
    'FUNCTION test_repeat(a bigint) RETURNS bigint BEGIN REPEAT SET a = a + 1; UNTIL a >= 10 END REPEAT; RETURN a; END',
    `test_repeat(${a})`,
    BigInt(r),
  ]),
  ...['clamp(7, 0, 5)', 'clamp(value => 7, lo => 0, hi => 5)', 'clamp(7, hi => 5, lo => 0)'].map((call): [string, string, unknown] => [
    'FUNCTION clamp(value bigint, lo bigint, hi bigint) RETURNS bigint RETURN CASE WHEN value < lo THEN lo WHEN value > hi THEN hi ELSE value END',
    call,
    5n,
  ]),
  [
    "FUNCTION vertical_bar(value DOUBLE) RETURNS VARCHAR RETURN ARRAY[' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'][cast(value * 8 + 1 as int)]",
    'vertical_bar(0.5)',
    '▄',
  ],
];

describe('SQL routines: the documented examples (WITH FUNCTION)', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  for (const [routines, call, expected] of EXAMPLES) {
    it(`${call} with ${routines.slice(9, routines.indexOf('('))}`, async () => {
      const { rows } = await engine.query(`WITH ${routines} SELECT ${call}`);
      expect(rows).to.deep.equal([[expected]]);
    });
  }

  it('select.md: two routines in one WITH, concatenated', async () => {
    const { rows } = await engine.query(`WITH
      FUNCTION hello(name varchar) RETURNS varchar RETURN format('Hello %s!', name),
      FUNCTION bye(name varchar) RETURNS varchar RETURN format('Bye %s!', name)
      SELECT hello('Finn') || ' and ' || bye('Joe')`);
    expect(rows).to.deep.equal([['Hello Finn! and Bye Joe!']]);
  });

  it('examples.md: strtrunc, all three variants, over strings of 40 to 80 characters', async () => {
    const text = 'strtrunc truncates strings longer than 60 characters,\n     leaving the prefix and suffix visible';
    const documented = [
      'strtrunc truncates strings longer than 6',
      'strtrunc truncates strings longer than 60 cha',
      'strtrunc truncates strings longer than 60 characte',
      'strtrunc truncates strings longer than 60 characters, l',
      'strtrunc truncates strings longer than 60 characters, leavin',
      'strtrunc truncates strings lon ... 60 characters, leaving the',
      'strtrunc truncates strings lon ... aracters, leaving the pref',
      'strtrunc truncates strings lon ... ers, leaving the prefix an',
      'strtrunc truncates strings lon ... leaving the prefix and suf',
    ];
    for (const strtrunc of STRTRUNC) {
      // The page generates the lengths with table(sequence(...)); UNNEST of sequence gives the same rows.
      const { rows } = await engine.query(`WITH ${strtrunc}
        SELECT strtrunc(substring('${text.replace(/\n\s*/, ' ')}', 1, num)) FROM UNNEST(sequence(40, 80, 5)) AS s(num) ORDER BY num`);
      expect(rows.map((r) => r[0])).to.deep.equal(documented);
    }
  });

  it('examples.md: format_data_size over powers of ten', async () => {
    const { rows } = await engine.query(`WITH ${FORMAT_DATA_SIZE}
      SELECT format_data_size(num) FROM (SELECT CAST(pow(10, p) AS BIGINT) AS num FROM UNNEST(sequence(1, 18)) AS s(p)
        UNION ALL SELECT -CAST(pow(10, p) AS BIGINT) FROM UNNEST(sequence(1, 18)) AS s(p) UNION ALL SELECT 0) ORDER BY num`);
    const positive = [
      '10.0B',
      '100B',
      '1000B',
      '9.77kB',
      '97.7kB',
      '977kB',
      '9.54MB',
      '95.4MB',
      '954MB',
      '9.31GB',
      '93.1GB',
      '931GB',
      '9.09TB',
      '90.9TB',
      '909TB',
      '8.88PB',
      '88.8PB',
      '888PB',
    ];
    expect(rows.map((r) => r[0])).to.deep.equal([...positive.map((p) => `-${p}`).reverse(), '0.00B', ...positive]);
  });
});
