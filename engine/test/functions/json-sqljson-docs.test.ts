// functions/json.md, the SQL/JSON part: JSON_EXISTS, JSON_QUERY and JSON_VALUE on the documented
// `customers` rows with their documented results, JSON_ARRAY and JSON_OBJECT's documented examples,
// and the path language's documented sequences (accessors, filters, item methods, lax and strict
// mode), with the documented failures: a bad path, a missing PASSING value, malformed input.

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

const CUSTOMERS = `(VALUES (101, '{"comment" : "nice", "children" : [10, 13, 16]}'),
  (102, '{"comment" : "problematic", "children" : [8, 11]}'),
  (103, '{"comment" : "knows best", "children" : [2]}')) customers(id, description)`;

documentedExamples('functions/json.md (json_array, json_object)', [
  ["SELECT json_array(true, 12e-1, 'text')", '[true,1.2,"text"]'],
  ["SELECT json_array('[  \"text\"  ] ' FORMAT JSON, X'5B0035005D00' FORMAT JSON ENCODING UTF16)", '[["text"],[5]]'],
  ['SELECT json_array(json_query(\'{"key" : [  "value"  ]}\', \'lax $.key\'))', '[["value"]]'],
  ["SELECT json_array(DATE '2001-01-31')", '["2001-01-31"]'],
  ['SELECT json_array()', '[]'],
  ['SELECT json_array(true, null, 1)', '[true,1]'],
  ['SELECT json_array(true, null, 1 ABSENT ON NULL)', '[true,1]'],
  ['SELECT json_array(true, null, 1 NULL ON NULL)', '[true,null,1]'],
  ['SELECT json_array(true, 1 RETURNING VARCHAR(100))', '[true,1]'],
  ['SELECT json_array(true, 1 RETURNING VARBINARY)', '5b 74 72 75 65 2c 31 5d'],
  ['SELECT json_array(true, 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF8)', '5b 74 72 75 65 2c 31 5d'],
  ['SELECT json_array(true, 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF16)', '5b 00 74 00 72 00 75 00 65 00 2c 00 31 00 5d 00'],
  [
    'SELECT json_array(true, 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF32)',
    '5b 00 00 00 74 00 00 00 72 00 00 00 75 00 00 00 65 00 00 00 2c 00 00 00 31 00 00 00 5d 00 00 00',
  ],
  ["SELECT json_object('key1' : 1, 'key2' : true)", '{"key1":1,"key2":true}'],
  ["SELECT json_object(KEY 'key1' VALUE 1, KEY 'key2' VALUE true)", '{"key1":1,"key2":true}'],
  ["SELECT json_object('key1' VALUE 1, 'key2' VALUE true)", '{"key1":1,"key2":true}'],
  ["SELECT json_object('x' : true, 'y' : 12e-1, 'z' : 'text')", '{"x":true,"y":1.2,"z":"text"}'],
  ["SELECT json_object('x' : '[  \"text\"  ] ' FORMAT JSON, 'y' : X'5B0035005D00' FORMAT JSON ENCODING UTF16)", '{"x":["text"],"y":[5]}'],
  ["SELECT json_object('x' : json_query('{\"key\" : [  \"value\"  ]}', 'lax $.key'))", '{"x":["value"]}'],
  ["SELECT json_object('x' : DATE '2001-01-31')", '{"x":"2001-01-31"}'],
  ['SELECT json_object()', '{}'],
  ["SELECT json_object('x' : null, 'y' : 1)", '{"x":null,"y":1}'],
  ["SELECT json_object('x' : null, 'y' : 1 NULL ON NULL)", '{"x":null,"y":1}'],
  ["SELECT json_object('x' : null, 'y' : 1 ABSENT ON NULL)", '{"y":1}'],
  ["SELECT json_object('x' : 1 RETURNING VARCHAR(100))", '{"x":1}'],
  ["SELECT json_object('x' : 1 RETURNING VARBINARY)", '7b 22 78 22 3a 31 7d'],
  ["SELECT json_object('x' : 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF16)", '7b 00 22 00 78 00 22 00 3a 00 31 00 7d 00'],
] satisfies DocumentedExample[]);

