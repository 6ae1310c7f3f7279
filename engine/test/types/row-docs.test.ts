// Trino's documented row examples (language/types.md, sql/select.md, functions/array.md) with the
// documented results, and Trino's NULL rules for comparing rows (RowType's operators), run through
// the whole engine.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('row(...) as Trino documents it', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  it('language/types.md: CAST names the fields, r.x reads one, r[1] reads by position', async () => {
    const named = await engine.query('SELECT CAST(ROW(1, 2e0) AS ROW(x BIGINT, y DOUBLE))');
    expect(named.types).to.deep.equal(['row("x" bigint, "y" double)']);
    expect(named.rows).to.deep.equal([[[1n, 2]]]);
    const field = await engine.query('SELECT CAST(ROW(1, 2.0) AS ROW(x BIGINT, y DOUBLE)).x');
    expect([field.types, field.rows]).to.deep.equal([['bigint'], [[1n]]]);
    const position = await engine.query('SELECT ROW(1, 2.0)[1]');
    expect([position.types, position.rows]).to.deep.equal([['integer'], [[1]]]);
  });

  it('typeof prints anonymous and named fields as Trino does', async () => {
    expect(
      await engine.rows("SELECT typeof(ROW(1, 'a')), typeof((1, 'a')), typeof(CAST(ROW(1, 'a') AS ROW(x bigint, \"Y\" varchar)))"),
    ).to.deep.equal([['row(integer, varchar(1))', 'row(integer, varchar(1))', 'row("x" bigint, "Y" varchar)']]);
    expect(await engine.rows('SELECT typeof(ROW(1 AS a, 2.5 AS b)), typeof(ARRAY[ROW(1, ARRAY[2])])')).to.deep.equal([
      ['row("a" integer, "b" decimal(2,1))', 'array(row(integer, array(integer)))'],
    ]);
  });

  it('sql/select.md: expression.* with aliases, with field names, and anonymous', async () => {
    const aliased = await engine.query('SELECT (CAST(ROW(1, true) AS ROW(field1 bigint, field2 boolean))).* AS (alias1, alias2)');
    expect([aliased.columns.map((c) => c.name), aliased.rows]).to.deep.equal([['alias1', 'alias2'], [[1n, true]]]);
    const named = await engine.query('SELECT (CAST(ROW(1, true) AS ROW(field1 bigint, field2 boolean))).*');
    expect([named.columns.map((c) => c.name), named.rows]).to.deep.equal([['field1', 'field2'], [[1n, true]]]);
    const anonymous = await engine.query('SELECT (ROW(1, true)).*');
    expect([anonymous.columns.map((c) => c.name), anonymous.rows]).to.deep.equal([['_col0', '_col1'], [[1, true]]]);
  });

  it('sql/select.md: UNNEST expands each field of an array of rows into a column', async () => {
    const sql = `SELECT * FROM UNNEST(ARRAY[ROW('Java', 1995), ROW('SQL' , 1974)], ARRAY[ROW(false), ROW(true)]) as t(language,first_appeared_year,declarative)`;
    const result = await engine.query(sql);
    expect(result.columns.map((c) => c.name)).to.deep.equal(['language', 'first_appeared_year', 'declarative']);
    expect(result.rows).to.deep.equal([
      ['Java', 1995, false],
      ['SQL', 1974, true],
    ]);
  });

  it('UNNEST of named rows names the columns after the fields, with ordinality after them', async () => {
    const result = await engine.query("SELECT * FROM UNNEST(ARRAY[CAST(ROW(1, 'a') AS ROW(x int, y varchar)), NULL]) WITH ORDINALITY");
    expect(result.columns.map((c) => c.name)).to.deep.equal(['x', 'y', '_col2']);
    expect(result.rows).to.deep.equal([
      [1, 'a', 1n],
      [null, null, 2n],
    ]);
  });

  it('functions/array.md: zip pads the shorter arrays with NULL', async () => {
    const result = await engine.query("SELECT zip(ARRAY[1, 2], ARRAY['1b', null, '3b'])");
    expect(result.types).to.deep.equal(['array(row(integer, varchar(2)))']);
    expect(result.rows).to.deep.equal([
      [
        [
          [1, '1b'],
          [2, null],
          [null, '3b'],
        ],
      ],
    ]);
  });

  it('= and <> are NULL when no field differs but one is NULL; a differing field decides', async () => {
    expect(
      await engine.rows(
        'SELECT ROW(1, 2) = ROW(1, 2), ROW(1, NULL) = ROW(1, 2), ROW(1, NULL) = ROW(2, 2), ROW(1, NULL) <> ROW(2, 2), ROW(1, NULL) <> ROW(1, 2)',
      ),
    ).to.deep.equal([[true, null, false, true, null]]);
  });

  it('<, <=, >, >= decide at the first unequal field; a NULL field before it makes the result NULL', async () => {
    expect(
      await engine.rows(
        'SELECT ROW(1, 2) < ROW(1, 3), ROW(1, 3) < ROW(1, 2), ROW(1, 2) <= ROW(1, 2), ROW(2, NULL) > ROW(1, 5), ROW(NULL, 1) < ROW(1, 2), ROW(1, NULL) >= ROW(1, 1)',
      ),
    ).to.deep.equal([[true, false, true, true, null, null]]);
  });

  it('IS DISTINCT FROM treats NULL fields as values', async () => {
    expect(
      await engine.rows(
        'SELECT ROW(1, NULL) IS DISTINCT FROM ROW(1, NULL), ROW(1, NULL) IS DISTINCT FROM ROW(1, 2), ROW(1, 2) IS NOT DISTINCT FROM (1, 2)',
      ),
    ).to.deep.equal([[false, true, true]]);
  });

  it('IN with row values: a match is TRUE, a possible match through a NULL field is NULL', async () => {
    expect(
      await engine.rows(
        'SELECT (1, 2) IN ((1, 2), (3, 4)), (1, NULL) IN ((1, 2), (3, 4)), (5, 6) IN ((1, 2), (3, 4)), (5, NULL) NOT IN ((1, 2), (3, 4))',
      ),
    ).to.deep.equal([[true, null, false, true]]);
  });

  it('IN with a subquery of two columns (issue 19 §2), NULLs as Trino', async () => {
    const rows = await engine.rows(`
      SELECT a, b, (a, b) IN (SELECT x, y FROM (VALUES (1, 2), (3, NULL)) s(x, y)), (a, b) NOT IN (SELECT x, y FROM (VALUES (1, 2)) s(x, y))
      FROM (VALUES (1, 2), (3, 4), (5, 6), (NULL, 2)) t(a, b) ORDER BY a NULLS LAST`);
    expect(rows).to.deep.equal([
      [1, 2, true, false],
      [3, 4, null, true],
      [5, 6, false, true],
      [null, 2, null, null],
    ]);
  });

  it('a scalar subquery of several columns is a row of them, named as the columns', async () => {
    const result = await engine.query("SELECT (SELECT 1 AS a, 'x' AS b), (SELECT max(x) AS a, min(x) AS b FROM (VALUES 1, 5) t(x)).a");
    expect(result.types).to.deep.equal(['row("a" integer, "b" varchar(1))', 'integer']);
    expect(result.rows).to.deep.equal([[[1, 'x'], 5]]);
    const correlated = await engine.rows(
      'SELECT k, (SELECT count(*), max(v) FROM (VALUES (1, 10), (1, 20), (2, 5)) s(k2, v) WHERE s.k2 = t.k) FROM (VALUES 1, 2, 3) t(k) ORDER BY k',
    );
    expect(correlated).to.deep.equal([
      [1, [2n, 20]],
      [2, [1n, 5]],
      [3, [0n, null]],
    ]);
  });

  it('GROUP BY, DISTINCT and ORDER BY on rows; NULL fields group together', async () => {
    const rows = await engine.rows(
      'SELECT r, count(*) FROM (SELECT ROW(a, b) AS r FROM (VALUES (1, 2), (1, 2), (3, NULL), (3, NULL), (0, 9)) t(a, b)) GROUP BY r ORDER BY r',
    );
    expect(rows).to.deep.equal([
      [[0, 9], 1n],
      [[1, 2], 2n],
      [[3, null], 2n],
    ]);
    expect(await engine.rows('SELECT DISTINCT ROW(a, b) FROM (VALUES (2, 1), (1, 2), (2, 1)) t(a, b) ORDER BY 1 DESC')).to.deep.equal([
      [[2, 1]],
      [[1, 2]],
    ]);
  });

  it('a field of a grouped row is grouped; a field of an ungrouped row column is not', async () => {
    const sql =
      'SELECT k.x, count(*) FROM (SELECT CAST(ROW(a, b) AS ROW(x int, y int)) AS k FROM (VALUES (1, 2), (1, 2), (1, 3)) t(a, b)) GROUP BY k ORDER BY k';
    expect(await engine.rows(sql)).to.deep.equal([
      [1, 2n],
      [1, 1n],
    ]);
    const e = await engine.failure(
      'SELECT k.x, count(*) FROM (SELECT CAST(ROW(a, b) AS ROW(x int, y int)) AS k, a FROM (VALUES (1, 2)) t(a, b)) GROUP BY a',
    );
    expect(e.message).to.equal("line 1:8: 'k' must be an aggregate expression or appear in GROUP BY clause");
  });

  it('joins on row keys match equal rows, never rows with a NULL field', async () => {
    const rows = await engine.rows(`
      SELECT l.k, r.v FROM (SELECT ROW(a, b) AS k FROM (VALUES (1, 'x'), (2, NULL)) t(a, b)) l
      JOIN (SELECT ROW(a, b) AS k, v FROM (VALUES (1, 'x', 10), (2, NULL, 20)) t(a, b, v)) r ON l.k = r.k`);
    expect(rows).to.deep.equal([[[1, 'x'], 10]]);
  });

  it('arrays of rows and rows of arrays compare and cast field by field', async () => {
    expect(
      await engine.rows(
        'SELECT ARRAY[ROW(1, 2)] = ARRAY[ROW(1, 2)], ROW(ARRAY[1], 2) = ROW(ARRAY[1], 2), ARRAY[ROW(1, NULL)] = ARRAY[ROW(1, 2)]',
      ),
    ).to.deep.equal([[true, true, null]]);
    const cast = await engine.query('SELECT CAST(ROW(ARRAY[1, 2], ROW(3)) AS ROW(a array(bigint), b ROW(c double)))');
    expect(cast.types).to.deep.equal(['row("a" array(bigint), "b" row("c" double))']);
    expect(cast.rows).to.deep.equal([[[[1n, 2n], [3]]]]);
    expect(await engine.rows('SELECT CAST(ROW(ARRAY[1, 2], ROW(3)) AS ROW(a array(bigint), b ROW(c double))).b.c')).to.deep.equal([[3]]);
  });

  it('rows through CASE, coalesce, array functions and aggregates', async () => {
    expect(
      await engine.rows(
        'SELECT coalesce(ROW(1, NULL), ROW(2, 3)), typeof(CASE WHEN true THEN ROW(1) ELSE ROW(2.5) END), ROW(1, 2) = ROW(1.0, 2)',
      ),
    ).to.deep.equal([[[1, null], 'row(decimal(11,1))', true]]);
    expect(
      await engine.rows(
        "SELECT array_sort(ARRAY[ROW(2, 'b'), ROW(1, 'z'), ROW(1, 'a')]), contains(ARRAY[ROW(1, 2)], ROW(1, 2)), array_distinct(ARRAY[ROW(1, 2), ROW(1, 2)])",
      ),
    ).to.deep.equal([
      [
        [
          [1, 'a'],
          [1, 'z'],
          [2, 'b'],
        ],
        true,
        [[1, 2]],
      ],
    ]);
    expect(
      await engine.rows(
        'SELECT max(ROW(a, b)), min(ROW(a, b)), count(DISTINCT ROW(a, b)), array_agg(ROW(a, b) ORDER BY a, b) FROM (VALUES (1, 2), (3, 1), (3, 0)) t(a, b)',
      ),
    ).to.deep.equal([
      [
        [3, 1],
        [1, 2],
        3n,
        [
          [1, 2],
          [3, 0],
          [3, 1],
        ],
      ],
    ]);
  });

  it('window functions, min_by/max_by and set operations carry and compare rows', async () => {
    const rows = "(SELECT id, ROW(id, 'x') r FROM (VALUES 1, 2, 3) t(id))";
    expect(
      await engine.rows(`SELECT id, lag(r) OVER (ORDER BY id), max(r) OVER (ORDER BY id DESC) FROM ${rows} ORDER BY id`),
    ).to.deep.equal([
      [1, null, [3, 'x']],
      [2, [1, 'x'], [3, 'x']],
      [3, [2, 'x'], [3, 'x']],
    ]);
    expect(await engine.rows(`SELECT min_by(r, id), max_by(id, r) FROM ${rows}`)).to.deep.equal([[[1, 'x'], 3]]);
    expect(await engine.rows(`SELECT r FROM ${rows} EXCEPT SELECT ROW(1, 'x') ORDER BY 1`)).to.deep.equal([[[2, 'x']], [[3, 'x']]]);
  });

  it('EXPLAIN shows row construction and field access in SQL notation', async () => {
    const [[plan]] = await engine.rows(
      "EXPLAIN SELECT r.y, ROW(r.x, 1) FROM (SELECT CAST(ROW(a, b) AS ROW(x int, y varchar)) r FROM (VALUES (1, 'a')) t(a, b))",
    );
    expect(plan)
      .to.match(/r_\d+\[2\]/)
      .and.match(/ROW\(_col0_\d+, _col1_\d+\)/);
  });

  it('row columns of a memory table: stored, read, filtered on a field', async () => {
    await engine.query('CREATE TABLE memory.default.rows_t (id integer, r row(x bigint, y varchar))');
    await engine.query(
      "INSERT INTO memory.default.rows_t VALUES (1, CAST(ROW(10, 'a') AS ROW(x bigint, y varchar))), (2, NULL), (3, ROW(30, NULL))",
    );
    expect(await engine.rows('SELECT id, r, r.y FROM memory.default.rows_t ORDER BY id')).to.deep.equal([
      [1, [10n, 'a'], 'a'],
      [2, null, null],
      [3, [30n, null], null],
    ]);
    expect(await engine.rows('SELECT id FROM memory.default.rows_t WHERE r.x > 15')).to.deep.equal([[3]]);
    expect(await engine.rows('SELECT t.r.x FROM memory.default.rows_t t WHERE id = 1')).to.deep.equal([[10n]]);
  });
});
