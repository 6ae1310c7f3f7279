// functions/json.md, json_table: the documented queries with their documented rows, the default plan
// (parent OUTER child, siblings UNION) and explicit PLAN / PLAN DEFAULT clauses, ordinality, query
// columns, lateral references to a table on the left, ON ERROR, and analysis errors.

import { expect } from 'chai';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('JSON_TABLE as Trino (functions/json.md)', () => {
  const engine = new EngineHarness();
  const rows = async (sql: string) => (await engine.query(sql)).rows;

  it('extracts the documented regions as rows of three columns (NESTED PATH under a strict root)', async () => {
    const { rows: result, columns } = await engine.query(`SELECT * FROM json_table(
        '[{"id":1,"name":"Africa","wikiDataId":"Q15"}, {"id":2,"name":"Americas","wikiDataId":"Q828"},
          {"id":3,"name":"Asia","wikiDataId":"Q48"}, {"id":4,"name":"Europe","wikiDataId":"Q51"}]',
        'strict $' COLUMNS (NESTED PATH 'strict $[*]' COLUMNS (
          id integer PATH 'strict $.id', name varchar PATH 'strict $.name', wiki_data_id varchar PATH 'strict $."wikiDataId"')))`);
    expect(columns.map((c) => c.name)).to.deep.equal(['id', 'name', 'wiki_data_id']);
    expect(result).to.deep.equal([
      [1, 'Africa', 'Q15'],
      [2, 'Americas', 'Q828'],
      [3, 'Asia', 'Q48'],
      [4, 'Europe', 'Q51'],
    ]);
  });

  it('flattens the documented continents and countries, continent values repeated per country', async () => {
    expect(
      await rows(`SELECT * FROM json_table(
        '[{"continent": "Asia", "countries": [{"name": "Japan", "population": 125.7}, {"name": "Thailand", "population": 71.6}]},
          {"continent": "Europe", "countries": [{"name": "France", "population": 67.4}, {"name": "Germany", "population": 83.2}]}]',
        'lax $' COLUMNS (NESTED PATH 'lax $[*]' COLUMNS (continent varchar PATH 'lax $.continent',
          NESTED PATH 'lax $.countries[*]' COLUMNS (country varchar PATH 'lax $.name', population double PATH 'lax $.population'))))`),
    ).to.deep.equal([
      ['Asia', 'Japan', 125.7],
      ['Asia', 'Thailand', 71.6],
      ['Europe', 'France', 67.4],
      ['Europe', 'Germany', 83.2],
    ]);
  });

  const planQuery = (plan: string) => `SELECT * FROM JSON_TABLE('[]', 'lax $' AS "root_path" COLUMNS(a varchar(1) PATH 'lax "A"',
      NESTED PATH 'lax $[*]' AS "nested_path" COLUMNS (b varchar(1) PATH 'lax "B"')) PLAN (${plan}))`;

  it('PLAN (root OUTER nested) keeps the parent row with NULL child columns; INNER drops it', async () => {
    expect(await rows(planQuery('"root_path" OUTER "nested_path"'))).to.deep.equal([['A', null]]);
    expect(await rows(planQuery('"root_path" INNER "nested_path"'))).to.deep.equal([]);
  });

  it("siblings combine by UNION by default, by CROSS on request; FOR ORDINALITY numbers each path's items from 1", async () => {
    const doc = `'{"a": [1, 2], "b": ["x"]}'`;
    const columns = `COLUMNS (NESTED PATH 'lax $.a[*]' COLUMNS (i FOR ORDINALITY, a integer PATH 'lax $'), NESTED PATH 'lax $.b[*]' COLUMNS (b varchar PATH 'lax $'))`;
    expect(await rows(`SELECT * FROM json_table(${doc}, 'lax $' ${columns})`)).to.deep.equal([
      [1n, 1, null],
      [2n, 2, null],
      [null, null, 'x'],
    ]);
    expect(await rows(`SELECT * FROM json_table(${doc}, 'lax $' ${columns} PLAN DEFAULT (OUTER, CROSS))`)).to.deep.equal([
      [1n, 1, 'x'],
      [2n, 2, 'x'],
    ]);
  });

  it("Trino's TestJsonTable: a specific PLAN with OUTER, UNION, INNER and CROSS over nested paths, and `last`", async () => {
    const doc = `'{"a" : {"b" : [1, 2, 3], "c" : [[4, 5, 6], [7, 8, 9]]}}'`;
    expect(
      await rows(`SELECT first, last FROM (SELECT '{"a" : [1, 2, 3], "b" : [4, 5, 6]}') t(json_col), JSON_TABLE(json_col, 'lax $.a'
        COLUMNS(first bigint PATH 'lax $[0]', last bigint PATH 'lax $[last]'))`),
    ).to.deep.equal([[1n, 3n]]);
    const result = await rows(`SELECT * FROM (SELECT ${doc}) t(json_col), JSON_TABLE(json_col, 'lax $.a' AS "path_a" COLUMNS(
        NESTED PATH 'lax $.b[*]' AS "path_b" COLUMNS (c1 integer PATH 'lax $ * 10'),
        NESTED PATH 'lax $.c' AS "path_c" COLUMNS (
          NESTED PATH 'lax $[0][*]' AS "path_d" COLUMNS (c2 integer PATH 'lax $ * 100'),
          NESTED PATH 'lax $[last][*]' AS "path_e" COLUMNS (c3 integer PATH 'lax $ * 1000')))
        PLAN ("path_a" OUTER ("path_b" UNION ("path_c" INNER ("path_d" CROSS "path_e")))))`);
    const text = doc.slice(1, -1);
    const expected = [
      [10, null, null],
      [20, null, null],
      [30, null, null],
    ].concat([400, 500, 600].flatMap((c2) => [7000, 8000, 9000].map((c3) => [null, c2, c3])));
    expect(result).to.deep.equal(expected.map((r) => [text, ...r]));
  });

  it("Trino's TestJsonTable ordinality: numbered per path and parent item, with a plan that UNIONs one child with two CROSSed", async () => {
    const result =
      await rows(`SELECT * FROM (VALUES ('[["a", "b"], ["c", "d"], ["e", "f"]]'), ('[["g", "h"], ["i", "j"], ["k", "l"]]')) t(json_col),
      JSON_TABLE(json_col, 'lax $' AS "root_path" COLUMNS(o FOR ORDINALITY,
        NESTED PATH 'lax $[0][*]' AS "nested_path_1" COLUMNS (x1 varchar PATH 'lax $', o1 FOR ORDINALITY),
        NESTED PATH 'lax $[1][*]' AS "nested_path_2" COLUMNS (x2 varchar PATH 'lax $', o2 FOR ORDINALITY),
        NESTED PATH 'lax $[2][*]' AS "nested_path_3" COLUMNS (x3 varchar PATH 'lax $', o3 FOR ORDINALITY))
      PLAN ("root_path" INNER ("nested_path_2" UNION ("nested_path_3" CROSS "nested_path_1"))))`);
    const expected = (doc: string, [a, b, c, d, e, f]: string[]) => [
      [doc, 1n, a, 1n, null, null, e, 1n],
      [doc, 1n, a, 1n, null, null, f, 2n],
      [doc, 1n, b, 2n, null, null, e, 1n],
      [doc, 1n, b, 2n, null, null, f, 2n],
      [doc, 1n, null, null, c, 1n, null, null],
      [doc, 1n, null, null, d, 2n, null, null],
    ];
    const key = (r: unknown[]) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
    const sorted = (list: unknown[][]) => list.map(key).sort();
    expect(sorted(result)).to.deep.equal(
      sorted([
        ...expected('[["a", "b"], ["c", "d"], ["e", "f"]]', ['a', 'b', 'c', 'd', 'e', 'f']),
        ...expected('[["g", "h"], ["i", "j"], ["k", "l"]]', ['g', 'h', 'i', 'j', 'k', 'l']),
      ]),
    );
  });

  failureCases(
    'INVALID_PLAN',
    [
      [
        `SELECT * FROM JSON_TABLE('[]', 'lax $' AS "r" COLUMNS(NESTED PATH 'lax $' AS "n" COLUMNS (a integer), NESTED PATH 'lax $' AS "m" COLUMNS (b integer)) PLAN ("r" OUTER "n"))`,
        'JSON_TABLE plan does not match the child paths of r',
      ],
      [
        `SELECT * FROM JSON_TABLE('[]', 'lax $' AS "r" COLUMNS(NESTED PATH 'lax $' AS "n" COLUMNS (a integer)) PLAN ("r" OUTER "x"))`,
        'JSON_TABLE plan names an unknown path: x',
      ],
    ],
    engine,
  );

  it("Trino's TestJsonTable error handling: the table's ON ERROR for input, root and nested paths; a column's own, which defaults to the table's ERROR", async () => {
    const fails = async (sql: string) => {
      const error = await engine.failure(sql);
      return [error.errorName, error.rawMessage];
    };
    const emptyArray = ['PATH_EVALUATION_ERROR', 'path evaluation failed: structural error: invalid array subscript for empty array'];
    expect(await rows(`SELECT * FROM JSON_TABLE('[]', 'strict $[42]' COLUMNS(a integer PATH 'lax 1'))`)).to.deep.equal([]);
    expect(await fails(`SELECT * FROM JSON_TABLE('[]', 'strict $[42]' COLUMNS(a integer PATH 'lax 1') ERROR ON ERROR)`)).to.deep.equal(
      emptyArray,
    );
    const nested = `SELECT * FROM JSON_TABLE('[]', 'lax $' AS "root_path" COLUMNS(a integer PATH 'lax 1', NESTED PATH 'strict $[42]' AS "nested_path" COLUMNS(b integer PATH 'lax 2')) PLAN DEFAULT(INNER)`;
    expect(await rows(`${nested})`)).to.deep.equal([]);
    expect(await fails(`${nested} ERROR ON ERROR)`)).to.deep.equal(emptyArray);
    expect(
      await fails(`SELECT * FROM JSON_TABLE('[]', 'lax $' COLUMNS(a integer PATH 'strict $[42]' ERROR ON ERROR) EMPTY ON ERROR)`),
    ).to.deep.equal(emptyArray);
    expect(await rows(`SELECT * FROM JSON_TABLE('[]', 'lax $' COLUMNS(a integer PATH 'strict $[42]') EMPTY ON ERROR)`)).to.deep.equal([
      [null],
    ]);
    expect(await fails(`SELECT * FROM JSON_TABLE('[]', 'lax $' COLUMNS(a integer PATH 'strict $[42]') ERROR ON ERROR)`)).to.deep.equal(
      emptyArray,
    );
    expect(
      await fails(
        `SELECT * FROM (SELECT '[1, 2, 3]', CAST(null AS integer)) t(json_col, index_col), JSON_TABLE(json_col, 'lax $[$index]' PASSING index_col AS "index" COLUMNS(a integer PATH 'lax 1') ERROR ON ERROR)`,
      ),
    ).to.deep.equal(['PATH_EVALUATION_ERROR', 'path evaluation failed: invalid item type. Expected: NUMBER, actual: NULL']);
    expect(
      await rows(
        `SELECT * FROM (VALUES (CAST(null AS varchar)), (CAST(null AS varchar))) t(json_col), JSON_TABLE(json_col, 'lax $' COLUMNS(a integer PATH 'lax 1'))`,
      ),
    ).to.deep.equal([]);
    expect(await rows(`SELECT * FROM JSON_TABLE('{"A" : 42, "b" : true}', 'lax $' COLUMNS(a integer, "b" boolean))`)).to.deep.equal([
      [42, true],
    ]);
    expect(
      await rows(
        `SELECT * FROM JSON_TABLE('{"A" : 42, "b" : true}', 'lax $' COLUMNS(c varchar (5) DEFAULT 'empty' ON EMPTY DEFAULT 'error' ON ERROR))`,
      ),
    ).to.deep.equal([['empty']]);
  });

  it('reads a column of the table on its left (lateral), skips malformed documents (EMPTY ON ERROR), formats query columns', async () => {
    expect(
      await rows(`SELECT t.id, j.* FROM (VALUES (1, '[{"x":1},{"x":2,"y":[true]}]'), (2, '[]'), (3, 'bad')) t(id, doc)
        CROSS JOIN json_table(t.doc, 'lax $[*]' COLUMNS (n FOR ORDINALITY, "x" integer, y varchar FORMAT JSON PATH 'lax $.y' WITH ARRAY WRAPPER)) j ORDER BY 1, 2`),
    ).to.deep.equal([
      [1, 1n, 1, null],
      [1, 2n, 2, '[[true]]'],
    ]);
    const error = await engine.failure(`SELECT * FROM json_table('bad', 'lax $' COLUMNS (x integer) ERROR ON ERROR)`);
    expect(error.errorName).to.equal('JSON_INPUT_CONVERSION_ERROR');
  });

  it('value columns have ON EMPTY / ON ERROR defaults; PASSING values reach the paths', async () => {
    expect(
      await rows(`SELECT * FROM json_table('[{"v": "7"}, {"v": "x"}, {}]', 'lax $[*]?(@.v != $skip || !exists(@.v))' PASSING 'none' AS "skip"
        COLUMNS (v integer PATH 'lax $.v' DEFAULT -1 ON EMPTY DEFAULT -2 ON ERROR))`),
    ).to.deep.equal([[7], [-2], [-1]]);
    // A DEFAULT is evaluated only for the rows whose clause applies.
    expect(
      await rows(
        `SELECT * FROM json_table('[{"v": 1}, {}]', 'lax $[*]' COLUMNS (v integer PATH 'lax $.v' DEFAULT 1 / 0 ON ERROR, w bigint PATH 'lax $.v' DEFAULT 9 ON EMPTY))`,
      ),
    ).to.deep.equal([
      [1, 1n],
      [null, 9n],
    ]);
  });

  it('a table of one column, and UNNEST of rows of one field, give that field (found by JSON_TABLE)', async () => {
    expect(await rows(`SELECT * FROM json_table('[{"v": "7"}, {}]', 'lax $[*]' COLUMNS (v integer PATH 'lax $.v'))`)).to.deep.equal([
      [7],
      [null],
    ]);
    expect(await rows('SELECT * FROM UNNEST(ARRAY[CAST(ROW(1) AS ROW(v integer))])')).to.deep.equal([[1]]);
  });

  failureCases(
    'INVALID_PATH',
    [
      [
        "SELECT * FROM json_table('[]', 'lax $' COLUMNS (a integer PATH 'lax $.'))",
        "Invalid JSON path 'lax $.' at position 7: unexpected end of path, expecting a member name",
      ],
    ],
    engine,
  );
  failureCases(
    'DUPLICATE_COLUMN_OR_PATH_NAME',
    [
      [
        "SELECT * FROM json_table('[]', 'lax $' COLUMNS (a integer, A varchar))",
        'All column and path names in JSON_TABLE invocation must be unique',
      ],
      [
        "SELECT * FROM json_table('[]', 'lax $' AS p COLUMNS (a integer, NESTED PATH 'lax $' AS P COLUMNS (b integer)))",
        'All column and path names in JSON_TABLE invocation must be unique',
      ],
    ],
    engine,
  );

  it('a column without PATH reads the member of its canonical name: unquoted upper-cased, quoted as written (StatementAnalyzer)', async () => {
    expect(await rows(`SELECT * FROM json_table('{"x": 1, "X": 2}', 'lax $' COLUMNS (x integer, "x" integer))`)).to.deep.equal([[2, 1]]);
  });
});