/** The documented `<path>` sequences, given as one JSON array the path unwraps with `$[*]`. */
const SEQUENCE_OF_OBJECTS = `[{"customer" : 100, "region" : "AFRICA"}, {"region" : "ASIA"}, {"customer" : 300, "region" : "AFRICA", "comment" : null}]`;
const SEQUENCE_OF_ARRAYS = `[[0, 1, 2], ["a", "b", "c", "d"], [null, null]]`;
const MIXED = `[[1, "a", null], {"key1" : 1.0, "key2" : true}, -2e3]`;
const NOTES = `{"id" : 1, "notes" : [{"type" : 1, "comment" : "foo"}, {"type" : 2, "comment" : null}], "comment" : ["bar", "baz"]}`;

/** input, path (applied to each item of the documented sequence), documented result as a JSON array (null: the path fails). */
const PATHS: ReadonlyArray<readonly [string, string, string | null]> = [
  [SEQUENCE_OF_OBJECTS, 'lax $[*].customer', '[100,300]'],
  [SEQUENCE_OF_OBJECTS, 'strict $[*].customer', null],
  [SEQUENCE_OF_OBJECTS, 'lax $[*].*', '[100,"AFRICA","ASIA",300,"AFRICA",null]'],
  [NOTES, 'lax $..comment', '[["bar","baz"],"foo",null]'],
  [NOTES, 'strict $..comment', '[["bar","baz"],"foo",null]'],
  [SEQUENCE_OF_ARRAYS, 'lax $[*][last]', '[2,"d",null]'],
  [SEQUENCE_OF_ARRAYS, 'lax $[*][2 to 3]', '[2,"c","d"]'],
  [SEQUENCE_OF_ARRAYS, 'strict $[*][2 to 3]', null],
  [SEQUENCE_OF_ARRAYS, 'lax $[*][1, 0, 0]', '[1,0,0,"b","a","a",null,null,null]'],
  [SEQUENCE_OF_ARRAYS, 'lax $[*][*]', '[0,1,2,"a","b","c","d",null,null]'],
  [SEQUENCE_OF_ARRAYS, 'lax $[*][5 to 3]', '[]'],
  [
    SEQUENCE_OF_OBJECTS,
    'lax $[*]?(@.region != "ASIA")',
    '[{"customer":100,"region":"AFRICA"},{"customer":300,"region":"AFRICA","comment":null}]',
  ],
  [SEQUENCE_OF_OBJECTS, 'lax $[*]?(!exists(@.customer))', '[{"region":"ASIA"}]'],
  ['[-1, 23e4, "5.6"]', 'lax $[*].double()', '[-1.0,230000.0,5.6]'],
  ['[-1.5, -1, 1.3]', 'lax $[*].ceiling()', '[-1.0,-1,2.0]'],
  ['[-1.5, -1, 1.3]', 'lax $[*].floor()', '[-2.0,-1,1.0]'],
  ['[-1.5, -1, 1.3]', 'lax $[*].abs()', '[1.5,1,1.3]'],
  [
    SEQUENCE_OF_OBJECTS,
    'lax $[*].keyvalue()',
    '[{"name":"customer","value":100,"id":0},{"name":"region","value":"AFRICA","id":0},{"name":"region","value":"ASIA","id":1},{"name":"customer","value":300,"id":2},{"name":"region","value":"AFRICA","id":2},{"name":"comment","value":null,"id":2}]',
  ],
  ['[null, 1, "a", true, [], {}]', 'lax $[*].type()', '["null","number","string","boolean","array","object"]'],
  [SEQUENCE_OF_ARRAYS, 'lax $[*].size()', '[3,4,2]'],
  // json.md, "Examples of the lax mode behavior": the sequence is the array's items, unwrapped by `$[*]`.
  [MIXED, 'lax $[*][*]', '[1,"a",null,{"key1":1.0,"key2":true},-2000.0]'],
  [MIXED, 'lax $[*].size()', '[3,1,1]'],
  [MIXED, 'lax $[*].floor()', null],
  [MIXED, 'strict $[*].size()', null],
  // Arithmetic, as SQL: integers divide to integers; a number and a string do not add.
  ['{"price": 7, "tax": 1.5}', 'lax $.price / 2 + $.tax', '[4.5]'],
  ['{"price": 7, "tax": "x"}', 'lax $.price + $.tax', null],
  ['{"price": 7}', 'lax $.price / 0', null],
  // Comparison rules: null == null, null compared to anything else is false, text vs number is unknown.
  ['[null, 1, "1"]', 'lax $[*]?(@ == null)', '[null]'],
  ['[null, 1, "1"]', 'lax $[*]?(@ != null)', '[]'],
  ['[null, 1, "1"]', 'lax $[*]?((@ == 1) is unknown)', '["1"]'],
  ['["alpha", "beta", 3]', 'lax $[*]?(@ starts with "al")', '["alpha"]'],
  ['["Alpha", "beta"]', 'lax $[*]?(@ like_regex "^a" flag "i")', '["Alpha"]'],
];

