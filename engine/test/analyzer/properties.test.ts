// Properties as Trino checks them: WITH (...) of CREATE TABLE / CREATE TABLE AS / CREATE SCHEMA
// against what the catalog's connector declares (the memory and tpch connectors declare none, as
// Trino's do not), and session properties against the system's and each catalog's.

import { expect } from 'chai';
import { evaluateProperties } from '../../src/coordinator/statements/property-values.js';
import { EngineError } from '../../src/errors/engine-error.js';
import type { PropertyMetadata } from '../../src/spi/properties.js';
import type * as ast from '../../src/sql/parser/ast.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { EngineHarness } from '../support/engine-harness.js';

function fails(run: () => unknown): EngineError {
  try {
    run();
  } catch (e) {
    expect(e).to.be.instanceOf(EngineError);
    return e as EngineError;
  }
  throw new Error('expected a failure');
}

describe('table and schema properties', () => {
  let h: EngineHarness;

  beforeEach(() => {
    h = new EngineHarness();
  });

  it('refuses an unknown table property, naming it and what the catalog has, and creates nothing', async () => {
    const e = await h.failure('CREATE TABLE memory.default.t (a int) WITH (bogus_property = 42)');
    expect(e.errorName).to.equal('INVALID_TABLE_PROPERTY');
    expect(e.errorCode).to.equal(18);
    expect(e.message).to.equal(
      "line 1:45: Catalog 'memory' table property 'bogus_property' does not exist. Catalog 'memory' has no table properties",
    );
    const other = await h.failure("CREATE TABLE memory.default.t (a int) WITH (external_location = 'file:///x', format = 'CSV')");
    expect(other.message).to.match(/^line 1:45: Catalog 'memory' table property 'external_location' does not exist/);
    expect(await h.rows('SHOW TABLES FROM memory.default')).to.deep.equal([]);
  });

  it('refuses properties of CREATE TABLE AS before running the query or creating the table', async () => {
    const e = await h.failure("CREATE TABLE memory.default.t WITH (format = 'ORC') AS SELECT 1 / 0 AS x");
    expect(e.errorName).to.equal('INVALID_TABLE_PROPERTY');
    expect(e.message).to.equal(
      "line 1:37: Catalog 'memory' table property 'format' does not exist. Catalog 'memory' has no table properties",
    );
    expect(await h.rows('SHOW TABLES FROM memory.default')).to.deep.equal([]);
  });

  it('refuses an unknown schema property and creates no schema', async () => {
    const e = await h.failure("CREATE SCHEMA memory.s1 WITH (location = 's3://bucket/x')");
    expect(e.errorName).to.equal('INVALID_SCHEMA_PROPERTY');
    expect(e.errorCode).to.equal(33);
    expect(e.message).to.equal(
      "line 1:31: Catalog 'memory' schema property 'location' does not exist. Catalog 'memory' has no schema properties",
    );
    expect(await h.rows("SHOW SCHEMAS FROM memory LIKE 's1'")).to.deep.equal([]);
  });

  it('refuses an unknown column property the same way', async () => {
    const e = await h.failure('CREATE TABLE memory.default.t (a int WITH (partition_projection_type = 1))');
    expect([e.errorName, e.errorCode]).to.deep.equal(['INVALID_COLUMN_PROPERTY', 39]);
    expect(e.message).to.equal(
      "line 1:44: Catalog 'memory' column property 'partition_projection_type' does not exist. Catalog 'memory' has no column properties",
    );
    expect(await h.rows('SHOW TABLES FROM memory.default')).to.deep.equal([]);
  });

  it('refuses properties given through a prepared statement, and EXPLAIN options it does not know', async () => {
    await h.run('PREPARE p FROM CREATE TABLE memory.default.t (a int) WITH (format = ?)');
    expect((await h.failure("EXECUTE p USING 'ORC'")).errorName).to.equal('INVALID_TABLE_PROPERTY');
    expect((await h.failure('EXPLAIN (TYPE BOGUS) SELECT 1')).errorName).to.equal('SYNTAX_ERROR');
    expect((await h.failure('EXPLAIN (FORMAT TEXT, BOGUS TEXT) SELECT 1')).errorName).to.equal('SYNTAX_ERROR');
    expect(await h.rows('SHOW TABLES FROM memory.default')).to.deep.equal([]);
  });

  it('refuses a property given twice, quoted or not, as Trino does', async () => {
    const e = await h.failure('CREATE TABLE memory.default.t (a int) WITH (p1 = 1, "p1" = 2)');
    expect(e.errorName).to.equal('DUPLICATE_PROPERTY');
    expect(e.message).to.equal('line 1:53: Duplicate property: p1');
  });

  it('checks properties only of a table it creates: IF NOT EXISTS over an existing table does nothing, as in Trino', async () => {
    await h.run('CREATE TABLE memory.default.t (a int)');
    expect(await h.rows('CREATE TABLE IF NOT EXISTS memory.default.t (a int) WITH (bogus = 1)')).to.deep.equal([]);
  });

  it('SHOW CREATE TABLE shows what the table has: NOT NULL, column and table comments, and no properties it does not have', async () => {
    await h.run("CREATE TABLE memory.default.c (a int NOT NULL COMMENT 'the key', \"B c\" varchar(3)) COMMENT 'it''s a table'");
    expect(await h.rows('SHOW CREATE TABLE memory.default.c')).to.deep.equal([
      // Trino stores column names in lower case (ColumnMetadata): "B c" is shown as "b c".
      ["CREATE TABLE memory.default.c (\n   a integer NOT NULL COMMENT 'the key',\n   \"b c\" varchar(3)\n)\nCOMMENT 'it''s a table'"],
    ]);
  });

  it('creates tables and schemas without properties as before', async () => {
    await h.run('CREATE SCHEMA memory.s2', 'CREATE TABLE memory.s2.t (a int)', 'CREATE TABLE memory.s2.u AS SELECT 1 AS x');
    expect(await h.rows('SHOW TABLES FROM memory.s2')).to.deep.equal([['t'], ['u']]);
  });
});

