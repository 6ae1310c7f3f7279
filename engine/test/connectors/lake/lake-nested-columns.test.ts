// A lake table over Parquet files with nested columns (lists, maps, structs): lists of primitives
// read as arrays (lake-list-columns.test.ts has their values), maps of primitives as maps
// (lake-map-columns.test.ts), structs as rows (lake-struct-columns.test.ts); the engine reads no
// lists of structs yet, so it lists those with Trino's type names (DESCRIBE, SHOW COLUMNS,
// information_schema, the file metastore's Hive names) and refuses every reference to one with
// NOT_SUPPORTED naming the column and its type, at the reference's position; the other columns of
// the same files read as DuckDB reads them.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fromHiveType, toHiveType } from '../../../src/connectors/hive/metastore/hive-types.js';
import {
  BIGINT,
  INTEGER,
  VARCHAR,
  arrayOf,
  mapOf,
  rowOf,
  timestamp,
  typeName,
  unsupportedType,
  varchar,
} from '../../../src/types/types.js';
import { LakeFixture, duckDbRows } from './lake-fixture.js';

describe('lake: nested Parquet columns', function () {
  this.timeout(60_000);
  let lake: LakeFixture;
  let path: string;

  before(async () => {
    lake = LakeFixture.create();
    path = lake.path('data/nested/a.parquet');
    lake.file('data/nested/a.parquet', '');
    await duckDbRows(
      `COPY (SELECT i AS id, [i::INTEGER, (i + 1)::INTEGER] AS tags, {'a': i::INTEGER, 'b': 'x' || i} AS info, MAP {'k': i} AS attrs, [[{'z': 1.5::DOUBLE}]] AS deep, 'n' || i AS name FROM range(1000) r(i)) TO '${path}' (FORMAT PARQUET)`,
    );
    await lake.harness.query(`CREATE TABLE lake.default.nested WITH (external_location = '${lake.uri('data/nested')}')`);
  });
  after(() => lake.remove());

  const COLUMNS = [
    ['id', 'bigint'],
    ['tags', 'array(integer)'],
    ['info', 'row("a" integer, "b" varchar)'],
    ['attrs', 'map(varchar, bigint)'],
    ['deep', 'array(array(row(z double)))'],
    ['name', 'varchar'],
  ];

  it('lists every column of the files with Trino type names: DESCRIBE, SHOW COLUMNS, information_schema', async () => {
    expect((await lake.rows('DESCRIBE lake.default.nested')).map((r) => r.slice(0, 2))).to.deep.equal(COLUMNS);
    expect((await lake.rows('SHOW COLUMNS FROM lake.default.nested')).map((r) => r.slice(0, 2))).to.deep.equal(COLUMNS);
    expect(
      await lake.rows(
        "SELECT column_name, data_type FROM lake.information_schema.columns WHERE table_name = 'nested' ORDER BY ordinal_position",
      ),
    ).to.deep.equal(COLUMNS);
    // DuckDB's names for the same columns, for the flat ones and the shape of the nested ones.
    const duck = await duckDbRows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${path}'))`);
    expect(duck).to.deep.equal([
      ['id', 'BIGINT'],
      ['tags', 'INTEGER[]'],
      ['info', 'STRUCT(a INTEGER, b VARCHAR)'],
      ['attrs', 'MAP(VARCHAR, BIGINT)'],
      ['deep', 'STRUCT(z DOUBLE)[][]'],
      ['name', 'VARCHAR'],
    ]);
  });

  it('keeps them in the file metastore with Hive type names', () => {
    const table = JSON.parse(readFileSync(lake.path('catalog/default/nested/.trinoSchema'), 'utf8')) as {
      dataColumns: { name: string; type: string }[];
    };
    expect(table.dataColumns.map((c) => [c.name, c.type])).to.deep.equal([
      ['id', 'bigint'],
      ['tags', 'array<int>'],
      ['info', 'struct<a:int,b:string>'],
      ['attrs', 'map<string,bigint>'],
      ['deep', 'array<array<struct<z:double>>>'],
      ['name', 'string'],
    ]);
    // An entry Trino wrote (Hive names only) reads back with Trino's names.
    expect(typeName(fromHiveType({ type: 'map<string,array<struct<a:decimal(10,2),b:timestamp>>>' }, 't'))).to.equal(
      'map(varchar, array(row(a decimal(10,2), b timestamp(3))))',
    );
    expect(toHiveType(unsupportedType('row(a varchar(3), b array(real))'), 'c')).to.deep.equal({
      type: 'struct<a:varchar(3),b:array<float>>',
      engineType: 'row(a varchar(3), b array(real))',
    });
    // Arrays and maps of types we have are arrays and maps, both ways; an array of structs stays a name.
    expect(fromHiveType({ type: 'map<string,bigint>' }, 't')).to.deep.equal(mapOf(VARCHAR, BIGINT));
    expect(fromHiveType(toHiveType(mapOf(INTEGER, arrayOf(timestamp(6))), 'c'), 't')).to.deep.equal(mapOf(INTEGER, arrayOf(timestamp(6))));
    expect(fromHiveType({ type: 'array<int>' }, 't')).to.deep.equal(arrayOf(INTEGER));
    expect(typeName(fromHiveType({ type: 'array<array<decimal(10,2)>>' }, 't'))).to.equal('array(array(decimal(10,2)))');
    expect(fromHiveType({ type: 'array<struct<a:int>>' }, 't')).to.deep.equal(unsupportedType('array(row(a integer))'));
    // Structs of types we have are rows, both ways; a struct holding an array or map stays a name.
    expect(fromHiveType({ type: 'struct<a:int,b:struct<c:string>>' }, 't')).to.deep.equal(
      rowOf([
        { name: 'a', type: INTEGER },
        { name: 'b', type: rowOf([{ name: 'c', type: varchar() }]) },
      ]),
    );
    expect(toHiveType(rowOf([{ name: 'a', type: timestamp(6) }]), 'c')).to.deep.equal({
      type: 'struct<a:timestamp>',
      engineType: 'row(a timestamp(6))',
    });
    expect(fromHiveType(toHiveType(rowOf([{ name: 'a', type: timestamp(6) }]), 'c'), 't')).to.deep.equal(
      rowOf([{ name: 'a', type: timestamp(6) }]),
    );
    expect(fromHiveType({ type: 'struct<a:array<int>>' }, 't')).to.deep.equal(unsupportedType('row(a array(integer))'));
    expect(toHiveType(arrayOf(arrayOf(timestamp(6))), 'c')).to.deep.equal({
      type: 'array<array<timestamp>>',
      engineType: 'array(array(timestamp(6)))',
    });
    expect(fromHiveType(toHiveType(arrayOf(arrayOf(timestamp(6))), 'c'), 't')).to.deep.equal(arrayOf(arrayOf(timestamp(6))));
  });

  it('reads the flat columns as DuckDB does, in this thread and on worker threads, and counts rows', async () => {
    const sql = (from: string) => `SELECT count(*), sum(id), min(name), max(name) FROM ${from} WHERE id % 7 = 3`;
    const duck = await duckDbRows(sql(`read_parquet('${path}')`));
    for (const minSplits of [0, 1]) {
      await lake.harness.query(`SET SESSION parallel_min_splits = ${minSplits}`);
      expect(await lake.rows(sql('lake.default.nested'))).to.deep.equal(duck);
    }
    expect(await lake.rows('SELECT count(*) FROM lake.default.nested')).to.deep.equal([['1000']]);
  });

  it('SHOW STATS lists every column, the nested ones without figures, the others from the footers as DuckDB counts them', async () => {
    const stats = await lake.rows('SHOW STATS FOR lake.default.nested');
    expect(stats.map((r) => r[0])).to.deep.equal([...COLUMNS.map(([name]) => name), null]);
    const [[low, high, count]] = await duckDbRows(
      `SELECT min(id)::VARCHAR, max(id)::VARCHAR, count(*)::DOUBLE FROM read_parquet('${path}')`,
    );
    expect(stats[0].slice(3)).to.deep.equal([0, null, low, high]);
    expect(stats[1].slice(1)).to.deep.equal([null, null, null, null, null, null]);
    expect(stats[stats.length - 1][4]).to.equal(count);
  });

  it('INSERT into such a table fails naming the column and its type', async () => {
    expect(await lake.failure('INSERT INTO lake.default.nested (id) VALUES (1)')).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: "line 1:1: Cannot insert into a table with column 'deep' of type array(array(row(z double))), which is not supported yet",
    });
  });

  it('reads the map column attrs as DuckDB does', async () => {
    const duck = await duckDbRows(
      `SELECT id, map_extract_value(attrs, 'k'), cardinality(attrs) FROM read_parquet('${path}') WHERE id % 97 = 5 ORDER BY id`,
    );
    expect(
      await lake.rows("SELECT id, attrs['k'], cardinality(attrs) FROM lake.default.nested WHERE id % 97 = 5 ORDER BY id"),
    ).to.deep.equal(duck);
  });

  it('reads the list column tags as DuckDB does', async () => {
    const duck = await duckDbRows(`SELECT id, tags[1], tags[2], len(tags) FROM read_parquet('${path}') WHERE id % 97 = 5 ORDER BY id`);
    expect(
      await lake.rows('SELECT id, tags[1], tags[2], cardinality(tags) FROM lake.default.nested WHERE id % 97 = 5 ORDER BY id'),
    ).to.deep.equal(duck);
  });

  it('reads the struct column info as DuckDB does', async () => {
    const duck = await duckDbRows(`SELECT id, info.a, info.b FROM read_parquet('${path}') WHERE id % 97 = 5 ORDER BY id`);
    expect(
      await lake.rows('SELECT id, info.a, info[2] FROM lake.default.nested WHERE info IS NOT NULL AND id % 97 = 5 ORDER BY id'),
    ).to.deep.equal(duck);
  });

  for (const [sql, column, type, position] of [
    ['SELECT * FROM lake.default.nested', 'deep', 'array(array(row(z double)))', '1:8'],
    ['SELECT n.deep FROM lake.default.nested n', 'deep', 'array(array(row(z double)))', '1:8'],
  ]) {
    it(`${sql}: NOT_SUPPORTED naming ${column} and its type`, async () => {
      const failure = await lake.failure(sql);
      expect(failure).to.deep.equal({
        name: 'NOT_SUPPORTED',
        message: `line ${position}: Column '${column}' has type ${type}, which is not supported yet`,
      });
      expect(await lake.rows('SELECT max(id) FROM lake.default.nested')).to.deep.equal([['999']]);
    });
  }
});