describe('SQL/JSON as Trino (functions/json.md)', () => {
  const engine = new EngineHarness();
  const rows = async (sql: string) => (await engine.query(sql)).rows;

  it('json_exists: children above ten (lax), the third child above ten (strict, UNKNOWN ON ERROR)', async () => {
    expect(await rows(`SELECT id, json_exists(description, 'lax $.children[*]?(@ > 10)') FROM ${CUSTOMERS} ORDER BY id`)).to.deep.equal([
      [101, true],
      [102, true],
      [103, false],
    ]);
    expect(
      await rows(`SELECT id, json_exists(description, 'strict $.children[2]?(@ > 10)' UNKNOWN ON ERROR) FROM ${CUSTOMERS} ORDER BY id`),
    ).to.deep.equal([
      [101, true],
      [102, null],
      [103, null],
    ]);
  });

  it('json_query: the documented children arrays, wrappers, EMPTY ARRAY ON EMPTY and quotes', async () => {
    expect(await rows(`SELECT id, json_query(description, 'lax $.children') FROM ${CUSTOMERS} ORDER BY id`)).to.deep.equal([
      [101, '[10,13,16]'],
      [102, '[8,11]'],
      [103, '[2]'],
    ]);
    expect(
      await rows(`SELECT id, json_query(description, 'lax $.children[*]' WITH ARRAY WRAPPER) FROM ${CUSTOMERS} ORDER BY id`),
    ).to.deep.equal([
      [101, '[10,13,16]'],
      [102, '[8,11]'],
      [103, '[2]'],
    ]);
    expect(
      await rows(`SELECT id, json_query(description, 'lax $.children[last]' WITH ARRAY WRAPPER) FROM ${CUSTOMERS} ORDER BY id`),
    ).to.deep.equal([
      [101, '[16]'],
      [102, '[11]'],
      [103, '[2]'],
    ]);
    expect(
      await rows(
        `SELECT id, json_query(description, 'strict $.children[*]?(@ > 12)' WITH ARRAY WRAPPER EMPTY ARRAY ON EMPTY) FROM ${CUSTOMERS} ORDER BY id`,
      ),
    ).to.deep.equal([
      [101, '[13,16]'],
      [102, '[]'],
      [103, '[]'],
    ]);
    expect(
      await rows(
        `SELECT id, json_query(description, 'strict $.comment' KEEP QUOTES), json_query(description, 'strict $.comment' OMIT QUOTES) FROM ${CUSTOMERS} ORDER BY id`,
      ),
    ).to.deep.equal([
      [101, '"nice"', 'nice'],
      [102, '"problematic"', 'problematic'],
      [103, '"knows best"', 'knows best'],
    ]);
  });

  it('json_query: an empty result is the ON EMPTY case (NULL by default) even with a wrapper', async () => {
    expect(
      await rows(
        `SELECT json_query('[]', 'lax $[*]' WITH ARRAY WRAPPER), json_query('[]', 'lax $[*]' WITH ARRAY WRAPPER EMPTY OBJECT ON EMPTY)`,
      ),
    ).to.deep.equal([[null, '{}']]);
  });

  it('json_query: several items without a wrapper are an error (NULL ON ERROR by default), CONDITIONAL wraps only scalars', async () => {
    expect(
      await rows(
        `SELECT json_query('[1, 2]', 'lax $[*]'), json_query('[1, 2]', 'lax $[*]' EMPTY OBJECT ON ERROR), json_query('[[1], 2]', 'lax $[0]' WITH CONDITIONAL WRAPPER), json_query('[[1], 2]', 'lax $[1]' WITH CONDITIONAL WRAPPER)`,
      ),
    ).to.deep.equal([[null, '{}', '[1]', '[2]']]);
  });

  it('json_value: RETURNING char(12) and tinyint, DEFAULT ON ERROR (strict) and DEFAULT ON EMPTY (lax)', async () => {
    const charResult = await engine.query(
      `SELECT id, json_value(description, 'lax $.comment' RETURNING char(12)) FROM ${CUSTOMERS} ORDER BY id`,
    );
    expect(charResult.columns[1].type).to.deep.equal({ kind: 'char', length: 12 });
    expect(charResult.rows).to.deep.equal([
      [101, 'nice'],
      [102, 'problematic'],
      [103, 'knows best'],
    ]);
    expect(
      await rows(`SELECT id, json_value(description, 'lax $.children[0]' RETURNING tinyint) FROM ${CUSTOMERS} ORDER BY id`),
    ).to.deep.equal([
      [101, 10],
      [102, 8],
      [103, 2],
    ]);
    expect(
      await rows(`SELECT id, json_value(description, 'strict $.children[2]' DEFAULT 'err' ON ERROR) FROM ${CUSTOMERS} ORDER BY id`),
    ).to.deep.equal([
      [101, '16'],
      [102, 'err'],
      [103, 'err'],
    ]);
    expect(
      await rows(`SELECT id, json_value(description, 'lax $.children[2]' DEFAULT 'missing' ON EMPTY) FROM ${CUSTOMERS} ORDER BY id`),
    ).to.deep.equal([
      [101, '16'],
      [102, 'missing'],
      [103, 'missing'],
    ]);
  });

  it('json_value: an object, several items or a value that does not cast are errors; JSON null is NULL', async () => {
    // 1e3 is a JSON double (Jackson's DoubleNode in Trino), cast to varchar as Trino casts a double: 1.0E3.
    expect(
      await rows(
        `SELECT json_value('{"a": {"b": 1}}', 'lax $.a'), json_value('[1, 2]', 'lax $[*]'), json_value('"x"', 'lax $' RETURNING integer DEFAULT -1 ON ERROR), json_value('null', 'lax $'), json_value('1e3', 'lax $')`,
      ),
    ).to.deep.equal([[null, null, -1, null, '1.0E3']]);
  });

  it('a DEFAULT is evaluated only when its clause applies; a failing ON EMPTY default goes to ON ERROR', async () => {
    expect(
      await rows(`SELECT json_value('{"a": 1}', 'lax $.a' RETURNING integer DEFAULT 1 / 0 ON EMPTY DEFAULT 2 / 0 ON ERROR)`),
    ).to.deep.equal([[1]]);
    expect(await rows(`SELECT json_value('{}', 'lax $.a' RETURNING integer DEFAULT 1 / 0 ON EMPTY DEFAULT -7 ON ERROR)`)).to.deep.equal([
      [-7],
    ]);
    expect(
      await rows(`SELECT json_value(d, 'lax $.a' RETURNING bigint DEFAULT length(d) ON EMPTY) FROM (VALUES '{}', '{"a": 5}') t(d)`),
    ).to.deep.equal([[2n], [5n]]);
  });

  it('PASSING values are named variables; an unquoted name is upper-cased, as SQL identifiers are', async () => {
    expect(
      await rows(
        `SELECT json_exists('{"a": 5}', 'lax $?(@.a > $limit)' PASSING 3 AS "limit"), json_value('{"k": "v"}', 'lax $.keyvalue()?(@.name == $KEYNAME).value' PASSING 'k' AS KeyName), json_query('[1, 2, 3]', 'lax $[*]?(@ >= $LO)' PASSING 2 AS lo WITH ARRAY WRAPPER)`,
      ),
    ).to.deep.equal([[true, 'v', '[2,3]']]);
    expect(await rows(`SELECT json_exists('{"a": [1, 2]}', 'lax $?(@.a == $x)' PASSING '[2]' FORMAT JSON AS "x")`)).to.deep.equal([[true]]);
  });

  for (const [input, path, result] of PATHS) {
    it(`${path} over ${input} -> ${result ?? 'error'}`, async () => {
      const sql = `SELECT json_query('${input}', '${path}' WITH ARRAY WRAPPER EMPTY ARRAY ON EMPTY), json_query('${input}', '${path}' WITH ARRAY WRAPPER EMPTY ARRAY ON EMPTY ERROR ON ERROR)`;
      if (result === null) {
        const error = await engine.failure(sql);
        expect(error.errorName).to.equal('PATH_EVALUATION_ERROR');
        expect(await rows(`SELECT json_query('${input}', '${path}' WITH ARRAY WRAPPER)`)).to.deep.equal([[null]]);
      } else {
        expect(await rows(sql)).to.deep.equal([[result, result]]);
      }
    });
  }

  it('NULL input gives NULL; malformed input is handled by ON ERROR, or fails with JSON_INPUT_CONVERSION_ERROR', async () => {
    expect(
      await rows(
        `SELECT json_exists(NULL, 'lax $'), json_value(CAST(NULL AS varchar), 'lax $'), json_exists('{', 'lax $'), json_exists('{', 'lax $' TRUE ON ERROR), json_query('[1', 'lax $' EMPTY ARRAY ON ERROR)`,
      ),
    ).to.deep.equal([[null, null, false, true, '[]']]);
    const error = await engine.failure(`SELECT json_value('{', 'lax $' ERROR ON ERROR)`);
    expect([error.errorName, error.rawMessage]).to.deep.equal(['JSON_INPUT_CONVERSION_ERROR', 'conversion to JSON failed: ']);
  });

  it('works with GROUP BY, aggregates inside its arguments and a scalar subquery in PASSING', async () => {
    expect(
      await rows(`SELECT json_value(d, 'lax $.a'), count(*) FROM (VALUES '{"a":1}', '{"a":1}', '{"a":2}') t(d) GROUP BY 1 ORDER BY 1`),
    ).to.deep.equal([
      ['1', 2n],
      ['2', 1n],
    ]);
    expect(await rows(`SELECT json_array(count(*), max(d) FORMAT JSON) FROM (VALUES '{"a":1}', '{"a":2}') t(d)`)).to.deep.equal([
      ['[2,{"a":2}]'],
    ]);
    expect(
      await rows(`SELECT json_exists(d, 'lax $?(@.a > $x)' PASSING (SELECT 1) AS "x") FROM (VALUES '{"a":1}', '{"a":2}') t(d)`),
    ).to.deep.equal([[false], [true]]);
  });

  it('reads json values and varbinary input too', async () => {
    expect(
      await rows(
        `SELECT json_value(JSON '{"a": 2}', 'lax $.a' RETURNING bigint), json_exists(X'7B7D', 'lax $'), json_query(to_utf8('[1]') FORMAT JSON, 'lax $[0]')`,
      ),
    ).to.deep.equal([[2n, true, '1']]);
  });

  it('input nested deeper than 1,000 levels is malformed input (as Jackson reads it), not a crashed node', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(
      await rows(`SELECT json_exists(x, 'lax $'), json_query(x, 'lax $[0]' EMPTY OBJECT ON ERROR) FROM (VALUES '${deep}') t(x)`),
    ).to.deep.equal([[false, '{}']]);
    const fits = `${'['.repeat(1000)}7${']'.repeat(1000)}`;
    expect(await rows(`SELECT json_value('${fits}', 'strict $${'[0]'.repeat(1000)}' RETURNING integer)`)).to.deep.equal([[7]]);
  });
});

