// functions/json.md, the json type and its functions: every documented cast and function example
// with its documented result, plus the stored (canonical) text Trino's JsonTypeUtil gives json_parse
// and JSON literals (keys sorted, fractions as Java's BigDecimal prints them), casts of rows, maps and
// nested values (TestJsonOperators, TestArrayOperators' json cases), and typeof/equality/grouping.

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

documentedExamples('functions/json.md', [
  // Cast to JSON
  ['SELECT CAST(NULL AS JSON)', 'NULL'],
  ['SELECT CAST(1 AS JSON)', '1'],
  ['SELECT CAST(9223372036854775807 AS JSON)', '9223372036854775807'],
  ["SELECT CAST('abc' AS JSON)", '"abc"'],
  ['SELECT CAST(true AS JSON)', 'true'],
  ['SELECT CAST(1.234 AS JSON)', '1.234'],
  ['SELECT CAST(ARRAY[1, 23, 456] AS JSON)', '[1,23,456]'],
  ['SELECT CAST(ARRAY[1, NULL, 456] AS JSON)', '[1,null,456]'],
  ['SELECT CAST(ARRAY[ARRAY[1, 23], ARRAY[456]] AS JSON)', '[[1,23],[456]]'],
  ["SELECT CAST(MAP(ARRAY['k1', 'k2', 'k3'], ARRAY[1, 23, 456]) AS JSON)", '{"k1":1,"k2":23,"k3":456}'],
  ["SELECT CAST(CAST(ROW(123, 'abc', true) AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN)) AS JSON)", '{"v1":123,"v2":"abc","v3":true}'],
  // Cast from JSON
  ["SELECT CAST(JSON 'null' AS VARCHAR)", 'NULL'],
  ["SELECT CAST(JSON '1' AS INTEGER)", '1'],
  ["SELECT CAST(JSON '9223372036854775807' AS BIGINT)", '9223372036854775807'],
  ['SELECT CAST(JSON \'"abc"\' AS VARCHAR)', 'abc'],
  ["SELECT CAST(JSON 'true' AS BOOLEAN)", 'true'],
  ["SELECT CAST(JSON '1.234' AS DOUBLE)", '1.234'],
  ["SELECT CAST(JSON '[1,23,456]' AS ARRAY(INTEGER))", '[1, 23, 456]'],
  ["SELECT CAST(JSON '[1,null,456]' AS ARRAY(INTEGER))", '[1, NULL, 456]'],
  ["SELECT CAST(JSON '[[1,23],[456]]' AS ARRAY(ARRAY(INTEGER)))", '[[1, 23], [456]]'],
  ['SELECT CAST(JSON \'{"k1":1,"k2":23,"k3":456}\' AS MAP(VARCHAR, INTEGER))', '{k1=1, k2=23, k3=456}'],
  ['SELECT CAST(JSON \'{"v1":123,"v2":"abc","v3":true}\' AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN))', '{v1=123, v2=abc, v3=true}'],
  ['SELECT CAST(JSON \'[123,"abc",true]\' AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN))', '{v1=123, v2=abc, v3=true}'],
  ["SELECT CAST(JSON '[[1, 23], 456]' AS ARRAY(JSON))", '[[1,23], 456]'],
  ['SELECT CAST(JSON \'{"k1": [1, 23], "k2": 456}\' AS MAP(VARCHAR, JSON))', '{k1=[1,23], k2=456}'],
  // The element is the json value null, which the CLI prints as its text.
  ["SELECT CAST(JSON '[null]' AS ARRAY(JSON))", '[null]'],
  // Other JSON functions
  ["SELECT is_json_scalar('1')", 'true'],
  ["SELECT is_json_scalar('[1, 2, 3]')", 'false'],
  ["SELECT json_array_contains('[1, 2, 3]', 2)", 'true'],
  ['SELECT json_array_get(\'["a", [3, 9], "c"]\', 0)', 'a'],
  ['SELECT json_array_get(\'["a", [3, 9], "c"]\', 1)', '[3,9]'],
  ['SELECT json_array_get(\'["c", [3, 9], "a"]\', -1)', 'a'],
  ['SELECT json_array_get(\'["c", [3, 9], "a"]\', -2)', '[3,9]'],
  ["SELECT json_array_get('[]', 0)", 'NULL'],
  ['SELECT json_array_get(\'["a", "b", "c"]\', 10)', 'NULL'],
  ['SELECT json_array_get(\'["c", "b", "a"]\', -10)', 'NULL'],
  ["SELECT json_array_length('[1, 2, 3]')", '3'],
  ["SELECT json_extract_scalar('[1, 2, 3]', '$[2]')", '3'],
  ["SELECT json_format(JSON '[1, 2, 3]')", '[1,2,3]'],
  ['SELECT json_format(JSON \'"a"\')', '"a"'],
  ['SELECT json_format(JSON \'{"a": 1, "b": 2}\')', '{"a":1,"b":2}'],
  ['SELECT json_format(JSON \'"abc"\')', '"abc"'],
  ["SELECT json_format(JSON '42')", '42'],
  ["SELECT json_format(JSON 'true')", 'true'],
  ["SELECT json_format(JSON 'null')", 'null'],
  ["SELECT CAST(JSON '42' AS VARCHAR)", '42'],
  ["SELECT CAST(JSON 'true' AS VARCHAR)", 'true'],
  ["SELECT json_parse('[1, 2, 3]')", '[1,2,3]'],
  ['SELECT json_parse(\'"abc"\')', '"abc"'],
  ["SELECT json_parse('42')", '42'],
  ["SELECT json_parse('true')", 'true'],
  ["SELECT json_parse('null')", 'null'],
  ["SELECT CAST('not_json' AS JSON)", '"not_json"'],
  ['SELECT CAST(\'["a": 1, "b": 2]\' AS JSON)', '"[\\"a\\": 1, \\"b\\": 2]"'],
  ["SELECT CAST('[1, 2, 3]' AS JSON)", '"[1, 2, 3]"'],
  ['SELECT CAST(\'"abc"\' AS JSON)', '"\\"abc\\""'],
  ["SELECT CAST('42' AS JSON)", '"42"'],
  ["SELECT CAST('true' AS JSON)", '"true"'],
  ["SELECT CAST('null' AS JSON)", '"null"'],
  ['SELECT json_size(\'{"x": {"a": 1, "b": 2}}\', \'$.x\')', '2'],
  ["SELECT json_size('{\"x\": [1, 2, 3]}', '$.x')", '3'],
  ['SELECT json_size(\'{"x": {"a": 1, "b": 2}}\', \'$.x.a\')', '0'],
] satisfies DocumentedExample[]);

