// Parquet LIST columns read as array(T): DuckDB writes the files (NULL lists, empty lists, NULL
// elements, elements of several types, lists of lists, several row groups, dictionary-encoded
// elements, data pages v1 and v2) and every value we read equals DuckDB's, compared element by
// element as DuckDB renders them (JSON of the elements cast to text where JSON would lose them).

import { expect } from 'chai';
import { ConvertedType, PhysicalType, Repetition } from '../../../src/connectors/hive/formats/parquet/parquet-constants.js';
import { toJsonValue } from '../../../src/types/values.js';
import { DUCKDB_PARQUET_LAYOUTS, LakeFixture, duckDbRows } from './lake-fixture.js';
import { writeHandMadeFile } from './parquet/hand-made-list-file.js';

/** A column of the test file: DuckDB's expression for it, and how DuckDB renders its elements as our client protocol does. */
interface ListCase {
  name: string;
  sql: string;
  type: string;
  /** DuckDB's rendering of an element x as our client protocol writes it; DuckDB's JSON as it is when absent. */
  render?: string;
}

const CASES: ListCase[] = [
  {
    name: 'ints',
    sql: 'CASE WHEN i % 11 = 0 THEN NULL WHEN i % 7 = 0 THEN []::INTEGER[] ELSE [i::INTEGER, CASE WHEN i % 3 = 0 THEN NULL ELSE (i * 2)::INTEGER END, -i::INTEGER] END',
    type: 'array(integer)',
  },
  {
    name: 'bigs',
    sql: 'CASE WHEN i % 5 = 0 THEN NULL ELSE list_transform(range(i % 4), x -> x * 1000000007 + i) END',
    type: 'array(bigint)',
  },
  { name: 'tags', sql: "CASE WHEN i % 17 = 0 THEN NULL ELSE ['t' || (i % 3), 't' || (i % 4), NULL] END", type: 'array(varchar)' },
  {
    name: 'words',
    sql: "CASE WHEN i % 13 = 0 THEN []::VARCHAR[] ELSE ['w' || (i % 5), NULL, 'long word ' || i] END",
    type: 'array(varchar)',
  },
  { name: 'dbls', sql: 'CASE WHEN i % 9 = 0 THEN NULL ELSE [i / 3.0, NULL, -0.5]::DOUBLE[] END', type: 'array(double)' },
  {
    name: 'decs',
    sql: '[(i / 7)::DECIMAL(10,2), NULL, 12345678901234.5678::DECIMAL(20,4) + i]::DECIMAL(20,4)[]',
    type: 'array(decimal(20,4))',
    render: 'x::VARCHAR',
  },
  { name: 'small_decs', sql: '[(i / 7)::DECIMAL(9,3)]', type: 'array(decimal(9,3))', render: 'x::VARCHAR' },
  { name: 'days', sql: "[DATE '2024-01-01' + (i % 400)::INTEGER, NULL]", type: 'array(date)', render: 'x::VARCHAR' },
  {
    name: 'times',
    sql: "CASE WHEN i % 4 = 0 THEN NULL ELSE [TIMESTAMP '2024-03-01 10:00:00' + INTERVAL (i * 1001) MILLISECOND] END",
    type: 'array(timestamp(6))',
    render: "strftime(x, '%Y-%m-%d %H:%M:%S.%f')",
  },
  {
    name: 'nested',
    sql: 'CASE WHEN i % 6 = 0 THEN NULL WHEN i % 6 = 1 THEN [] WHEN i % 6 = 2 THEN [NULL, []] ELSE [[i, NULL], [], NULL, [i + 1]]::BIGINT[][] END',
    type: 'array(array(bigint))',
  },
];

const SELECT_CASES = CASES.map((c) => `${c.sql} AS ${c.name}`).join(', ');

/** Our rows as the client protocol writes them (toJsonValue: the statement resource's encoding); column `idColumn` (an id) as text. */
async function clientRows(lake: LakeFixture, sql: string, idColumn = 0): Promise<unknown[][]> {
  const { rows, result } = await lake.harness.query(sql);
  return rows.map((row) => row.map((v, i) => (i === idColumn ? String(v) : toJsonValue(v, result.columns[i].type))));
}

