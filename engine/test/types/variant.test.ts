// VARIANT as Trino has it. The oracles: the documented examples of language/types.md and
// functions/variant.md, and the assertions of Trino's TestVariantOperators (casts both ways, JSON
// text, subscripts and their errors) and variant.md's equality rules.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { decodeVariant, encodeVariant, variantParts } from '../../src/types/variant/variant-encoding.js';
import { variantFromJson } from '../../src/types/variant/variant-json.js';

const V = (json: string) => `CAST(JSON '${json.replace(/'/g, "''")}' AS VARIANT)`;

describe('VARIANT', () => {
  const h = new EngineHarness();
  const value = async (sql: string) => (await h.rows(`SELECT ${sql}`))[0][0];
  const failure = async (sql: string) => {
    const e = await h.failure(`SELECT ${sql}`);
    return [e.errorName, e.message];
  };

  it('runs the documented examples (types.md, variant.md)', async () => {
    expect(await value(`typeof(CAST(JSON '{"a": 1, "b": [true, null]}' AS VARIANT))`)).to.equal('variant');
    expect(await value(`CAST(CAST(JSON '123' AS VARIANT) AS BIGINT)`)).to.equal(123n);
    expect(await value(`variant_is_null(CAST(JSON 'null' AS VARIANT))`)).to.equal(true);
    expect(await value('variant_is_null(CAST(42 AS VARIANT))')).to.equal(false);
    expect(await value('variant_is_null(NULL)')).to.equal(null);
  });

  it('converts JSON both ways as Trino: numbers as its JSON reader types them, objects by field name', async () => {
    const json = async (text: string) => value(`json_format(CAST(${V(text)} AS JSON))`);
    expect(await json('[1, 2, 3]')).to.equal('[1,2,3]');
    expect(await json('{"a": [1, {"b": true}], "c": null}')).to.equal('{"a":[1,{"b":true}],"c":null}');
    expect(await json('[]')).to.equal('[]');
    expect(await json('{}')).to.equal('{}');
    expect(await json('{"e":2,"é":1,"Ω":3}')).to.equal('{"e":2,"é":1,"Ω":3}');
    expect(await json('{"b": 1, "a": 2}')).to.equal('{"a":2,"b":1}');
    // 1234.50 is read as a double, 12345678901234567890 (beyond a long) as an exact decimal.
    expect(await json('1234.50')).to.equal('1234.5');
    expect(await json('12345678901234567890123456789012345678')).to.equal('12345678901234567890123456789012345678');
    expect(await json('"emoji 😊"')).to.equal('"emoji 😊"');
    // A variant null casts to JSON null, not to SQL NULL.
    expect(await value(`json_format(CAST(${V('null')} AS JSON))`)).to.equal('null');
    expect(await value(`CAST(${V('null')} AS BIGINT)`)).to.equal(null);
  });

  it('casts SQL values to VARIANT as values of their own type, containers element by element', async () => {
    const json = async (sql: string) => value(`json_format(CAST(CAST(${sql} AS VARIANT) AS JSON))`);
    expect(await json('ARRAY[ARRAY[1, 2], NULL, ARRAY[3]]')).to.equal('[[1,2],null,[3]]');
    expect(await json("ARRAY[MAP(ARRAY['a'], ARRAY[1]), NULL]")).to.equal('[{"a":1},null]');
    expect(await json("ARRAY[CAST(ROW(1, 'x') AS ROW(i INTEGER, s VARCHAR)), NULL]")).to.equal('[{"i":1,"s":"x"},null]');
    expect(await json("MAP(ARRAY['k1', 'k2'], ARRAY[ARRAY[1, 2], NULL])")).to.equal('{"k1":[1,2],"k2":null}');
    expect(await json("MAP(ARRAY['banAna', 'appLE', 'chERry'], ARRAY[2, 1, 3])")).to.equal('{"appLE":1,"banAna":2,"chERry":3}');
    expect(await json("ARRAY[REAL '1.5', REAL '2.5', NULL]")).to.equal('[1.5,2.5,null]');
    expect(await json("DECIMAL '1234.50'")).to.equal('1234.50');
    expect(await json("DATE '2024-10-24'")).to.equal('"2024-10-24"');
    expect(await json("TIMESTAMP '2024-10-24 12:34:56.123456'")).to.equal('"2024-10-24 12:34:56.123456"');
    expect(await json("UUID '123e4567-e89b-12d3-a456-426655440000'")).to.equal('"123e4567-e89b-12d3-a456-426655440000"');
    expect(await json("to_utf8('abc')")).to.equal('"YWJj"');
    expect(await failure('CAST(ROW(1, 2) AS VARIANT)')).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Cannot cast ROW with anonymous fields to VARIANT',
    ]);
    expect((await failure('CAST(MAP(ARRAY[1], ARRAY[2]) AS VARIANT)'))[0]).to.equal('TYPE_MISMATCH');
  });

  it("casts VARIANT to SQL types through the held value's type, with Trino's exceptions and errors", async () => {
    expect(await value("CAST(CAST('42' AS VARIANT) AS TINYINT)")).to.equal(42);
    expect(await value('CAST(CAST(true AS VARIANT) AS BIGINT)')).to.equal(1n);
    expect(await value('CAST(CAST(1234.5678e0 AS VARIANT) AS BIGINT)')).to.equal(1235n);
    expect(await value("CAST(CAST(DECIMAL '1234' AS VARIANT) AS BIGINT)")).to.equal(1234n);
    expect(await failure("CAST(CAST(DECIMAL '42.5' AS VARIANT) AS TINYINT)")).to.deep.equal([
      'NUMERIC_VALUE_OUT_OF_RANGE',
      'Out of range for tinyint: 42.5',
    ]);
    expect(await failure("CAST(CAST(DECIMAL '1234.5' AS VARIANT) AS BIGINT)")).to.deep.equal([
      'NUMERIC_VALUE_OUT_OF_RANGE',
      'Out of range for bigint: 1234.5',
    ]);
    expect(await value("CAST(CAST(DECIMAL '0.0000' AS VARIANT) AS BOOLEAN)")).to.equal(false);
    expect(await value("CAST(CAST(DECIMAL '0.0001' AS VARIANT) AS BOOLEAN)")).to.equal(true);
    expect(await value("CAST(CAST(SMALLINT '-3' AS VARIANT) AS BOOLEAN)")).to.equal(true);
    expect(await value("CAST(CAST(DECIMAL '12345678.912345' AS VARIANT) AS DECIMAL(10,2))")).to.equal(1234567891n);
    expect(await value("CAST(CAST('1234.5678' AS VARIANT) AS DECIMAL(10,2))")).to.equal(123457n);
    expect(await value('CAST(CAST(1.5e0 AS VARIANT) AS DECIMAL(10,2))')).to.equal(150n);
    expect(await failure("CAST(CAST('hello' AS VARIANT) AS DECIMAL(10,2))")).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Cannot cast input variant to DECIMAL(10,2)',
    ]);
    expect(await value("CAST(CAST(DECIMAL '1234.50' AS VARIANT) AS VARCHAR)")).to.equal('1234.50');
    expect(await value("CAST(CAST(SMALLINT '-7' AS VARIANT) AS VARCHAR)")).to.equal('-7');
    expect(await value("CAST(CAST(DATE '2024-10-24' AS VARIANT) AS VARCHAR)")).to.equal('2024-10-24');
    expect(await value("CAST(CAST(UUID '123e4567-e89b-12d3-a456-426655440000' AS VARIANT) AS UUID)")).to.equal(
      '123e4567-e89b-12d3-a456-426655440000',
    );
    expect(await failure("CAST(CAST(DATE '2024-10-24' AS VARIANT) AS BIGINT)")).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Unsupported VARIANT primitive type for cast to BIGINT: DATE',
    ]);
  });

  it('casts a VARIANT to arrays, maps and rows when its structure fits', async () => {
    expect(await value(`CAST(${V('[true, 10, 20, 30, 40, 50.0, 60.0, "70"]')} AS ARRAY(INTEGER))`)).to.deep.equal([
      1, 10, 20, 30, 40, 50, 60, 70,
    ]);
    expect(await value(`json_format(CAST(CAST(${V('[1, "two"]')} AS ARRAY(JSON)) AS JSON))`)).to.equal('[1,"two"]');
    expect(await value(`CAST(${V('{"A": 1, "b": "x"}')} AS ROW(a INTEGER, b VARCHAR, c DOUBLE))`)).to.deep.equal([1, 'x', null]);
    const map = (await value(`CAST(${V('{"k": 1, "j": null}')} AS MAP(VARCHAR, INTEGER))`)) as unknown as {
      keys: unknown[];
      values: unknown[];
    };
    expect([map.keys, map.values]).to.deep.equal([
      ['j', 'k'],
      [null, 1],
    ]);
    expect(await failure(`CAST(${V('1')} AS ARRAY(INTEGER))`)).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Expected a variant array, but got PRIMITIVE',
    ]);
    expect(await failure(`CAST(${V('[1]')} AS MAP(VARCHAR, INTEGER))`)).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Expected a variant object, but got ARRAY',
    ]);
  });

  it("subscripts arrays (from 1) and objects (NULL for a missing field), with Trino's errors", async () => {
    const doc = V('[1, "😊", {"a": {"b": [10, 20]}}]');
    expect(await value(`CAST(${doc}[2] AS VARCHAR)`)).to.equal('😊');
    expect(await value(`CAST(${doc}[3]['a']['b'][2] AS INTEGER)`)).to.equal(20);
    expect(await value(`${doc}[3]['missing']`)).to.equal(null);
    expect(await value(`typeof(${doc}[1])`)).to.equal('variant');
    expect(await failure(`${V('[1, 2, 3]')}[0]`)).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'VARIANT array indices start at 1']);
    expect(await failure(`${V('[1, 2, 3]')}[4]`)).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'VARIANT array subscript must be less than or equal to array length: 4 > 3',
    ]);
    expect(await failure(`${V('[1, 2, 3]')}[-4]`)).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'VARIANT array subscript is negative: -4']);
    expect(await failure('CAST(42 AS VARIANT)[1]')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'VARIANT value is int32, not an array']);
    expect(await failure("CAST(42 AS VARIANT)['a']")).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'VARIANT value is int32, not an object']);
  });

  it('compares by value as variant.md says: numbers across kinds, floats only when exact, NaN equal to nothing', async () => {
    const equal = (a: string, b: string) => value(`CAST(${a} AS VARIANT) = CAST(${b} AS VARIANT)`);
    expect(await equal('1', "DECIMAL '1.00'")).to.equal(true);
    expect(await equal("BIGINT '1'", "DECIMAL '1.0'")).to.equal(true);
    expect(await equal('0.5e0', "DECIMAL '0.5'")).to.equal(true);
    expect(await equal('0.1e0', "DECIMAL '0.1'")).to.equal(false);
    expect(await equal('0.0e0', '-0.0e0')).to.equal(true);
    expect(await equal('nan()', 'nan()')).to.equal(false);
    expect(await equal("'1'", '1')).to.equal(false);
    expect(await equal('JSON \'{"a": [1, 2.0]}\'', 'JSON \'{"a": [1.0, 2]}\'')).to.equal(true);
    expect(await equal("TIMESTAMP '2024-10-24 12:34:56.123456'", "TIMESTAMP '2024-10-24 12:34:56.123456000'")).to.equal(true);
    expect(await equal("TIMESTAMP '2024-10-24 12:34:56.123 UTC'", "TIMESTAMP '2024-10-24 14:34:56.123000000 +02:00'")).to.equal(true);
    expect(await equal("TIMESTAMP '2024-10-24 12:34:56.123'", "TIMESTAMP '2024-10-24 12:34:56.123 UTC'")).to.equal(false);
    expect(await value('CAST(1 AS VARIANT) <> CAST(2 AS VARIANT)')).to.equal(true);
    expect(await value('CAST(nan() AS VARIANT) IS DISTINCT FROM CAST(nan() AS VARIANT)')).to.equal(false);
    expect(await failure('CAST(1 AS VARIANT) < CAST(2 AS VARIANT)')).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:27: Cannot apply operator: variant < variant',
    ]);
  });

  it('groups, deduplicates and joins on what a variant means; refuses to order by it', async () => {
    const values =
      "(VALUES (CAST(1 AS VARIANT)), (CAST(DECIMAL '1.0' AS VARIANT)), (CAST(1e0 AS VARIANT)), (CAST('1' AS VARIANT)), (CAST(JSON 'null' AS VARIANT)), (NULL))";
    const groups = await h.rows(`SELECT json_format(CAST(min_by(v, 0) AS JSON)), count(*) FROM ${values} t(v) GROUP BY v`);
    expect(groups.map((r) => r[1]).sort()).to.deep.equal([1n, 1n, 1n, 3n]);
    expect(await value(`count(DISTINCT v) FROM ${values} t(v)`)).to.equal(3n);
    expect(await value(`count(*) FROM ${values} a(v) JOIN (VALUES (CAST(DECIMAL '1.000' AS VARIANT))) b(w) ON a.v = b.w`)).to.equal(3n);
    expect(await value(`cardinality(array_distinct(ARRAY[CAST(1 AS VARIANT), CAST(1.0 AS VARIANT)]))`)).to.equal(1n);
    expect(await failure(`v FROM ${values} t(v) ORDER BY v`)).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:181: variant is not orderable, and therefore cannot be used in ORDER BY',
    ]);
  });

  it('survives a memory table (Arrow Binary pages), variant nulls apart from SQL NULLs', async () => {
    await h.run(
      `CREATE TABLE memory.default.docs AS SELECT k, CAST(json_parse(j) AS VARIANT) AS v FROM (VALUES (1, '{"a":[1,2]}'), (2, 'null'), (3, NULL)) t(k, j)`,
    );
    const rows = await h.rows('SELECT k, json_format(CAST(v AS JSON)), variant_is_null(v) FROM memory.default.docs ORDER BY k');
    expect(rows).to.deep.equal([
      [1, '{"a":[1,2]}', false],
      [2, 'null', true],
      [3, null, null],
    ]);
  });

  it("casts dates, times and timestamps as Trino's VariantOperators (zoned as UTC instants, micros or nanos)", async () => {
    const json = async (sql: string) => value(`json_format(CAST(CAST(${sql} AS VARIANT) AS JSON))`);
    expect(await json("TIME '22:23:24.123456'")).to.equal('"22:23:24.123456"');
    expect(await json("TIME '22:23:24.1234567'")).to.equal('"22:23:24.123456"');
    expect(await json("TIMESTAMP '2024-10-24 12:34:56.123456789'")).to.equal('"2024-10-24 12:34:56.123456789"');
    expect(await json("TIMESTAMP '2024-10-24 12:34:56.789 UTC'")).to.equal('"2024-10-24 12:34:56.789000 UTC"');
    expect(await json("TIMESTAMP '2024-10-24 14:34:56.123456789 +02:00'")).to.equal('"2024-10-24 12:34:56.123456789 UTC"');
    const text = async (sql: string, type: string) => value(`CAST(CAST(CAST(${sql} AS VARIANT) AS ${type}) AS varchar)`);
    expect(await text("TIMESTAMP '2024-10-24 22:23:24.123456123'", 'TIME(9)')).to.equal('22:23:24.123456123');
    expect(await text("TIMESTAMP '2024-10-24 22:23:24.123456123'", 'TIME(6)')).to.equal('22:23:24.123456');
    expect(await text("TIMESTAMP '1969-12-31 23:59:59.999999'", 'TIME(6)')).to.equal('23:59:59.999999');
    expect(await text("TIMESTAMP '2024-10-24 12:34:56.123456789'", 'TIMESTAMP(7)')).to.equal('2024-10-24 12:34:56.1234568');
    expect(await text("TIMESTAMP '2024-10-24 12:34:56.123456'", 'TIMESTAMP(2)')).to.equal('2024-10-24 12:34:56.12');
    expect(await text("DATE '2024-10-24'", 'TIMESTAMP(9)')).to.equal('2024-10-24 00:00:00.000000000');
    expect(await text("TIMESTAMP '2024-10-24 12:34:56.789 UTC'", 'TIMESTAMP(3) WITH TIME ZONE')).to.equal('2024-10-24 12:34:56.789 UTC');
    expect(await text("TIMESTAMP '2024-10-24 12:34:56.123456789 UTC'", 'TIMESTAMP(7) WITH TIME ZONE')).to.equal(
      '2024-10-24 12:34:56.1234568 UTC',
    );
    expect(await text("DATE '2024-10-24'", 'TIMESTAMP(3) WITH TIME ZONE')).to.equal('2024-10-24 00:00:00.000 UTC');
    // Text without a zone is read in UTC, whatever the session's zone.
    expect(await text("'2024-10-24 12:34:56.789'", 'TIMESTAMP(3) WITH TIME ZONE')).to.equal('2024-10-24 12:34:56.789 UTC');
    expect(await text("TIMESTAMP '2024-10-24 23:59:59.5'", 'DATE')).to.equal('2024-10-24');
    expect(await failure("CAST(CAST(TIME '01:00:00' AS VARIANT) AS TIMESTAMP(3))")).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Unsupported VARIANT primitive type for cast to TIMESTAMP(3): TIME_NTZ_MICROS',
    ]);
    expect(await failure("CAST(CAST(TIMESTAMP '2024-10-24 12:34:56 UTC' AS VARIANT) AS BOOLEAN)")).to.deep.equal([
      'INVALID_CAST_ARGUMENT',
      'Unsupported VARIANT primitive type for cast to BOOLEAN: TIMESTAMP_UTC_MICROS',
    ]);
  });

  it('encodes as the Parquet Variant spec lays it out (sorted field-name dictionary, short strings)', () => {
    const bytes = encodeVariant(variantFromJson('{"b": "xy", "a": 1}'));
    const { metadata, value: encoded } = variantParts(bytes);
    // version 1, sorted; two names at offsets 0, 1, 2: "a", "b".
    expect([...metadata]).to.deep.equal([0x11, 2, 0, 1, 2, 0x61, 0x62]);
    // object header, 2 fields, ids 0 (a) and 1 (b), offsets 0, 5, 8; int32 1; short string "xy".
    expect([...encoded]).to.deep.equal([0x02, 2, 0, 1, 0, 5, 8, 0x14, 1, 0, 0, 0, 0x09, 0x78, 0x79]);
    expect(decodeVariant(bytes)).to.deep.equal(variantFromJson('{"a": 1, "b": "xy"}'));
  });
});