describe('the json type as Trino', () => {
  const engine = new EngineHarness();
  const one = async (sql: string) => (await engine.query(sql)).rows[0][0];

  // TestJsonFunctions / JsonTypeUtil: json_parse stores keys sorted, fractions as BigDecimal text.
  for (const [text, stored] of [
    ['{"b": 1, "a": {"d": [1, 2], "c": null}}', '{"a":{"c":null,"d":[1,2]},"b":1}'],
    ['[1.50, 1e3, -0, 0.0000001, 12e-1, 1E+2]', '[1.50,1E+3,0,1E-7,1.2,1E+2]'],
    ['"\\u0041\\n\\/"', '"A\\n/"'],
    ['  [ ]  ', '[]'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
  ]) {
    it(`json_parse('${text}') is stored as ${stored}`, async () => {
      expect(await one(`SELECT json_parse('${text}')`)).to.equal(stored);
      expect(await one(`SELECT JSON '${text}'`)).to.equal(stored);
    });
  }

  it('typeof is json; = and <> compare the stored text, so key order in the input does not matter', async () => {
    const { rows } = await engine.query(
      `SELECT typeof(JSON '1'), JSON '{"a":1,"b":2}' = json_parse('{"b":2,"a":1}'), JSON '[1]' <> JSON '[2]', JSON '1' IS DISTINCT FROM NULL`,
    );
    expect(rows[0]).to.deep.equal(['json', true, true, true]);
  });

  it('groups and joins on json values (hashing)', async () => {
    const { rows } = await engine.query(
      `SELECT j, count(*) FROM (VALUES JSON '{"a":1}', json_parse('{ "a" : 1 }'), JSON '[1]', CAST(NULL AS json)) t(j) GROUP BY j ORDER BY count(*) DESC, json_format(j)`,
    );
    expect(rows).to.deep.equal([
      ['{"a":1}', 2n],
      ['[1]', 1n],
      [null, 1n],
    ]);
    const joined = await engine.query(
      `SELECT a.k FROM (VALUES (JSON '[1,2]', 1)) a(j, k) JOIN (VALUES (json_parse('[1, 2]'))) b(j) ON a.j = b.j`,
    );
    expect(joined.rows).to.deep.equal([[1]]);
  });

  it('rows become objects named by their fields (anonymous fields as ""), map keys sorted, NULLs as null', async () => {
    const { rows } = await engine.query(
      `SELECT CAST(ROW(1, 'a') AS JSON), CAST(MAP(ARRAY['b', 'a'], ARRAY[1.5e0, NULL]) AS JSON), CAST(ARRAY[CAST(ROW(1, NULL) AS ROW(x integer, y double))] AS JSON)`,
    );
    expect(rows[0]).to.deep.equal(['{"":1,"":"a"}', '{"a":null,"b":1.5}', '[{"x":1,"y":null}]']);
  });

  it('casts numbers, booleans and strings inside json as Trino reads each token', async () => {
    const { rows } = await engine.query(
      `SELECT CAST(JSON '"12"' AS bigint), CAST(JSON '12.6' AS integer), CAST(JSON 'true' AS double), CAST(JSON '1.5' AS varchar), CAST(JSON '12.345' AS decimal(4,2)), CAST(JSON '0' AS boolean), CAST(JSON '"abc"' AS json)`,
    );
    expect(rows[0]).to.deep.equal([12n, 13, 1, '1.5', 1235n, false, '"abc"']);
  });

  it('casts a JSON object to a row by field name, ignoring case and extra members, NULL for missing ones', async () => {
    expect(await one(`SELECT CAST(JSON '{"X": 1, "z": 3}' AS ROW(x integer, y varchar))`)).to.deep.equal([1, null]);
  });

  it('CAST of json to varchar, array, map or row survives TRY_CAST as NULL when it does not fit', async () => {
    const { rows } = await engine.query(
      `SELECT TRY_CAST(JSON '[1]' AS varchar), TRY_CAST(JSON '{"a":1}' AS array(integer)), TRY_CAST(JSON '[1]' AS map(varchar, integer))`,
    );
    expect(rows[0]).to.deep.equal([null, null, null]);
  });

  it('json_extract and json_extract_scalar follow the JSONPath subset: dots, brackets, quoted names, indexes', async () => {
    const doc = `'{"store": {"book": [{"author": "Nigel", "price": 8.95}, {"author": "Evelyn"}], "book name": "x", "n": null}}'`;
    const { rows } =
      await engine.query(`SELECT json_extract(${doc}, '$.store.book[1]'), json_extract(${doc}, '$.store[book][0].price'), json_extract_scalar(${doc}, '$.store.book[0].author'),
      json_extract_scalar(${doc}, '$.store["book name"]'), json_extract_scalar(${doc}, '$.store.book'), json_extract_scalar(${doc}, '$.store.n'), json_extract(${doc}, '$.store.missing'), json_extract(${doc}, '$.store.n')`);
    expect(rows[0]).to.deep.equal(['{"author":"Evelyn"}', '8.95', 'Nigel', 'x', null, null, null, 'null']);
  });

  // Trino's TestJsonExtract: document, path, json_extract, json_extract_scalar (null: SQL NULL).
  const EXTRACTS: ReadonlyArray<readonly [string, string, string | null, string | null]> = [
    ['{}', '$', '{}', null],
    ['{"fuu": {"bar": 1}}', '$.fuu', '{"bar":1}', null],
    ['{"fuu": 1}', '$[fuu]', '1', '1'],
    ['{"fuu": null}', '$.fuu', 'null', null],
    ['{"fuu": 1}', '$.bar', null, null],
    ['{"fuu": ["\\u0001"]}', '$.fuu[0]', '"\\u0001"', '\u0001'],
    ['{"fuu": "\\u001f"}', '$.fuu', '"\\u001F"', '\u001f'],
    ['{"fuu": [0.1, 1, 2]}', '$.fuu[0]', '0.1', '0.1'],
    ['{"fuu": [0, [100, 101], 2]}', '$.fuu[1]', '[100,101]', null],
    ['{"fuu": [0, [100, 101], 2]}', '$.fuu[1][1]', '101', '101'],
    ['{"fuu": [0, {"bar": {"key" : ["value"]}}, 2]}', '$.fuu[1].bar.key[0]', '"value"', 'value'],
    ['"abc"', '$', '"abc"', 'abc'],
    ['[0, 1, 2]', '$.1', '1', '1'],
    ['[0, 1, 2]', '$["1"]', '1', '1'],
    ['{"15day" : 0, "30day" : 1}', '$.30day', '1', '1'],
    ['{"@$fuu": {".b.ar": 1}}', '$["@$fuu"]', '{".b.ar":1}', null],
    ['{":fu:u:": 1, ":b:ar:": "abc"}', '$[":b:ar:"]', '"abc"', 'abc'],
    ['{"foo:42": {":bar63": 7}}', '$.foo:42.:bar63', '7', '7'],
  ];
  for (const [doc, path, json, scalar] of EXTRACTS) {
    it(`json_extract('${doc}', '${path}') = ${json}, json_extract_scalar = ${scalar}`, async () => {
      const { rows } = await engine.query(
        `SELECT json_format(json_extract('${doc}', '${path}')), json_extract_scalar('${doc}', '${path}')`,
      );
      expect(rows[0]).to.deep.equal([json, scalar]);
    });
  }

  it("json_extract and json_array_length read only the first value, as Trino's streaming readers (text after it is not looked at)", async () => {
    const { rows } = await engine.query(
      `SELECT json_extract_scalar('{"a": 1} trailing', '$.a'), json_array_length('[1, 2] [3'), json_extract('[1] x', '$'), json_array_length('[1, 2')`,
    );
    expect(rows[0]).to.deep.equal(['1', 2n, '[1]', null]);
  });

  it('json_array_contains matches by the JSON token type, as Trino', async () => {
    const { rows } = await engine.query(
      `SELECT json_array_contains('[1, 2.0, "3", true]', 2), json_array_contains('[1, 2.0, "3", true]', 2.0e0), json_array_contains('[1, 2.0, "3", true]', '3'), json_array_contains('[1, 2.0, "3", true]', true), json_array_contains('{"a": 1}', 1), json_array_contains('[1', 1)`,
    );
    expect(rows[0]).to.deep.equal([false, true, true, true, null, null]);
  });

  it('SHOW FUNCTIONS lists the json functions with their signatures and descriptions', async () => {
    const { rows } = await engine.query("SHOW FUNCTIONS LIKE 'json_extract%'");
    expect(rows.map((r) => r.slice(0, 4))).to.deep.equal([
      ['json_extract', 'json', 'json, varchar(x)', 'scalar'],
      ['json_extract', 'json', 'varchar(x), varchar(x)', 'scalar'],
      ['json_extract_scalar', 'varchar', 'json, varchar(x)', 'scalar'],
      ['json_extract_scalar', 'varchar(x)', 'varchar(x), varchar(x)', 'scalar'],
    ]);
    const names = new Set((await engine.query("SHOW FUNCTIONS LIKE '%json%'")).rows.map((r) => r[0]));
    expect([...names]).to.deep.equal([
      'is_json_scalar',
      'json_array_contains',
      'json_array_get',
      'json_array_length',
      'json_extract',
      'json_extract_scalar',
      'json_format',
      'json_parse',
      'json_size',
    ]);
  });

  it('the functions take json values as well as varchar text', async () => {
    const { rows } = await engine.query(
      `SELECT json_array_length(JSON '[1, [2, 3]]'), json_extract_scalar(JSON '{"a": "b"}', '$.a'), json_size(JSON '{"a": [1, 2]}', '$.a'), is_json_scalar(JSON '"x"')`,
    );
    expect(rows[0]).to.deep.equal([2n, 'b', 2n, true]);
  });
});

describe('json: documented failures and bad input', () => {
  const engine = new EngineHarness();
  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ["SELECT json_parse('not_json')", "Cannot convert value to JSON: 'not_json'"],
      ['SELECT json_parse(\'["a": 1, "b": 2]\')', 'Cannot convert value to JSON: \'["a": 1, "b": 2]\''],
      ["SELECT json_parse('[1, 2')", "Cannot convert value to JSON: '[1, 2'"],
      ['SELECT json_parse(\'{"a": 1} x\')', 'Cannot convert value to JSON: \'{"a": 1} x\''],
      ["SELECT json_parse('')", "Cannot convert value to JSON: ''"],
      ["SELECT is_json_scalar('[1')", 'Invalid JSON value: [1'],
      ["SELECT json_extract('{}', 'a.b')", "Invalid JSON path: 'a.b'"],
      ["SELECT json_extract_scalar('{}', '$.')", "Invalid JSON path: '$.'"],
      ["SELECT json_size('{}', '$[\"a')", "Invalid JSON path: '$[\"a'"],
      ["SELECT json_extract('{}', '$.bar[2][-1]')", "Invalid JSON path: '$.bar[2][-1]'"],
      ["SELECT json_extract('{}', '')", "Invalid JSON path: ''"],
    ],
    engine,
  );
  failureCases(
    'INVALID_CAST_ARGUMENT',
    [
      ['SELECT CAST(JSON \'{"a": 1, "b": 2}\' AS VARCHAR)', 'Cannot cast \'{"a":1,"b":2}\' to varchar'],
      ["SELECT CAST(JSON '[1, 2, 3]' AS VARCHAR)", "Cannot cast '[1,2,3]' to varchar"],
      ['SELECT CAST(JSON \'{"a": 1}\' AS ARRAY(integer))', 'Cannot cast to array(integer). Expected a json array, but got {\n{"a":1}'],
      [
        "SELECT CAST(JSON '[1, 2]' AS MAP(varchar, integer))",
        'Cannot cast to map(varchar, integer). Expected a json object, but got [\n[1,2]',
      ],
      [
        "SELECT CAST(JSON '[1, 2, 3]' AS ROW(a integer, b integer))",
        'Cannot cast to row("a" integer, "b" integer). Expected json array ending, but got 3\n[1,2,3]',
      ],
    ],
    engine,
  );
  failureCases('TYPE_MISMATCH', [["SELECT JSON '1' < JSON '2'", 'Cannot apply operator: json < json']], engine);
  // TestJsonFunctions.testInvalidJsonParse: a bad literal is INVALID_LITERAL, json_parse's argument INVALID_FUNCTION_ARGUMENT.
  failureCases(
    'INVALID_LITERAL',
    [
      ["SELECT JSON '{'", "'{' is not a valid JSON literal"],
      ["SELECT JSON 'INVALID'", "'INVALID' is not a valid JSON literal"],
    ],
    engine,
  );
  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ['SELECT json_parse(\'"x": 1\')', 'Cannot convert value to JSON: \'"x": 1\''],
      ["SELECT json_parse('{}{')", "Cannot convert value to JSON: '{}{'"],
      ["SELECT json_parse('{}abc')", "Cannot convert value to JSON: '{}abc'"],
    ],
    engine,
  );

  it('a JSON text nested 100,000 levels deep parses, formats, compares and measures without overflowing the stack', async () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const { rows } = await engine.query(
      `SELECT json_array_length(x), json_format(json_parse(x)) = x, is_json_scalar(x), json_format(json_extract(x, '$[0][0][0]')) = substr(x, 4, length(x) - 6) FROM (VALUES '${text}') t(x)`,
    );
    expect(rows[0]).to.deep.equal([1n, true, false, true]);
    const unclosed = await engine.failure(`SELECT json_parse('${'['.repeat(depth)}')`);
    expect(unclosed.errorName).to.equal('INVALID_FUNCTION_ARGUMENT');
  });
});