describe('lake: Parquet LIST columns as arrays', function () {
  this.timeout(120_000);
  let lake: LakeFixture;

  before(async () => {
    lake = LakeFixture.create();
    // Timestamps as DuckDB's files hold them (micros): the catalog's precision says which.
    await lake.harness.query("SET SESSION lake.timestamp_precision = 'MICROSECONDS'");
  });
  after(() => lake.remove());

  for (const [label, options] of DUCKDB_PARQUET_LAYOUTS) {
    it(`reads every value as DuckDB does: ${label}`, async () => {
      const { path, table } = await lake.duckDbTable(`t_${label.replace(/\W+/g, '_')}`, `i AS id, ${SELECT_CASES}`, options);
      const described = (await lake.rows(`DESCRIBE ${table}`)).map((r) => r.slice(0, 2));
      expect(described).to.deep.equal([['id', 'bigint'], ...CASES.map((c) => [c.name, c.type])]);
      for (const c of CASES) {
        const render = c.render === undefined ? c.name : `list_transform(${c.name}, x -> ${c.render})`;
        const duck = (await duckDbRows(`SELECT id, to_json(${render})::VARCHAR FROM read_parquet('${path}') ORDER BY id`)).map(
          ([id, json]) => [id, json === null ? null : JSON.parse(json as string)],
        );
        const ours = await clientRows(lake, `SELECT id, ${c.name} FROM ${table} ORDER BY id`);
        expect(ours, c.name).to.deep.equal(duck);
      }
    });
  }

  it('cardinality and UNNEST over a lake array column give DuckDB answers, in this thread and on worker threads', async () => {
    lake.file('data/unnest/a.parquet', '');
    const path = lake.path('data/unnest/a.parquet');
    await duckDbRows(`COPY (SELECT i AS id, ${SELECT_CASES} FROM range(5000) r(i)) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)`);
    await lake.harness.query(`CREATE TABLE lake.default.unnested WITH (external_location = '${lake.uri('data/unnest')}')`);
    const checks: [string, string][] = [
      [
        'SELECT count(*), count(ints), sum(cardinality(ints)), sum(cardinality(nested)), max(cardinality(words)) FROM lake.default.unnested',
        'SELECT count(*), count(ints), sum(len(ints)), sum(len(nested)), max(len(words)) FROM read_parquet(?)',
      ],
      [
        'SELECT x, count(*) FROM lake.default.unnested CROSS JOIN UNNEST(tags) AS u(x) GROUP BY x ORDER BY x NULLS FIRST',
        'SELECT x, count(*) FROM (SELECT unnest(tags) AS x FROM read_parquet(?)) GROUP BY x ORDER BY x NULLS FIRST',
      ],
      [
        'SELECT count(*), count(x), sum(x) FROM lake.default.unnested CROSS JOIN UNNEST(bigs) AS u(x)',
        'SELECT count(*), count(x), sum(x) FROM (SELECT unnest(bigs) AS x FROM read_parquet(?))',
      ],
      [
        'SELECT count(*), count(y), sum(y) FROM lake.default.unnested CROSS JOIN UNNEST(nested) AS u(x) CROSS JOIN UNNEST(x) AS v(y)',
        'SELECT count(*), count(y), sum(y) FROM (SELECT unnest(x) AS y FROM (SELECT unnest(nested) AS x FROM read_parquet(?)))',
      ],
      [
        'SELECT id, cardinality(ints) FROM lake.default.unnested WHERE id BETWEEN 4090 AND 4100 ORDER BY id',
        'SELECT id, len(ints) FROM read_parquet(?) WHERE id BETWEEN 4090 AND 4100 ORDER BY id',
      ],
      // Predicates on list columns: row-group statistics (of the elements) must not prune them.
      ['SELECT count(*) FROM lake.default.unnested WHERE ints IS NULL', 'SELECT count(*) FROM read_parquet(?) WHERE ints IS NULL'],
      ['SELECT count(*) FROM lake.default.unnested WHERE bigs IS NOT NULL', 'SELECT count(*) FROM read_parquet(?) WHERE bigs IS NOT NULL'],
      [
        'SELECT id FROM lake.default.unnested WHERE ints = ARRAY[4097, 8194, -4097]',
        'SELECT id FROM read_parquet(?) WHERE ints = [4097, 8194, -4097]',
      ],
      [
        'SELECT count(*) FROM lake.default.unnested WHERE contains(ints, -4999)',
        'SELECT count(*) FROM read_parquet(?) WHERE list_contains(ints, -4999)',
      ],
    ];
    for (const minSplits of [0, 1]) {
      await lake.harness.query(`SET SESSION parallel_min_splits = ${minSplits}`);
      for (const [ours, duck] of checks) {
        expect(await lake.rows(ours), ours).to.deep.equal(await duckDbRows(duck.replace('?', `'${path}'`)));
      }
    }
  });

  for (const v2 of [false, true]) {
    it(`a list column beside a filtered column with a page index reads the rows the page index keeps, aligned (data pages ${v2 ? 'v2' : 'v1'})`, async () => {
      const int32 = { type: PhysicalType.Int32 };
      // Row i: NULL, [], [i, NULL] or [i] by i % 4; ids 0..11 in three pages, the lists in two, both with a page index.
      const rows = 12;
      const levelsOf = (from: number, to: number) => {
        const page = { firstRow: from, repetition: [] as number[], definition: [] as number[], values: [] as number[] };
        const add = (r: number, d: number, v?: number) => {
          page.repetition.push(r);
          page.definition.push(d);
          if (v !== undefined) page.values.push(v);
        };
        for (let i = from; i < to; i++) {
          if (i % 4 === 0) add(0, 0);
          else if (i % 4 === 1) add(0, 1);
          else if (i % 4 === 2) add(0, 3, i), add(1, 2);
          else add(0, 3, i);
        }
        return page;
      };
      const ids = (from: number, to: number) => ({
        firstRow: from,
        repetition: [],
        definition: [],
        values: Array.from({ length: to - from }, (_, i) => from + i),
      });
      const file = lake.file(`data/indexed-${v2}/a.parquet`, '');
      writeHandMadeFile(
        file,
        [
          { name: 'id', repetition: Repetition.Required, ...int32 },
          { name: 'ints', repetition: Repetition.Optional, numChildren: 1, convertedType: ConvertedType.List },
          { name: 'list', repetition: Repetition.Repeated, numChildren: 1 },
          { name: 'element', repetition: Repetition.Optional, ...int32 },
        ],
        2,
        rows,
        [
          { path: ['id'], maxRepetition: 0, maxDefinition: 0, pages: [ids(0, 4), ids(4, 8), ids(8, 12)], pageIndex: true, dataPageV2: v2 },
          {
            path: ['ints', 'list', 'element'],
            maxRepetition: 1,
            maxDefinition: 3,
            pages: [levelsOf(0, 7), levelsOf(7, 12)],
            pageIndex: true,
            dataPageV2: v2,
          },
        ],
      );
      await lake.harness.query(`CREATE TABLE lake.default.indexed_${v2} WITH (external_location = '${lake.uri(`data/indexed-${v2}`)}')`);
      for (const where of ['id >= 6', 'id BETWEEN 3 AND 5', 'id < 100']) {
        const duck = (await duckDbRows(`SELECT id, to_json(ints)::VARCHAR FROM read_parquet('${file}') WHERE ${where} ORDER BY id`)).map(
          ([id, json]) => [String(id), json === null ? null : JSON.parse(json as string)],
        );
        expect(duck.length).to.be.greaterThan(2);
        expect(await clientRows(lake, `SELECT id, ints FROM lake.default.indexed_${v2} WHERE ${where} ORDER BY id`), where).to.deep.equal(
          duck,
        );
      }
      // A table may declare wider elements (coerced as flat columns are); other element types fail naming both types.
      const location = lake.uri(`data/indexed-${v2}`);
      await lake.harness.query(
        `CREATE TABLE lake.default.indexed_wide_${v2} (id bigint, ints array(decimal(12,1))) WITH (external_location = '${location}')`,
      );
      const wide = (
        await duckDbRows(
          `SELECT id, to_json(list_transform(ints, x -> x::DECIMAL(12,1)::VARCHAR))::VARCHAR FROM read_parquet('${file}') ORDER BY id`,
        )
      ).map(([id, json]) => [String(id), json === null ? null : JSON.parse(json as string)]);
      expect(await clientRows(lake, `SELECT id, ints FROM lake.default.indexed_wide_${v2} ORDER BY id`)).to.deep.equal(wide);
      await lake.harness.query(
        `CREATE TABLE lake.default.indexed_bad_${v2} (id bigint, ints array(varchar)) WITH (external_location = '${location}')`,
      );
      expect(await lake.failure(`SELECT ints FROM lake.default.indexed_bad_${v2}`)).to.deep.equal({
        name: 'TYPE_MISMATCH',
        message: `Column 'ints' is declared as array(varchar), but the Parquet file ${lake.uri(`data/indexed-${v2}`)}a.parquet holds it as array(integer)`,
      });
      // The page index did narrow the read: the row group is read, but without its first id page.
      const plan = String((await lake.rows(`EXPLAIN ANALYZE SELECT id, ints FROM lake.default.indexed_${v2} WHERE id >= 6`))[0][0]);
      expect(plan).to.match(/bytesSkipped = [1-9]\d*, rowGroupsRead = 1, rowGroupsSkipped = 0/);
    });
  }

  for (const [label, rows, repetition, definition, message] of [
    ['a first value that continues a list', 2, [1, 0], [2, 2], 'the first value continues a list'],
    ['levels past the maximum', 2, [0, 0], [2, 3], "levels (0, 3) past the column's maximum (1, 2)"],
    ['fewer rows than the row group', 3, [0, 1, 0], [2, 2, 2], "column chunk holds 2 of the row group's 3 rows"],
  ] as const) {
    it(`a list column with ${label} fails naming the file, the column and what is wrong`, async () => {
      const folder = `data/bad-${label.replace(/\W+/g, '-')}`;
      const file = lake.file(`${folder}/a.parquet`, '');
      const schema = [
        { name: 'id_list', repetition: Repetition.Optional, numChildren: 1, convertedType: ConvertedType.List },
        { name: 'array', repetition: Repetition.Repeated, type: PhysicalType.Int32 },
      ];
      writeHandMadeFile(file, schema, 1, rows, [
        {
          path: ['id_list', 'array'],
          maxRepetition: 1,
          maxDefinition: 2,
          pages: [
            {
              firstRow: 0,
              repetition: [...repetition],
              definition: [...definition],
              values: definition.filter((d) => d === 2).map((_, i) => i),
            },
          ],
        },
      ]);
      const table = `lake.default.bad_${label.replace(/\W+/g, '_')}`;
      await lake.harness.query(`CREATE TABLE ${table} WITH (external_location = '${lake.uri(folder)}')`);
      const failure = await lake.failure(`SELECT id_list FROM ${table}`);
      expect(failure.name).to.equal('HIVE_BAD_DATA');
      expect(failure.message).to.include(file).and.include("column 'id_list'").and.include(message);
    });
  }

  it('reads the legacy layouts Parquet allows (two-level LIST, a bare repeated field) as DuckDB does, and lists of structs stay unreadable', async () => {
    const int32 = { type: PhysicalType.Int32 };
    // [1, 2], NULL, [], [3]
    const twoLevel = lake.file('data/legacy-two/a.parquet', '');
    writeHandMadeFile(
      twoLevel,
      [
        { name: 'id_list', repetition: Repetition.Optional, numChildren: 1, convertedType: ConvertedType.List },
        { name: 'array', repetition: Repetition.Repeated, ...int32 },
      ],
      1,
      4,
      [
        {
          path: ['id_list', 'array'],
          maxRepetition: 1,
          maxDefinition: 2,
          pages: [{ firstRow: 0, repetition: [0, 1, 0, 0, 0], definition: [2, 2, 0, 1, 2], values: [1, 2, 3] }],
        },
      ],
    );
    // [1, 2], [], [3]
    const bare = lake.file('data/legacy-bare/a.parquet', '');
    writeHandMadeFile(bare, [{ name: 'id_list', repetition: Repetition.Repeated, ...int32 }], 1, 3, [
      {
        path: ['id_list'],
        maxRepetition: 1,
        maxDefinition: 1,
        pages: [{ firstRow: 0, repetition: [0, 1, 0, 0], definition: [1, 1, 0, 1], values: [1, 2, 3] }],
      },
    ]);
    // [{x: 1}, {x: 2}], [] as a repeated group named `array`: its elements are structs.
    const structs = lake.file('data/legacy-structs/a.parquet', '');
    writeHandMadeFile(
      structs,
      [
        { name: 'id_list', repetition: Repetition.Required, numChildren: 1, convertedType: ConvertedType.List },
        { name: 'array', repetition: Repetition.Repeated, numChildren: 1 },
        { name: 'x', repetition: Repetition.Required, ...int32 },
      ],
      1,
      2,
      [
        {
          path: ['id_list', 'array', 'x'],
          maxRepetition: 1,
          maxDefinition: 1,
          pages: [{ firstRow: 0, repetition: [0, 1, 0], definition: [1, 1, 0], values: [1, 2] }],
        },
      ],
    );
    for (const [name, path] of [
      ['legacy_two', twoLevel],
      ['legacy_bare', bare],
    ]) {
      await lake.harness.query(
        `CREATE TABLE lake.default.${name} WITH (external_location = '${lake.uri(`data/${name.replace('_', '-')}`)}')`,
      );
      expect((await lake.rows(`DESCRIBE lake.default.${name}`)).map((r) => r.slice(0, 2))).to.deep.equal([['id_list', 'array(integer)']]);
      const duck = (await duckDbRows(`SELECT to_json(id_list)::VARCHAR FROM read_parquet('${path}')`)).map(([json]) => [
        json === null ? null : JSON.parse(json as string),
      ]);
      expect(duck.length).to.be.greaterThan(2);
      expect(await clientRows(lake, `SELECT id_list FROM lake.default.${name}`, -1)).to.deep.equal(duck);
    }
    await lake.harness.query(`CREATE TABLE lake.default.legacy_structs WITH (external_location = '${lake.uri('data/legacy-structs')}')`);
    expect((await lake.rows('DESCRIBE lake.default.legacy_structs')).map((r) => r.slice(0, 2))).to.deep.equal([
      ['id_list', 'array(row(x integer))'],
    ]);
    expect(await lake.failure('SELECT id_list FROM lake.default.legacy_structs')).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: "line 1:8: Column 'id_list' has type array(row(x integer)), which is not supported yet",
    });
  });
});