/** Each statement gives the one value, or fails with [error name, message]. */
function resultCases(cases: ReadonlyArray<readonly [sql: string, expected: unknown]>, engine: EngineHarness): void {
  for (const [sql, expected] of cases) {
    it(`${sql} -> ${JSON.stringify(expected)}`, async () => {
      if (Array.isArray(expected)) {
        const error = await engine.failure(sql);
        expect([error.errorName, error.rawMessage]).to.deep.equal(expected);
      } else {
        expect((await engine.query(sql)).rows).to.deep.equal([[expected]]);
      }
    });
  }
}

const INPUT = `'["a", "b", "c"]'`;

// Trino's TestJsonQueryFunction over INPUT = '["a", "b", "c"]': result, or [error name, message].
const TRINO_QUERY_CASES: ReadonlyArray<readonly [string, string | null | readonly [string, string]]> = [
  ["'lax $'", '["a","b","c"]'],
  ["'strict $'", '["a","b","c"]'],
  ["'strict $[100]'", null],
  ["'strict $[100]' EMPTY ARRAY ON ERROR", '[]'],
  ["'strict $[100]' EMPTY OBJECT ON ERROR", '{}'],
  [
    "'strict $[100]' ERROR ON ERROR",
    ['PATH_EVALUATION_ERROR', 'path evaluation failed: structural error: invalid array subscript: [100, 100] for array of size 3'],
  ],
  ["'lax $[100]'", null],
  ["'lax $[100]' EMPTY ARRAY ON EMPTY", '[]'],
  ["'lax $[100]' ERROR ON EMPTY", ['JSON_OUTPUT_CONVERSION_ERROR', 'conversion from JSON failed: JSON path found no items']],
  ["'lax $[0 to 2]'", null],
  ["'lax $[0 to 2]' EMPTY OBJECT ON ERROR", '{}'],
  ["'lax $[0 to 2]' ERROR ON ERROR", ['JSON_OUTPUT_CONVERSION_ERROR', 'conversion from JSON failed: JSON path found multiple items']],
  ["'lax $[1]'", '"b"'],
  ['\'lax $number + 1\' PASSING 5 AS "number"', '6'],
  ["'lax $array[0]' PASSING '[1, 2, 3]' FORMAT JSON AS \"array\"", '1'],
  ["'lax $array[0]' PASSING '[...' FORMAT JSON AS \"array\"", null],
  ["'strict $.a' ERROR ON ERROR", ['PATH_EVALUATION_ERROR', 'path evaluation failed: invalid item type. Expected: OBJECT, actual: ARRAY']],
];