describe('property values against declared properties', () => {
  const declared: PropertyMetadata[] = [
    { name: 'format', type: { kind: 'varchar' }, description: 'file format', defaultValue: 'ORC' },
    {
      name: 'bucket_count',
      type: { kind: 'bigint' },
      description: 'buckets',
      validate: (v) => {
        if ((v as bigint) < 1n) throw new Error('must be positive');
      },
    },
    { name: 'transactional', type: { kind: 'boolean' }, description: 'ACID' },
  ];
  const target = { catalog: 'lake', object: 'table' as const, declared };
  const session = new EngineHarness().session;
  const propertiesOf = (withClause: string): ast.Property[] =>
    (parseStatement(`CREATE TABLE t (a int) WITH (${withClause})`) as ast.CreateTable).properties;
  const evaluate = (withClause: string) => evaluateProperties(propertiesOf(withClause), target, session, []);

  it('evaluates each value as a constant of the property type, and fills in the defaults of the others', () => {
    expect(evaluate("bucket_count = 2 + 2, format = 'PAR' || 'QUET'")).to.deep.equal({ bucket_count: 4n, format: 'PARQUET' });
    expect(evaluate('transactional = true')).to.deep.equal({ transactional: true, format: 'ORC' });
    expect(evaluate('format = DEFAULT')).to.deep.equal({ format: 'ORC' });
  });

  it('refuses a value of the wrong type, a null, and one the property does not accept', () => {
    const wrongType = fails(() => evaluate("bucket_count = 'four'"));
    expect(wrongType.errorName).to.equal('INVALID_TABLE_PROPERTY');
    expect(wrongType.message).to.equal(
      "line 1:30: Invalid value for catalog 'lake' table property 'bucket_count': Cannot convert ['four'] to bigint",
    );
    expect(fails(() => evaluate('transactional = 1')).message).to.contain('Cannot convert [1] to boolean');
    expect(fails(() => evaluate('transactional = NULL')).message).to.equal(
      "line 1:30: Invalid null value for catalog 'lake' table property 'transactional' from [NULL]",
    );
    expect(fails(() => evaluate('bucket_count = 0')).message).to.equal(
      "line 1:30: Invalid value for catalog 'lake' table property 'bucket_count': must be positive",
    );
  });

  it('fails on a name that does not resolve as any expression does', () => {
    expect(fails(() => evaluate('format = nope')).errorName).to.equal('COLUMN_NOT_FOUND');
  });

  it('names the declared properties when one is unknown', () => {
    const e = fails(() => evaluate('location = 1'));
    expect(e.message).to.equal(
      "line 1:30: Catalog 'lake' table property 'location' does not exist. Table properties of catalog 'lake': bucket_count, format, transactional",
    );
  });
});