describe('lake: writing array columns', function () {
  this.timeout(60_000);
  let lake: LakeFixture;
  before(async () => {
    lake = LakeFixture.create();
    // Timestamps as DuckDB's files hold them (micros): the catalog's precision says which.
    await lake.harness.query("SET SESSION lake.timestamp_precision = 'MICROSECONDS'");
  });
  after(() => lake.remove());

  it('CREATE TABLE AS writes array columns to Parquet that DuckDB reads back equal, and so do we', async () => {
    const columns: ListCase[] = [
      {
        name: 'ints',
        sql: 'CASE WHEN o_orderkey % 5 = 0 THEN NULL WHEN o_orderkey % 5 = 1 THEN CAST(ARRAY[] AS array(integer)) ELSE ARRAY[CAST(o_custkey AS integer), NULL, -7] END',
        type: 'array(integer)',
      },
      { name: 'words', sql: "ARRAY[o_orderstatus, o_orderpriority, NULL, 'x' || o_clerk]", type: 'array(varchar(16))' },
      { name: 'bigs', sql: 'ARRAY[o_orderkey * 1000003]', type: 'array(bigint)' },
      { name: 'dbls', sql: 'ARRAY[CAST(o_totalprice AS double) / 7, NULL]', type: 'array(double)' },
      {
        name: 'decs',
        sql: 'CASE WHEN o_orderkey % 7 = 0 THEN NULL ELSE ARRAY[o_totalprice, NULL] END',
        type: 'array(decimal(12,2))',
        render: 'x::VARCHAR',
      },
      {
        name: 'wide_decs',
        sql: 'ARRAY[CAST(o_totalprice AS decimal(30,4)) * 1000000000]',
        type: 'array(decimal(38,4))',
        render: 'x::VARCHAR',
      },
      { name: 'days', sql: 'ARRAY[o_orderdate, NULL]', type: 'array(date)', render: 'x::VARCHAR' },
      {
        name: 'stamps',
        sql: "ARRAY[CAST(o_orderdate AS timestamp(6)) + INTERVAL '1' SECOND * o_shippriority]",
        type: 'array(timestamp(6))',
        render: "strftime(x, '%Y-%m-%d %H:%M:%S.%f')",
      },
      {
        name: 'nested',
        sql: 'CASE WHEN o_orderkey % 3 = 0 THEN ARRAY[ARRAY[o_orderkey, NULL], NULL, CAST(ARRAY[] AS array(bigint))] WHEN o_orderkey % 3 = 1 THEN NULL ELSE CAST(ARRAY[] AS array(array(bigint))) END',
        type: 'array(array(bigint))',
      },
    ];
    const select = `SELECT o_orderkey AS id, ${columns.map((c) => `${c.sql} AS ${c.name}`).join(', ')} FROM tpch.tiny.orders`;
    expect(await lake.rows(`CREATE TABLE lake.default.written AS ${select}`)).to.deep.equal([['15000']]);
    expect((await lake.rows('DESCRIBE lake.default.written')).map((r) => r.slice(0, 2))).to.deep.equal([
      ['id', 'bigint'],
      ...columns.map((c) => [c.name, c.type]),
    ]);
    // SHOW STATS lists the array columns without figures (their chunks carry no statistics).
    const stats = await lake.rows('SHOW STATS FOR lake.default.written');
    expect(stats.map((r) => r[0])).to.deep.equal(['id', ...columns.map((c) => c.name), null]);
    expect(stats[1].slice(1)).to.deep.equal([null, null, null, null, null, null]);
    const files = `read_parquet('${lake.path('catalog/default/written')}/*.parquet')`;
    for (const c of columns) {
      const expected = await clientRows(lake, `SELECT id, ${c.name} FROM (${select}) ORDER BY id`);
      const render = c.render === undefined ? c.name : `list_transform(${c.name}, x -> ${c.render})`;
      const duck = (await duckDbRows(`SELECT id, to_json(${render})::VARCHAR FROM ${files} ORDER BY id`)).map(([id, json]) => [
        id,
        json === null ? null : JSON.parse(json as string),
      ]);
      expect(duck, c.name).to.deep.equal(expected);
      expect(await clientRows(lake, `SELECT id, ${c.name} FROM lake.default.written ORDER BY id`), c.name).to.deep.equal(expected);
    }
  });

  for (const format of ['CSV', 'JSON']) {
    it(`CREATE TABLE AS of an array column (${format}) fails with NOT_SUPPORTED naming the column, and leaves no table`, async () => {
      const failure = await lake.failure(
        `CREATE TABLE lake.default.arrays_${format} WITH (format = '${format}') AS SELECT 1 AS id, ARRAY[1, 2] AS tags`,
      );
      expect(failure).to.deep.equal({
        name: 'NOT_SUPPORTED',
        message: `Column 'tags' of type array(integer) is not supported in ${format} tables: use format = 'PARQUET'`,
      });
      expect(await lake.rows(`SHOW TABLES FROM lake.default LIKE 'arrays_${format.toLowerCase()}'`)).to.deep.equal([]);
    });
  }

  it('an array partition column fails with NOT_SUPPORTED naming it', async () => {
    expect(
      await lake.failure(
        "CREATE TABLE lake.default.arrays_partitioned (id integer, tags array(integer)) WITH (partitioned_by = ARRAY['tags'])",
      ),
    ).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'Unsupported type [array(integer)] for partition: tags',
    });
  });
});
