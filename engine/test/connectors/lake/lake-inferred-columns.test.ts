// CREATE TABLE without a column list (beyond Trino): the columns come from the first file, and
// DESCRIBE shows them. Parquet's from its footer, checked against DuckDB's DESCRIBE of read_parquet
// on the same file (its type names mapped to Trino's); CSV's from the header line (a repeated name
// gets a suffix, as DuckDB's read_csv names it); JSON's from sampled records, typed by the literal
// text of their numbers (`1.0` is a double, a 20-digit integer a decimal(38,0)).

import { expect } from 'chai';
import { LakeFixture, duckDbRows } from './lake-fixture.js';

/** Trino's name of the type DuckDB names (for the types a Parquet file holds), timestamps at the catalog's precision `digits`. */
function trinoName(duck: string, digits: number): string {
  const names: Record<string, string> = {
    UTINYINT: 'smallint',
    USMALLINT: 'integer',
    UINTEGER: 'bigint',
    UBIGINT: 'decimal(20,0)',
    FLOAT: 'real',
    BLOB: 'varbinary',
    UUID: 'varchar',
  };
  // Every timestamp column reads at the catalog's timestamp precision (Hive's metastore has one timestamp type);
  // the engine has no timestamp with time zone yet, so an instant reads as its UTC wall time (parquet-format.ts).
  if (duck.startsWith('TIMESTAMP')) return `timestamp(${digits})`;
  return names[duck] ?? duck.toLowerCase();
}

describe('lake: columns inferred from the files', function () {
  this.timeout(60_000);
  let lake: LakeFixture;

  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  it("Parquet: the footer's columns, as DuckDB's DESCRIBE of read_parquet names them", async () => {
    const path = lake.file('data/types/a.parquet', '');
    await duckDbRows(
      `COPY (SELECT i::TINYINT a, i::SMALLINT b, i::INTEGER c, i::BIGINT d, i::UTINYINT e, i::USMALLINT f, i::UINTEGER g, i::UBIGINT h, i::FLOAT fl, i::DOUBLE j, i % 2 = 0 k, 'x' || i l, ('ab' || i)::BLOB m, DATE '2024-01-02' + i::INTEGER n, i::DECIMAL(9,2) o, i::DECIMAL(18,4) p, i::DECIMAL(38,10) q, TIMESTAMP '2024-01-02 03:04:05.123456' r, '2024-01-02 03:04:05.123'::TIMESTAMP_MS s, '2024-01-02 03:04:05.123456789'::TIMESTAMP_NS t, uuid() v, TIMESTAMPTZ '2024-01-02 03:04:05+00' w, i::HUGEINT x FROM range(100) r(i)) TO '${path}' (FORMAT PARQUET)`,
    );
    await lake.harness.query(`CREATE TABLE lake.default.types WITH (external_location = '${lake.uri('data/types')}')`);
    const duck = await duckDbRows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${path}'))`);
    for (const [precision, digits] of [
      ['MILLISECONDS', 3],
      ['MICROSECONDS', 6],
      ['NANOSECONDS', 9],
    ] as const) {
      await lake.harness.query(`SET SESSION lake.timestamp_precision = '${precision}'`);
      const expected = duck.map(([name, type]) => [name, trinoName(String(type), digits)]);
      expect((await lake.rows('DESCRIBE lake.default.types')).map((r) => r.slice(0, 2))).to.deep.equal(expected);
    }
    const sql = (from: string) => `SELECT count(*), sum(d), sum(h), max(l), CAST(max(n) AS varchar), CAST(sum(q) AS varchar) FROM ${from}`;
    expect(await lake.rows(sql('lake.default.types'))).to.deep.equal(await duckDbRows(sql(`read_parquet('${path}')`)));
  });

  it("CSV: the header's names, a repeated one suffixed as DuckDB's read_csv does", async () => {
    const path = lake.file('data/header/a.csv', 'Id,Name,name,Score,name_1\n1,ann,ANN,3.5,x\n2,bob,BOB,4,y\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.header WITH (format = 'CSV', skip_header_line_count = 1, external_location = '${lake.uri('data/header')}')`,
    );
    const ours = await lake.rows('DESCRIBE lake.default.header');
    const duck = await duckDbRows(`SELECT column_name FROM (DESCRIBE SELECT * FROM read_csv('${path}', header = true))`);
    expect(ours.map((r) => r[0])).to.deep.equal(['id', 'name', 'name_1', 'score', 'name_1_1']);
    // DuckDB keeps the header's case (the engine's names are lower case, as Hive's).
    expect(duck.map((r) => String(r[0]).toLowerCase())).to.deep.equal(ours.map((r) => r[0]));
    expect(ours.every((r) => r[1] === 'varchar')).to.equal(true);
    expect(await lake.rows('SELECT name, name_1, name_1_1 FROM lake.default.header ORDER BY id')).to.deep.equal([
      ['ann', 'ANN', 'x'],
      ['bob', 'BOB', 'y'],
    ]);
  });

  it('JSON: sampled records typed by the literal text of their numbers', async () => {
    lake.file(
      'data/json/a.json',
      '{"i": 1, "w": 12345678901234567890, "f": 1.0, "e": 1e3, "b": true, "s": "x", "n": null}\n{"i": -9223372036854775808, "w": 1, "f": 2, "e": 4, "b": false, "s": 5, "n": null}\n',
    );
    await lake.harness.query(`CREATE TABLE lake.default.json WITH (format = 'JSON', external_location = '${lake.uri('data/json')}')`);
    expect((await lake.rows('DESCRIBE lake.default.json')).map((r) => r.slice(0, 2))).to.deep.equal([
      ['i', 'bigint'],
      ['w', 'decimal(38,0)'],
      ['f', 'double'],
      ['e', 'double'],
      ['b', 'boolean'],
      ['s', 'varchar'],
      ['n', 'varchar'],
    ]);
    expect(await lake.rows('SELECT i, CAST(w AS varchar), f, e, b, s, n FROM lake.default.json ORDER BY i')).to.deep.equal([
      ['-9223372036854775808', '1', 2, 4, false, '5', null],
      ['1', '12345678901234567890', 1, 1000, true, 'x', null],
    ]);
  });
});