describe('session properties', () => {
  let h: EngineHarness;

  beforeEach(() => {
    h = new EngineHarness();
  });

  it('refuses unknown names, catalog properties the catalog does not have, and unknown catalogs', async () => {
    const unknown = await h.failure('SET SESSION spill_enabled = false');
    expect([unknown.errorName, unknown.message]).to.deep.equal([
      'INVALID_SESSION_PROPERTY',
      "line 1:13: Session property 'spill_enabled' does not exist",
    ]);
    const catalogProperty = await h.failure('SET SESSION memory.splits_per_node = 4');
    expect([catalogProperty.errorName, catalogProperty.message]).to.deep.equal([
      'INVALID_SESSION_PROPERTY',
      "line 1:13: Session property 'memory.splits_per_node' does not exist",
    ]);
    const noCatalog = await h.failure('SET SESSION nope.x = 1');
    expect([noCatalog.errorName, noCatalog.message]).to.deep.equal(['CATALOG_NOT_FOUND', "line 1:13: Catalog 'nope' not found"]);
    expect((await h.failure('SET SESSION a.b.c = 1')).message).to.equal("line 1:13: Invalid session property 'a.b.c'");
    expect((await h.failure('RESET SESSION memory.x')).errorName).to.equal('INVALID_SESSION_PROPERTY');
  });

  it('type-checks values as constants of the property type', async () => {
    const text = await h.failure("SET SESSION task_concurrency = '4'");
    expect(text.message).to.equal("line 1:32: Unable to set session property 'task_concurrency' to ''4'': Cannot convert ['4'] to integer");
    expect((await h.failure('SET SESSION task_concurrency = 0')).message).to.contain('must be at least 1');
    expect((await h.failure("SET SESSION query_max_memory = 'lots'")).message).to.contain("'lots' is not a data size");
    expect((await h.failure("SET SESSION query_max_execution_time = '5 minutes'")).message).to.contain('is not a duration');
    expect((await h.failure("SET SESSION join_distribution_type = 'SIDEWAYS'")).message).to.contain(
      'must be one of AUTOMATIC, PARTITIONED, BROADCAST',
    );
    expect((await h.failure('SET SESSION task_concurrency = NULL')).message).to.contain('Session property value must not be null');
    await h.run('SET SESSION task_concurrency = 2 + 2');
    expect(h.session.properties.get('task_concurrency')).to.equal('4');
  });

  it('SHOW SESSION lists only properties that act, each saying what it does, with the node default of query_max_memory', async () => {
    const shown = await h.query('SHOW SESSION');
    expect(shown.columns.map((c) => c.name)).to.deep.equal(['Name', 'Value', 'Default', 'Type', 'Description']);
    expect(shown.rows.map((r) => r.slice(0, 4))).to.deep.equal([
      ['disabled_optimizer_rules', '', '', 'varchar'],
      ['distinct_aggregations_strategy', 'AUTOMATIC', 'AUTOMATIC', 'varchar'],
      ['distributed_mark_join', 'true', 'true', 'boolean'],
      ['distributed_sort', 'true', 'true', 'boolean'],
      ['dynamic_filter_key_bitmap', 'true', 'true', 'boolean'],
      ['dynamic_filter_remote_key_bitmap_max_size', '1MB', '1MB', 'varchar'],
      ['dynamic_filtering_wait_timeout', '1s', '1s', 'varchar'],
      ['enable_dynamic_filtering', 'true', 'true', 'boolean'],
      ['enable_semi_join_probe_key_filtering', 'true', 'true', 'boolean'],
      ['global_aggregation_in_probe_stage', 'true', 'true', 'boolean'],
      ['join_chain_far_start', 'true', 'true', 'boolean'],
      ['join_chain_fewer_rows_next', 'true', 'true', 'boolean'],
      ['join_distribution_type', 'AUTOMATIC', 'AUTOMATIC', 'varchar'],
      ['join_max_broadcast_table_size', '100MB', '100MB', 'varchar'],
      ['materialize_common_table_expressions', 'true', 'true', 'boolean'],
      ['max_recursion_depth', '10', '10', 'integer'],
      ['parallel_hash_build', 'false', 'false', 'boolean'],
      ['parallel_hash_build_min_rows', '65536', '65536', 'integer'],
      ['parallel_join_probe', 'true', 'true', 'boolean'],
      ['parallel_mark_join', 'true', 'true', 'boolean'],
      ['parallel_min_splits', '2', '2', 'integer'],
      ['parallel_sort', 'true', 'true', 'boolean'],
      ['parallel_window', 'true', 'true', 'boolean'],
      ['partitioned_aggregation', 'true', 'true', 'boolean'],
      ['preferred_aggregation_partitioning', 'true', 'true', 'boolean'],
      ['push_partial_aggregation_through_join', 'AUTOMATIC', 'AUTOMATIC', 'varchar'],
      ['query_max_execution_time', '100.00d', '100.00d', 'varchar'],
      // The harness's cluster-wide query memory limit is 1 GB: the default is the node's own.
      ['query_max_memory', '1GB', '1GB', 'varchar'],
      ['share_identical_stages', 'true', 'true', 'boolean'],
      ['single_node_aggregation', 'true', 'true', 'boolean'],
      ['source_placement_by_splits', 'true', 'true', 'boolean'],
      ['task_concurrency', '2', '2', 'integer'],
      ['time_zone_id', '', '', 'varchar'],
      ['tiny_build_side_in_probe_stage', 'true', 'true', 'boolean'],
    ]);
    for (const row of shown.rows) expect(row[4] as string).to.have.length.above(20);
  });
});