// Trino's TestJsonValueFunction over INPUT = '["a", "b", "c"]'.
const TRINO_VALUE_CASES: ReadonlyArray<readonly [string, unknown]> = [
  ["'lax $[1]'", 'b'],
  ["'strict $[1]'", 'b'],
  ["'lax $[2 to 100]'", 'c'],
  ["'strict $[100]'", null],
  ["'strict $[100]' DEFAULT 'x' ON ERROR", 'x'],
  [
    "'strict $[100]' ERROR ON ERROR",
    ['PATH_EVALUATION_ERROR', 'path evaluation failed: structural error: invalid array subscript: [100, 100] for array of size 3'],
  ],
  ["'lax $[100]' DEFAULT 'x' ON EMPTY", 'x'],
  ["'lax $[100]' ERROR ON EMPTY", ['JSON_VALUE_RESULT_ERROR', 'cannot extract SQL scalar from JSON: JSON path found no items']],
  ["'lax $[0 to 2]'", null],
  ["'lax $[0 to 2]' DEFAULT 'x' ON ERROR", 'x'],
  ["'lax $[0 to 2]' ERROR ON ERROR", ['JSON_VALUE_RESULT_ERROR', 'cannot extract SQL scalar from JSON: JSON path found multiple items']],
  [
    "'lax $array[0]' PASSING '[...' FORMAT JSON AS \"array\" ERROR ON ERROR",
    ['JSON_INPUT_CONVERSION_ERROR', 'conversion to JSON failed: '],
  ],
  ['\'lax $[$number]\' PASSING 5 AS "number"', null],
  ["'lax $parameter' PASSING INTERVAL '2' DAY AS \"parameter\"", '2 00:00:00.000'],
  ["'lax 1'", '1'],
  ["'lax true'", 'true'],
  ["'lax null'", null],
  ["'lax 1000' RETURNING tinyint", null],
];

