// Parquet STRUCT columns read as row(...) and written by CTAS: DuckDB writes the files (NULL
// structs, NULL fields, fields of several types, a struct in a struct, several row groups,
// dictionaries or none) and every value we read equals DuckDB's, field by field as JSON (DuckDB's
// struct as the list of its fields' values, decimals and dates as text, as our client protocol
// writes them). A CTAS of row columns writes STRUCT columns that DuckDB reads back equal.

import { expect } from 'chai';
import { toJsonValue } from '../../../src/types/values.js';
import { DUCKDB_PARQUET_LAYOUTS, LakeFixture, duckDbRows } from './lake-fixture.js';

const STRUCT = `CASE WHEN i % 11 = 0 THEN NULL ELSE {
    'n': CASE WHEN i % 3 = 0 THEN NULL ELSE i::INTEGER END,
    'name': 'w' || (i % 5),
    'price': (i / 7)::DECIMAL(12,2),
    'sub': CASE WHEN i % 7 = 0 THEN NULL ELSE {'day': DATE '2024-01-01' + (i % 400)::INTEGER, 'ok': i % 2 = 0, 'big': i * 1000000007} END
  } END`;

/** DuckDB's struct as our client protocol writes a row: a JSON array of the fields, decimals and dates as text. */
const DUCK_JSON = `CASE WHEN s IS NULL THEN NULL ELSE to_json([
    to_json(s.n), to_json(s.name), to_json(s.price::VARCHAR),
    CASE WHEN s.sub IS NULL THEN 'null'::JSON ELSE to_json([to_json(s.sub.day::VARCHAR), to_json(s.sub.ok), to_json(s.sub.big)]) END
  ]) END::VARCHAR`;

async function clientRows(lake: LakeFixture, sql: string): Promise<unknown[][]> {
  const { rows, result } = await lake.harness.query(sql);
  return rows.map((row) => row.map((v, i) => (i === 0 ? String(v) : toJsonValue(v, result.columns[i].type))));
}

