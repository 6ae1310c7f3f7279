// Parquet MAP columns read as map(K, V): DuckDB writes the files (NULL maps, empty maps, NULL
// values, keys and values of several types, several row groups, dictionaries, its v2 encodings) and
// every map we read equals DuckDB's, entry by entry in order; functions, UNNEST and predicates over
// a lake map column give DuckDB's answers, in this thread and on worker threads. CREATE TABLE AS
// writes map columns in Parquet's MAP layout that DuckDB reads back equal (and so do we); CSV and
// JSON tables and partition columns refuse maps.

import { expect } from 'chai';
import { DuckDBMapValue } from '@duckdb/node-api';
import { MapValue } from '../../../src/types/map-value.js';
import { formatValueAsText } from '../../../src/types/values.js';
import { ConvertedType, PhysicalType, Repetition } from '../../../src/connectors/hive/formats/parquet/parquet-constants.js';
import { DUCKDB_PARQUET_LAYOUTS, LakeFixture, duckDbRows } from './lake-fixture.js';
import { writeHandMadeFile } from './parquet/hand-made-list-file.js';

/** A column of the test file: DuckDB's expression for it, its type in DESCRIBE. */
interface MapCase {
  name: string;
  sql: string;
  type: string;
}

const CASES: MapCase[] = [
  {
    name: 'counts',
    sql: "CASE WHEN i % 11 = 0 THEN NULL WHEN i % 7 = 0 THEN MAP {}::MAP(VARCHAR, BIGINT) ELSE MAP {'a' || (i % 5): i, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE -i END} END",
    type: 'map(varchar, bigint)',
  },
  { name: 'by_id', sql: 'MAP([i::INTEGER, (i + 1)::INTEGER], [(i / 4)::DOUBLE, NULL])', type: 'map(integer, double)' },
  {
    name: 'decs',
    sql: 'MAP([(i % 9)::DECIMAL(10,2)], [12345678901234.5678::DECIMAL(20,4) + i])',
    type: 'map(decimal(10,2), decimal(24,4))',
  },
  {
    name: 'days',
    sql: "CASE WHEN i % 4 = 0 THEN NULL ELSE MAP([DATE '2024-01-01' + (i % 400)::INTEGER], ['d' || i]) END",
    type: 'map(date, varchar)',
  },
  { name: 'flags', sql: 'MAP([i % 2 = 0], [i::SMALLINT])', type: 'map(boolean, smallint)' },
];

const SELECT_CASES = CASES.map((c) => `${c.sql} AS ${c.name}`).join(', ');

/** A map (ours or DuckDB's) as text, entries in order; other values as text. */
function text(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (v instanceof MapValue) return `{${v.keys.map((k, i) => `${text(k)}=${text(v.values[i])}`).join(', ')}}`;
  if (v instanceof DuckDBMapValue) return `{${v.entries.map((e) => `${text(e.key)}=${text(e.value)}`).join(', ')}}`;
  return String(v);
}

/** Our rows with every map value's keys and values rendered as DuckDB renders them when cast to text. */
async function ourText(lake: LakeFixture, sql: string): Promise<string[][]> {
  const { rows, result } = await lake.harness.query(sql);
  return rows.map((row) => row.map((v, i) => (v instanceof MapValue ? mapText(v, result.columns[i].type) : text(v))));
}

function mapText(map: MapValue, type: import('../../../src/types/types.js').SqlType): string {
  const { key, value } = type as {
    key: import('../../../src/types/types.js').SqlType;
    value: import('../../../src/types/types.js').SqlType;
  };
  return `{${map.keys.map((k, i) => `${formatValueAsText(k, key)}=${formatValueAsText(map.values[i], value)}`).join(', ')}}`;
}

/** DuckDB's rows, a map column cast to MAP(VARCHAR, VARCHAR) so that keys and values render as text. */
async function duckText(sql: string): Promise<string[][]> {
  return (await duckDbRows(sql)).map((row) => row.map(text));
}