describe("SQL/JSON as Trino's TestJsonValueFunction", () => {
  const engine = new EngineHarness();
  resultCases(
    TRINO_VALUE_CASES.map(([rest, expected]) => [`SELECT json_value(${INPUT}, ${rest})`, expected]),
    engine,
  );
  failureCases(
    'TYPE_MISMATCH',
    [
      [
        'SELECT json_value(\'["a", "b", "c"]\' FORMAT JSON ENCODING UTF8, \'lax $[1]\')',
        'Cannot read input of type varchar(15) as JSON using formatting JSON ENCODING UTF8',
      ],
    ],
    engine,
  );
});

describe("SQL/JSON as Trino's TestJsonQueryFunction", () => {
  const engine = new EngineHarness();
  resultCases(
    TRINO_QUERY_CASES.map(([rest, expected]) => [`SELECT json_query(${INPUT}, ${rest})`, expected]),
    engine,
  );
  it('input the declared encoding does not fit is malformed input', async () => {
    const utf32 = Buffer.from('["a", "b", "c"]', 'utf16le').toString('hex');
    expect((await engine.query(`SELECT json_query(X'${utf32}' FORMAT JSON ENCODING UTF16, 'lax $[1]')`)).rows).to.deep.equal([['"b"']]);
    const error = await engine.failure(`SELECT json_query(X'${utf32}' FORMAT JSON ENCODING UTF8, 'lax $[1]' ERROR ON ERROR)`);
    expect([error.errorName, error.rawMessage]).to.deep.equal(['JSON_INPUT_CONVERSION_ERROR', 'conversion to JSON failed: ']);
  });
});

