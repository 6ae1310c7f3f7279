// Schemas and tables of a lake catalog, kept by the file metastore in Trino's layout: CREATE/DROP
// SCHEMA (with a location for its managed tables), SHOW SCHEMAS/TABLES/COLUMNS, SHOW CREATE TABLE,
// DESCRIBE, information_schema, and the JSON files Trino's file metastore reads.

import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { LakeFixture } from './lake-fixture.js';

describe('lake: schemas and tables in the file metastore', function () {
  let lake: LakeFixture;

  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  it('creates, lists and drops schemas; a schema location holds its managed tables', async () => {
    expect(await lake.rows('SHOW SCHEMAS FROM lake')).to.deep.equal([['default'], ['information_schema']]);
    await lake.harness.query('CREATE SCHEMA lake.sales');
    await lake.harness.query(`CREATE SCHEMA lake.archive WITH (location = '${lake.uri('elsewhere/archive')}')`);
    expect(await lake.rows('SHOW SCHEMAS FROM lake')).to.deep.equal([['archive'], ['default'], ['information_schema'], ['sales']]);
    expect((await lake.failure('CREATE SCHEMA lake.sales')).name).to.equal('ALREADY_EXISTS');
    await lake.harness.query("CREATE TABLE lake.archive.old WITH (format = 'CSV') AS SELECT 1 AS x");
    expect(readdirSync(lake.path('elsewhere/archive/old')).filter((f) => f.endsWith('.csv'))).to.have.length(1);
    expect(existsSync(lake.path('catalog/archive/old/.trinoSchema'))).to.equal(true);
    const notEmpty = await lake.failure('DROP SCHEMA lake.archive');
    expect(notEmpty.name).to.equal('SCHEMA_NOT_EMPTY');
    await lake.harness.query('DROP SCHEMA lake.archive CASCADE');
    expect(existsSync(lake.path('elsewhere/archive/old'))).to.equal(false);
    await lake.harness.query('DROP SCHEMA lake.sales');
    expect(await lake.rows('SHOW SCHEMAS FROM lake')).to.deep.equal([['default'], ['information_schema']]);
  });

  it('shows tables and columns: SHOW TABLES/COLUMNS, DESCRIBE, SHOW CREATE TABLE, information_schema', async () => {
    await lake.harness.query('CREATE SCHEMA lake.s');
    await lake.harness.query(
      "CREATE TABLE lake.s.t (id bigint COMMENT 'key', price decimal(12,2), at timestamp(3), dt date) COMMENT 'sales' WITH (format = 'CSV', partitioned_by = ARRAY['dt'], skip_header_line_count = 1, csv_separator = ';')",
    );
    await lake.harness.query("CREATE TABLE lake.s.u (name varchar(10)) WITH (format = 'JSON')");
    expect(await lake.rows('SHOW TABLES FROM lake.s')).to.deep.equal([['t'], ['u']]);
    expect(await lake.rows('DESCRIBE lake.s.t')).to.deep.equal([
      ['id', 'bigint', '', 'key'],
      ['price', 'decimal(12,2)', '', ''],
      ['at', 'timestamp(3)', '', ''],
      ['dt', 'date', '', ''],
    ]);
    expect(await lake.rows('SHOW COLUMNS FROM lake.s.u')).to.deep.equal([['name', 'varchar(10)', '', '']]);
    expect((await lake.rows('SHOW CREATE TABLE lake.s.t'))[0][0]).to.equal(
      [
        'CREATE TABLE lake.s.t (',
        "   id bigint COMMENT 'key',",
        '   price decimal(12,2),',
        '   at timestamp(3),',
        '   dt date',
        ')',
        "COMMENT 'sales'",
        'WITH (',
        "   csv_separator = ';',",
        "   format = 'CSV',",
        "   partitioned_by = ARRAY['dt'],",
        '   skip_header_line_count = 1',
        ')',
      ].join('\n'),
    );
    expect(
      await lake.rows(
        "SELECT table_schema, table_name, column_name, data_type FROM lake.information_schema.columns WHERE table_schema = 's' ORDER BY table_name, ordinal_position",
      ),
    ).to.deep.equal([
      ['s', 't', 'id', 'bigint'],
      ['s', 't', 'price', 'decimal(12,2)'],
      ['s', 't', 'at', 'timestamp(3)'],
      ['s', 't', 'dt', 'date'],
      ['s', 'u', 'name', 'varchar(10)'],
    ]);
  });

  it("keeps schemas and tables as Trino's file metastore does", async () => {
    await lake.harness.query('CREATE SCHEMA lake.sales');
    await lake.harness.query(
      "CREATE TABLE lake.sales.orders (id bigint, name varchar, qty integer, dt varchar) WITH (format = 'CSV', partitioned_by = ARRAY['dt'], csv_separator = '|')",
    );
    const schema = JSON.parse(readFileSync(lake.path('catalog/.sales.trinoSchema'), 'utf8')) as Record<string, unknown>;
    expect(schema).to.include({ ownerName: 'test', ownerType: 'USER' });
    const table = JSON.parse(readFileSync(lake.path('catalog/sales/orders/.trinoSchema'), 'utf8')) as Record<string, unknown>;
    expect(table).to.deep.include({
      owner: 'test',
      tableType: 'MANAGED_TABLE',
      storageFormat: 'CSV',
      dataColumns: [
        { name: 'id', type: 'bigint', properties: {} },
        { name: 'name', type: 'string', properties: {} },
        { name: 'qty', type: 'int', properties: {} },
      ],
      partitionColumns: [{ name: 'dt', type: 'string', properties: {} }],
      serdeParameters: { separatorChar: '|', quoteChar: '"' },
      externalLocation: lake.uri('catalog/sales/orders'),
    });
    const unsupported = await lake.failure("CREATE TABLE lake.sales.t (t time) WITH (format = 'CSV')");
    expect(unsupported.message).to.contain("Unsupported Hive type: time(3) (column 't')");
    // A timestamp of another precision than the catalog's is refused, never cut (Trino's message).
    const nanos = await lake.failure("CREATE TABLE lake.sales.n (t timestamp(9)) WITH (format = 'PARQUET')");
    expect([nanos.name, nanos.message]).to.deep.equal([
      'NOT_SUPPORTED',
      'Incorrect timestamp precision for timestamp(9); the configured precision is MILLISECONDS; column name: t',
    ]);
    const partitions = await lake.failure(
      "CREATE TABLE lake.sales.p (a bigint, b bigint) WITH (format = 'CSV', partitioned_by = ARRAY['a'])",
    );
    expect(partitions.message).to.contain(
      'Partition keys must be the last columns in the table and in the same order as the table properties: [a]',
    );
    const listProperty = await lake.failure("CREATE TABLE lake.sales.q (a bigint) WITH (format = ARRAY['CSV'])");
    expect(listProperty.name).to.equal('INVALID_TABLE_PROPERTY');
  });
});