/** DuckDB's text of a map whose keys and values are cast to varchar (doubles as Java prints them: 1.0). */
function duckMapAsText(column: string, type: string): string {
  const cast = (part: string, t: string) =>
    t === 'double'
      ? `CASE WHEN ${part} = floor(${part}) THEN printf('%.1f', ${part}) ELSE ${part}::VARCHAR END`
      : t === 'boolean'
        ? `lower(${part}::VARCHAR)`
        : `${part}::VARCHAR`;
  const [, k, v] = /^map\(([^,]+(?:,\d+\))?), (.+)\)$/.exec(type) as RegExpExecArray;
  return `MAP(list_transform(map_keys(${column}), x -> ${cast('x', k.replace(/\(.*/, ''))}), list_transform(map_values(${column}), x -> ${cast('x', v.replace(/\(.*/, ''))}))`;
}

describe('lake: Parquet MAP columns as maps', function () {
  this.timeout(120_000);
  let lake: LakeFixture;

  before(async () => {
    lake = LakeFixture.create();
  });
  after(() => lake.remove());

  for (const [label, options] of DUCKDB_PARQUET_LAYOUTS) {
    it(`reads every map as DuckDB does: ${label}`, async () => {
      const { path, table } = await lake.duckDbTable(`m_${label.replace(/\W+/g, '_')}`, `i AS id, ${SELECT_CASES}`, options);
      const described = (await lake.rows(`DESCRIBE ${table}`)).map((r) => r.slice(0, 2));
      expect(described).to.deep.equal([['id', 'bigint'], ...CASES.map((c) => [c.name, c.type])]);
      for (const c of CASES) {
        const duck = await duckText(`SELECT id, ${duckMapAsText(c.name, c.type)} FROM read_parquet('${path}') ORDER BY id`);
        expect(await ourText(lake, `SELECT id, ${c.name} FROM ${table} ORDER BY id`), c.name).to.deep.equal(duck);
      }
    });
  }

  it('functions, UNNEST and predicates over a lake map column give DuckDB answers, in this thread and on worker threads', async () => {
    lake.file('data/map-queries/a.parquet', '');
    const path = lake.path('data/map-queries/a.parquet');
    await duckDbRows(`COPY (SELECT i AS id, ${SELECT_CASES} FROM range(5000) r(i)) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)`);
    await lake.harness.query(`CREATE TABLE lake.default.map_queries WITH (external_location = '${lake.uri('data/map-queries')}')`);
    const checks: [string, string][] = [
      [
        'SELECT count(*), count(counts), sum(cardinality(counts)), sum(cardinality(by_id)) FROM lake.default.map_queries',
        'SELECT count(*), count(counts), sum(cardinality(counts)), sum(cardinality(by_id)) FROM read_parquet(?)',
      ],
      [
        'SELECT k, count(*), count(v), sum(v) FROM lake.default.map_queries CROSS JOIN UNNEST(counts) AS u(k, v) GROUP BY k ORDER BY k',
        'SELECT k, count(*), count(v), sum(v) FROM (SELECT unnest(map_keys(counts)) AS k, unnest(map_values(counts)) AS v FROM read_parquet(?)) GROUP BY k ORDER BY k',
      ],
      [
        "SELECT id, element_at(counts, 'b'), by_id[CAST(id AS integer)] FROM lake.default.map_queries WHERE id BETWEEN 4090 AND 4100 ORDER BY id",
        "SELECT id, map_extract_value(counts, 'b'), map_extract_value(by_id, id::INTEGER) FROM read_parquet(?) WHERE id BETWEEN 4090 AND 4100 ORDER BY id",
      ],
      ['SELECT count(*) FROM lake.default.map_queries WHERE days IS NULL', 'SELECT count(*) FROM read_parquet(?) WHERE days IS NULL'],
      [
        "SELECT count(*) FROM lake.default.map_queries WHERE element_at(counts, 'b') < -100",
        "SELECT count(*) FROM read_parquet(?) WHERE map_extract_value(counts, 'b') < -100",
      ],
    ];
    for (const minSplits of [0, 1]) {
      await lake.harness.query(`SET SESSION parallel_min_splits = ${minSplits}`);
      for (const [ours, duck] of checks) {
        expect(await lake.rows(ours), ours).to.deep.equal(await duckDbRows(duck.replace('?', `'${path}'`)));
      }
    }
  });

  it('CREATE TABLE AS writes map columns to Parquet that DuckDB reads back equal, and so do we', async () => {
    const columns: MapCase[] = [
      {
        name: 'counts',
        sql: "CASE WHEN o_orderkey % 5 = 0 THEN NULL WHEN o_orderkey % 5 = 1 THEN CAST(map() AS map(varchar, bigint)) ELSE MAP(ARRAY[o_orderstatus, 'x'], ARRAY[o_custkey, NULL]) END",
        type: 'map(varchar, bigint)',
      },
      { name: 'prices', sql: 'MAP(ARRAY[o_orderkey], ARRAY[o_totalprice])', type: 'map(bigint, decimal(12,2))' },
      {
        name: 'dbls',
        sql: 'MAP(ARRAY[CAST(o_shippriority AS integer)], ARRAY[CAST(o_totalprice AS double) / 7])',
        type: 'map(integer, double)',
      },
      { name: 'days', sql: 'MAP(ARRAY[o_orderdate], ARRAY[o_orderpriority])', type: 'map(date, varchar(15))' },
    ];
    const select = `SELECT o_orderkey AS id, ${columns.map((c) => `${c.sql} AS ${c.name}`).join(', ')} FROM tpch.tiny.orders`;
    expect(await lake.rows(`CREATE TABLE lake.default.written_maps AS ${select}`)).to.deep.equal([['15000']]);
    expect((await lake.rows('DESCRIBE lake.default.written_maps')).map((r) => r.slice(0, 2))).to.deep.equal([
      ['id', 'bigint'],
      ...columns.map((c) => [c.name, c.type]),
    ]);
    const files = `read_parquet('${lake.path('catalog/default/written_maps')}/*.parquet')`;
    for (const c of columns) {
      const expected = await ourText(lake, `SELECT id, ${c.name} FROM (${select}) ORDER BY id`);
      expect(await duckText(`SELECT id, ${duckMapAsText(c.name, c.type)} FROM ${files} ORDER BY id`), c.name).to.deep.equal(expected);
      expect(await ourText(lake, `SELECT id, ${c.name} FROM lake.default.written_maps ORDER BY id`), c.name).to.deep.equal(expected);
    }
  });

  // Hand-made MAP columns of INT32 keys and values: two rows, levels given per chunk.
  for (const [label, keyOptional, keyLevels, valueLevels, message] of [
    [
      'keys and values of different entry counts',
      false,
      { r: [0, 1, 0], d: [2, 2, 2] },
      { r: [0, 0], d: [3, 3] },
      "the map's keys and values differ in their entries at row 0",
    ],
    [
      'a NULL map on one side only',
      false,
      { r: [0, 0], d: [0, 2] },
      { r: [0, 0], d: [1, 3] },
      "the map's keys and values differ in whether row 0 is NULL",
    ],
    ['a NULL key (an optional key field)', true, { r: [0, 0], d: [2, 3] }, { r: [0, 0], d: [3, 3] }, 'a map key is NULL'],
  ] as const) {
    it(`a map column with ${label} fails naming the file, the column and what is wrong`, async () => {
      const folder = `data/bad-map-${label.replace(/\W+/g, '-')}`;
      const file = lake.file(`${folder}/a.parquet`, '');
      const int32 = { type: PhysicalType.Int32 };
      const schema = [
        { name: 'm', repetition: Repetition.Optional, numChildren: 1, convertedType: ConvertedType.Map },
        { name: 'key_value', repetition: Repetition.Repeated, numChildren: 2 },
        { name: 'key', repetition: keyOptional ? Repetition.Optional : Repetition.Required, ...int32 },
        { name: 'value', repetition: Repetition.Optional, ...int32 },
      ];
      const keyMax = keyOptional ? 3 : 2;
      const page = (levels: { r: readonly number[]; d: readonly number[] }, max: number) => ({
        firstRow: 0,
        repetition: [...levels.r],
        definition: [...levels.d],
        values: levels.d.filter((d) => d === max).map((_, i) => i),
      });
      writeHandMadeFile(file, schema, 1, 2, [
        { path: ['m', 'key_value', 'key'], maxRepetition: 1, maxDefinition: keyMax, pages: [page(keyLevels, keyMax)] },
        { path: ['m', 'key_value', 'value'], maxRepetition: 1, maxDefinition: 3, pages: [page(valueLevels, 3)] },
      ]);
      const table = `lake.default.bad_map_${label.replace(/\W+/g, '_')}`;
      await lake.harness.query(`CREATE TABLE ${table} WITH (external_location = '${lake.uri(folder)}')`);
      expect((await lake.rows(`DESCRIBE ${table}`)).map((r) => r.slice(0, 2))).to.deep.equal([['m', 'map(integer, integer)']]);
      const failure = await lake.failure(`SELECT m FROM ${table}`);
      expect(failure.name).to.equal('HIVE_BAD_DATA');
      expect(failure.message).to.include(file).and.include("column 'm'").and.include(message);
    });
  }

  it('a hand-made MAP column reads as DuckDB reads it', async () => {
    const file = lake.file('data/good-map/a.parquet', '');
    const int32 = { type: PhysicalType.Int32 };
    const schema = [
      { name: 'm', repetition: Repetition.Optional, numChildren: 1, convertedType: ConvertedType.Map },
      { name: 'key_value', repetition: Repetition.Repeated, numChildren: 2 },
      { name: 'key', repetition: Repetition.Required, ...int32 },
      { name: 'value', repetition: Repetition.Optional, ...int32 },
    ];
    // Rows: NULL, {}, {10=NULL, 11=7}, {12=8}.
    writeHandMadeFile(file, schema, 1, 4, [
      {
        path: ['m', 'key_value', 'key'],
        maxRepetition: 1,
        maxDefinition: 2,
        pages: [{ firstRow: 0, repetition: [0, 0, 0, 1, 0], definition: [0, 1, 2, 2, 2], values: [10, 11, 12] }],
      },
      {
        path: ['m', 'key_value', 'value'],
        maxRepetition: 1,
        maxDefinition: 3,
        pages: [{ firstRow: 0, repetition: [0, 0, 0, 1, 0], definition: [0, 1, 2, 3, 3], values: [7, 8] }],
      },
    ]);
    await lake.harness.query(`CREATE TABLE lake.default.good_map WITH (external_location = '${lake.uri('data/good-map')}')`);
    const duck = await duckText(`SELECT m FROM read_parquet('${file}')`);
    expect(duck).to.deep.equal([['NULL'], ['{}'], ['{10=NULL, 11=7}'], ['{12=8}']]);
    expect(await ourText(lake, 'SELECT m FROM lake.default.good_map')).to.deep.equal(duck);
  });

  for (const format of ['CSV', 'JSON']) {
    it(`CREATE TABLE AS of a map column (${format}) fails with NOT_SUPPORTED naming the column, and leaves no table`, async () => {
      const failure = await lake.failure(
        `CREATE TABLE lake.default.maps_${format} WITH (format = '${format}') AS SELECT 1 AS id, MAP(ARRAY[1], ARRAY[2]) AS attrs`,
      );
      expect(failure).to.deep.equal({
        name: 'NOT_SUPPORTED',
        message: `Column 'attrs' of type map(integer, integer) is not supported in ${format} tables: use format = 'PARQUET'`,
      });
      expect(await lake.rows(`SHOW TABLES FROM lake.default LIKE 'maps_${format.toLowerCase()}'`)).to.deep.equal([]);
    });
  }

  it('a map partition column, and a map of arrays written to Parquet, fail with NOT_SUPPORTED naming them', async () => {
    expect(
      await lake.failure(
        "CREATE TABLE lake.default.maps_partitioned (id integer, attrs map(integer, integer)) WITH (partitioned_by = ARRAY['attrs'])",
      ),
    ).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'Unsupported type [map(integer, integer)] for partition: attrs',
    });
    const nested = await lake.failure('CREATE TABLE lake.default.maps_nested AS SELECT MAP(ARRAY[1], ARRAY[ARRAY[2]]) AS attrs');
    expect(nested.name).to.equal('NOT_SUPPORTED');
    expect(nested.message).to.contain("Column 'attrs' of type map(integer, array(integer)) cannot be written to a Parquet file");
  });
});