// Trino's TestJsonObjectFunction and TestJsonArrayFunction.
const TRINO_CONSTRUCTOR_CASES: ReadonlyArray<readonly [string, unknown]> = [
  ["json_object('X' : 'Y')", '{"X":"Y"}'],
  // Members come in the order of Trino's java.util.HashMap, not as written.
  ["json_object('key_1' : 1, 'key_2' : 2)", '{"key_2":2,"key_1":1}'],
  ["json_object('a' : 1, 'b' : 2, 'aa' : 3, 'Aa' : 4, 'BB' : 5)", '{"aa":3,"Aa":4,"BB":5,"a":1,"b":2}'],
  [
    'json_object(CAST(null AS varchar) : 1)',
    ['INVALID_FUNCTION_ARGUMENT', 'null value passed for JSON object key to JSON_OBJECT function'],
  ],
  ["json_object('key' : null ABSENT ON NULL)", '{}'],
  ["json_object('key' : 1, 'key' : 2 WITHOUT UNIQUE KEYS)", ['NOT_SUPPORTED', 'cannot construct a JSON object with duplicate key']],
  ["json_object('key' : 1, 'key' : 2)", ['NOT_SUPPORTED', 'cannot construct a JSON object with duplicate key']],
  ["json_object('key' : 1, 'key' : 2 WITH UNIQUE KEYS)", ['INVALID_FUNCTION_ARGUMENT', 'duplicate key passed to JSON_OBJECT function']],
  ["json_object('key' : '[ 1, true, \"a\", null ]' FORMAT JSON)", '{"key":[1,true,"a",null]}'],
  ["json_object('key' : '[...' FORMAT JSON)", ['JSON_INPUT_CONVERSION_ERROR', 'conversion to JSON failed: ']],
  ['json_object(\'key\' : \'{"a" : 1, "a" : 1}\' FORMAT JSON)', '{"key":{"a":1}}'],
  [
    'json_object(\'key\' : \'{"a" : 1, "a" : 1}\' FORMAT JSON WITH UNIQUE KEYS)',
    ['NOT_SUPPORTED', 'WITH UNIQUE KEYS behavior is not supported for JSON_OBJECT function when input expression has FORMAT'],
  ],
  ["json_object('key' : 1e0)", '{"key":1.0}'],
  ["json_object('key' : json_object('a' : 1))", '{"key":{"a":1}}'],
  ["json_object((SELECT 'key') : (SELECT 1))", '{"key":1}'],
  ["json_array(1e0, json_array('a'), CAST(null AS integer) NULL ON NULL)", '[1.0,["a"],null]'],
];