describe('lake: Parquet STRUCT columns as rows', function () {
  this.timeout(120_000);
  let lake: LakeFixture;

  before(async () => {
    lake = LakeFixture.create();
  });
  after(() => lake.remove());

  for (const [label, options] of DUCKDB_PARQUET_LAYOUTS) {
    it(`reads every field as DuckDB does: ${label}`, async () => {
      const { path, table } = await lake.duckDbTable(`s_${label.replace(/\W+/g, '_')}`, `i AS id, ${STRUCT} AS s`, options);
      expect((await lake.rows(`DESCRIBE ${table}`)).map((r) => r.slice(0, 2))).to.deep.equal([
        ['id', 'bigint'],
        ['s', 'row("n" integer, "name" varchar, "price" decimal(12,2), "sub" row("day" date, "ok" boolean, "big" bigint))'],
      ]);
      const duck = (await duckDbRows(`SELECT id, ${DUCK_JSON} FROM (SELECT id, s FROM read_parquet('${path}')) ORDER BY id`)).map(
        ([id, json]) => [id, json === null ? null : JSON.parse(json as string)],
      );
      expect(await clientRows(lake, `SELECT id, s FROM ${table} ORDER BY id`)).to.deep.equal(duck);
      // Fields by name, filters on a field, in this thread and on worker threads.
      const fields = await duckDbRows(`SELECT id, s.name, s.sub.big FROM read_parquet('${path}') WHERE s.n > 2000 ORDER BY id`);
      for (const minSplits of [0, 1]) {
        await lake.harness.query(`SET SESSION parallel_min_splits = ${minSplits}`);
        expect(await lake.rows(`SELECT id, s.name, s.sub.big FROM ${table} WHERE s.n > 2000 ORDER BY id`)).to.deep.equal(fields);
      }
    });
  }

  it('a table declaring the struct with fields in another order, one missing and one wider, reads them by name', async () => {
    lake.file('data/declared/a.parquet', '');
    const path = lake.path('data/declared/a.parquet');
    await duckDbRows(`COPY (SELECT i AS id, {'a': i::INTEGER, 'b': 'x' || i} AS s FROM range(10) r(i)) TO '${path}' (FORMAT PARQUET)`);
    await lake.harness.query(
      `CREATE TABLE lake.default.declared (id bigint, s row(b varchar, missing double, a bigint)) WITH (external_location = '${lake.uri('data/declared')}')`,
    );
    expect(await lake.rows('SELECT s FROM lake.default.declared WHERE id = 3')).to.deep.equal([[['x3', null, 3n]]]);
  });

  it('CTAS writes row columns as STRUCTs that DuckDB reads back equal', async () => {
    await lake.harness.query(`CREATE TABLE lake.default.written AS
      SELECT id, IF(id % 11 = 0, NULL, CAST(ROW(id * 2, IF(id % 3 = 0, NULL, 'v' || CAST(id AS varchar)), CAST(id AS decimal(10,2)) / 4, IF(id % 4 = 0, NULL, ROW(id % 2 = 0, DATE '2024-02-29'))) AS ROW(x bigint, label varchar, q decimal(10,2), deep ROW(flag boolean, day date)))) AS r
      FROM (SELECT CAST(x AS bigint) AS id FROM UNNEST(sequence(0, 2999)) t(x)) WHERE id % 7 <> 1`);
    const files = `${lake.path('catalog/default/written')}/*.parquet`;
    const theirs = await duckDbRows(
      `SELECT id::VARCHAR, r IS NULL, r.deep IS NULL, r.x::VARCHAR, r.label, r.q::VARCHAR, r.deep.flag, r.deep.day::VARCHAR FROM read_parquet('${files}') ORDER BY id`,
    );
    const ours = await lake.rows(
      'SELECT CAST(id AS varchar), r IS NULL, r.deep IS NULL, CAST(r.x AS varchar), r.label, CAST(r.q AS varchar), r.deep.flag, CAST(r.deep.day AS varchar) FROM lake.default.written ORDER BY id',
    );
    expect(theirs).to.have.length(3000 - Math.ceil(3000 / 7));
    expect(ours).to.deep.equal(theirs);
    expect((await lake.rows('DESCRIBE lake.default.written')).map((r) => r.slice(0, 2))).to.deep.equal([
      ['id', 'bigint'],
      ['r', 'row("x" bigint, "label" varchar, "q" decimal(10,2), "deep" row("flag" boolean, "day" date))'],
    ]);
  });

  it('INSERT writes row columns, a missing field of the value cast into the declared row', async () => {
    await lake.harness.query('CREATE TABLE lake.default.inserted (id integer, r row(a bigint, b row(c varchar)))');
    await lake.harness.query(
      "INSERT INTO lake.default.inserted VALUES (1, ROW(10, ROW('x'))), (2, NULL), (3, ROW(NULL, NULL)), (4, ROW(40, ROW(NULL)))",
    );
    const expected = [
      ['1', '10', 'x', false],
      ['2', null, null, true],
      ['3', null, null, false],
      ['4', '40', null, false],
    ];
    expect(
      await lake.rows('SELECT CAST(id AS varchar), CAST(r.a AS varchar), r.b.c, r IS NULL FROM lake.default.inserted ORDER BY id'),
    ).to.deep.equal(expected);
    const files = `${lake.path('catalog/default/inserted')}/*.parquet`;
    expect(await duckDbRows(`SELECT id::VARCHAR, r.a::VARCHAR, r.b.c, r IS NULL FROM read_parquet('${files}') ORDER BY id`)).to.deep.equal(
      expected,
    );
  });

  it('a CTAS of a row holding an array fails naming the field', async () => {
    expect(
      await lake.failure('CREATE TABLE lake.default.row_list AS SELECT CAST(ROW(ARRAY[1]) AS ROW(xs array(integer))) AS r'),
    ).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: "Column 'r.xs' of type array(integer) cannot be written to a Parquet file",
    });
  });

  it('row columns in CSV or JSON tables and row partition columns fail naming the column', async () => {
    for (const format of ['CSV', 'JSON']) {
      expect(
        await lake.failure(
          `CREATE TABLE lake.default.rows_${format} WITH (format = '${format}') AS SELECT CAST(ROW(1) AS ROW(a integer)) AS r`,
        ),
      ).to.deep.equal({
        name: 'NOT_SUPPORTED',
        message: `Column 'r' of type row("a" integer) is not supported in ${format} tables: use format = 'PARQUET'`,
      });
    }
    expect(
      await lake.failure("CREATE TABLE lake.default.rows_partitioned (id integer, r row(a integer)) WITH (partitioned_by = ARRAY['r'])"),
    ).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'Unsupported type [row("a" integer)] for partition: r',
    });
  });

  it('a CTAS of an anonymous row fails as Trino says', async () => {
    expect(await lake.failure('CREATE TABLE lake.default.anonymous AS SELECT ROW(1, 2) AS r')).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'Anonymous row type is not supported in Hive. Please give each field a name: row(integer, integer)',
    });
  });
});