describe("SQL/JSON constructors as Trino's TestJsonObjectFunction and TestJsonArrayFunction", () => {
  resultCases(
    TRINO_CONSTRUCTOR_CASES.map(([call, expected]) => [`SELECT ${call}`, expected]),
    new EngineHarness(),
  );
});

// Trino's TestJsonExistsFunction over INPUT.
describe("SQL/JSON as Trino's TestJsonExistsFunction", () => {
  const engine = new EngineHarness();
  const cases: Array<[string, unknown]> = [
    ["'lax $[1]'", true],
    ["'strict $[1]'", true],
    ["'lax $[100]'", false],
    ["'strict $[100]'", false],
    ["'strict $[100]' TRUE ON ERROR", true],
    ["'strict $[100]' UNKNOWN ON ERROR", null],
    [
      "'strict $[100]' ERROR ON ERROR",
      ['PATH_EVALUATION_ERROR', 'path evaluation failed: structural error: invalid array subscript: [100, 100] for array of size 3'],
    ],
  ];
  resultCases(
    cases.map(([rest, expected]) => [`SELECT json_exists(${INPUT}, ${rest})`, expected]),
    engine,
  );
  resultCases(
    [
      ["SELECT json_exists('[...', 'strict $[1]' UNKNOWN ON ERROR)", null],
      ["SELECT json_exists('[...', 'strict $[1]' ERROR ON ERROR)", ['JSON_INPUT_CONVERSION_ERROR', 'conversion to JSON failed: ']],
    ],
    engine,
  );
  it('an ENCODING on text input is refused at the input', async () => {
    const error = await engine.failure(`SELECT json_exists(${INPUT} FORMAT JSON ENCODING UTF8, 'lax $[1]')`);
    expect([error.errorName, error.message]).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:20: Cannot read input of type varchar(15) as JSON using formatting JSON ENCODING UTF8',
    ]);
  });
});

describe('SQL/JSON: analysis errors', () => {
  const engine = new EngineHarness();
  failureCases(
    'INVALID_PATH',
    [
      ["SELECT json_exists('{}', 'lax $.')", "Invalid JSON path 'lax $.' at position 7: unexpected end of path, expecting a member name"],
      ["SELECT json_exists('{}', '$.a')", "Invalid JSON path '$.a' at position 1: mismatched input '$', expecting 'lax' or 'strict'"],
      [
        "SELECT json_value('{}', 'lax $[1 to]')",
        "Invalid JSON path 'lax $[1 to]' at position 11: mismatched input ']', expecting a path expression",
      ],
      [
        "SELECT json_value('{\"k\": 1}', 'lax $.keyvalue()?(@.name == $KeyName).value' PASSING 'k' AS KeyName)",
        'no value passed for parameter KeyName. Try quoting "KeyName" in the PASSING clause to match case',
      ],
    ],
    engine,
  );
  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [["SELECT json_object('x' : null, 'x' : 1 WITH UNIQUE KEYS)", 'duplicate key passed to JSON_OBJECT function']],
    engine,
  );
  failureCases(
    'NOT_SUPPORTED',
    [['SELECT json_array(ARRAY[1, 2])', 'Unsupported type of value passed to JSON_ARRAY function: array(integer)']],
    engine,
  );
  failureCases(
    'NOT_SUPPORTED',
    [
      ["SELECT json_value('\"2020-01-01\"', 'lax $.datetime()')", 'datetime method in JSON path is not yet supported'],
      ['SELECT json_exists(\'"2020-01-01"\', \'lax $.datetime("yyyy-mm-dd")\')', 'datetime method in JSON path is not yet supported'],
    ],
    engine,
  );

  it("datetime() is refused at the path's literal, as Trino's JsonPathAnalyzer refuses it", async () => {
    const error = await engine.failure("SELECT json_value('\"2020-01-01\"', 'lax $.datetime()')");
    expect(error.message).to.equal('line 1:35: datetime method in JSON path is not yet supported');
  });

  it("a bad path is reported at the call's arguments", async () => {
    const error = await engine.failure("SELECT 1,\n  json_query('{}', 'lax $..')");
    expect(error.location).to.deep.equal({ line: 2, column: 14 });
  });
});
