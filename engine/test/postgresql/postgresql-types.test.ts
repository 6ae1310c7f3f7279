// The type mapping, against PostgreSQL's own text of every value: each mapped type read at its
// extremes (and NULL), the types without a mapping left out or read as their text as
// unsupported-type-handling says, and what the engine writes (CREATE TABLE AS, INSERT) equal to
// what it read, value for value, in PostgreSQL.

import { expect } from 'chai';
import { PostgresConnector } from '../../src/connectors/postgresql/postgresql-connector.js';
import { postgresConfig } from '../../src/connectors/postgresql/postgresql-config.js';
import type { Scalar } from '../../src/types/scalar.js';
import { canonical, sortedJson, startPgFixture, type PgFixture } from './pg-fixture.js';

const SETUP = `
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE types_t (
  k integer, sm smallint, i integer, b bigint, r real, d double precision,
  n1 numeric(10,2), n2 numeric(38,10), n3 numeric(18,0), n4 numeric(18,6),
  bo boolean, bi bit(1), c char(4), v varchar(10), tx text, e mood, bin bytea,
  dt date, tm3 time(3), tm time, ts3 timestamp(3), ts timestamp,
  u uuid, j jsonb, tz timestamptz, num numeric, arr integer[]);
INSERT INTO types_t VALUES
  (1, -32768, -2147483648, -9223372036854775808, 3.4028235e38, 1.7976931348623157e308,
   -12345678.99, 9999999999999999999999999999.9999999999, -999999999999999999, 0.000001,
   true, B'1', 'ab', '😀é', E'tab\\there\\nnew line \\\\ back', 'happy', '\\x00ff10'::bytea,
   DATE '0001-01-01', TIME '23:59:59.999', TIME '00:00:00.000001', TIMESTAMP '1900-01-01 00:00:00.001', TIMESTAMP '2262-04-11 23:47:16.854775',
   'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"b": 1, "a": [true, null]}', TIMESTAMPTZ '2020-01-01 12:00:00+02', 1.5, ARRAY[1, 2]),
  (2, 32767, 2147483647, 9223372036854775807, 1.0e-45, 5e-324,
   99999999.99, -9999999999999999999999999999.9999999999, 999999999999999999, -123456789012.345678,
   false, B'0', 'abcd', '', '', 'sad', ''::bytea,
   DATE '9999-12-31', TIME '00:00:00', TIME '12:34:56.789012', TIMESTAMP '1970-01-01 00:00:00', TIMESTAMP '1969-12-31 23:59:59.999999',
   NULL, 'null', NULL, NULL, NULL),
  (3, 0, 0, 0, 'NaN', 'NaN', 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   DATE '1969-12-31', NULL, NULL, NULL, TIMESTAMP '2000-01-01 00:00:00', NULL, NULL, NULL, NULL, NULL),
  (4, NULL, NULL, NULL, '-Infinity', 'Infinity', NULL, 0.0000000001, NULL, NULL, NULL, NULL, ' x', 'x ', ' ', NULL, NULL,
   DATE '1582-10-04', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (5, NULL, NULL, NULL, '-0', '-0', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);`;

/** Each mapped column: the engine type, and PostgreSQL's text of its value in the engine's terms. */
const MAPPED: { column: string; type: string; text: string; value: (text: string) => Scalar }[] = [
  { column: 'sm', type: 'smallint', text: 'sm::text', value: Number },
  { column: 'i', type: 'integer', text: 'i::text', value: Number },
  { column: 'b', type: 'bigint', text: 'b::text', value: BigInt },
  { column: 'r', type: 'real', text: 'r::text', value: (t) => Math.fround(Number(t)) },
  { column: 'd', type: 'double', text: 'd::text', value: Number },
  { column: 'n1', type: 'decimal(10,2)', text: 'n1::text', value: unscaled },
  { column: 'n2', type: 'decimal(38,10)', text: 'n2::text', value: unscaled },
  { column: 'n3', type: 'decimal(18,0)', text: 'n3::text', value: unscaled },
  { column: 'n4', type: 'decimal(18,6)', text: 'n4::text', value: unscaled },
  { column: 'bo', type: 'boolean', text: 'bo::text', value: (t) => t === 'true' },
  { column: 'bi', type: 'boolean', text: 'bi::text', value: (t) => t === '1' },
  // char's text drops its padding, as the engine keeps chars.
  { column: 'c', type: 'char(4)', text: 'c::text', value: String },
  { column: 'v', type: 'varchar(10)', text: 'v::text', value: String },
  { column: 'tx', type: 'varchar', text: 'tx', value: String },
  { column: 'e', type: 'varchar', text: 'e::text', value: String },
  { column: 'bin', type: 'varbinary', text: "encode(bin, 'hex')", value: (t) => new Uint8Array(Buffer.from(t, 'hex')) },
  { column: 'dt', type: 'date', text: "(dt - DATE '1970-01-01')::text", value: Number },
  { column: 'tm3', type: 'time(3)', text: '(extract(epoch FROM tm3) * 1000000)::bigint::text', value: Number },
  { column: 'tm', type: 'time(6)', text: '(extract(epoch FROM tm) * 1000000)::bigint::text', value: Number },
  { column: 'ts3', type: 'timestamp(3)', text: '(extract(epoch FROM ts3) * 1000000)::bigint::text', value: Number },
  { column: 'ts', type: 'timestamp(6)', text: '(extract(epoch FROM ts) * 1000000)::bigint::text', value: (t) => BigInt(t) * 1_000_000n }, // picoseconds (long-plain-temporal.ts)
  { column: 'u', type: 'uuid', text: 'u::text', value: String },
  // jsonb as Trino's json: its text with keys sorted and no spaces (JavaScript's JSON re-serializing PostgreSQL's text).
  { column: 'j', type: 'json', text: 'j::text', value: sortedJson },
];
const UNSUPPORTED = ['tz', 'num', 'arr'];

function unscaled(text: string): bigint {
  return BigInt(text.replace('.', ''));
}

describe('postgresql connector: types', function () {
  this.timeout(120_000);
  let fixture: PgFixture;

  before(async () => {
    fixture = await startPgFixture();
    await fixture.server.sql(SETUP);
    fixture.engine.catalogs.register(
      'pgtext',
      new PostgresConnector(
        'pgtext',
        postgresConfig('pgtext', fixture.server.catalogProperties({ 'unsupported-type-handling': 'CONVERT_TO_VARCHAR' })),
      ),
    );
  });
  after(async () => fixture?.server.stop());

  /** PostgreSQL's values of `columns`, each turned into what the engine must read, by row in k order. */
  async function expected(table: string, columns: typeof MAPPED): Promise<string[][]> {
    const rows = await fixture.server.sql(`SELECT ${columns.map((c, i) => `${c.text} AS c${i}`).join(', ')} FROM ${table} ORDER BY k`);
    return rows.map((r) => columns.map((c, i) => canonical(r[`c${i}`] === null ? null : c.value(String(r[`c${i}`])))));
  }

  it('maps every column type as Trino does, and leaves out types without a mapping', async () => {
    const described = await fixture.engine.rows('DESCRIBE pg.public.types_t');
    expect(described.map((r) => [r[0], r[1]])).to.deep.equal([['k', 'integer'], ...MAPPED.map((m) => [m.column, m.type])]);
  });

  it('reads every value exactly as PostgreSQL holds it', async () => {
    const rows = await fixture.engine.rows(`SELECT ${MAPPED.map((m) => m.column).join(', ')} FROM pg.public.types_t ORDER BY k`);
    expect(rows.map((r) => r.map(canonical))).to.deep.equal(await expected('types_t', MAPPED));
  });

  it('reads the types without a mapping as their text with unsupported-type-handling = CONVERT_TO_VARCHAR', async () => {
    const described = await fixture.engine.rows('DESCRIBE pgtext.public.types_t');
    expect(described.filter((r) => UNSUPPORTED.includes(String(r[0]))).map((r) => r[1])).to.deep.equal(UNSUPPORTED.map(() => 'varchar'));
    const rows = await fixture.engine.rows(`SELECT ${UNSUPPORTED.join(', ')} FROM pgtext.public.types_t ORDER BY k`);
    const theirs = await fixture.server.sql(`SELECT ${UNSUPPORTED.map((c) => `${c}::text AS ${c}`).join(', ')} FROM types_t ORDER BY k`);
    expect(rows).to.deep.equal(theirs.map((r) => UNSUPPORTED.map((c) => r[c])));
    // Their text is not compared there: a filter on it stays in the engine, and still answers.
    expect(await fixture.engine.rows("SELECT k FROM pgtext.public.types_t WHERE num = '1.5'")).to.deep.equal([[1]]);
  });

  it('compares uuids in PostgreSQL as the engine does (by their bytes)', async () => {
    const id = "UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'";
    expect(await fixture.engine.rows(`SELECT k FROM pg.public.types_t WHERE u = ${id}`)).to.deep.equal([[1]]);
    const [[plan]] = await fixture.engine.rows(`EXPLAIN SELECT k FROM pg.public.types_t WHERE u = ${id}`);
    expect(String(plan)).to.contain("CAST('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS uuid)");
    expect(
      await fixture.engine.rows("SELECT k FROM pg.public.types_t WHERE u < UUID 'b0000000-0000-0000-0000-000000000000'"),
    ).to.deep.equal([[1]]);
    expect(
      await fixture.engine.rows("SELECT k FROM pg.public.types_t WHERE u > UUID 'b0000000-0000-0000-0000-000000000000'"),
    ).to.deep.equal([]);
  });

  it('writes what it reads: CREATE TABLE AS and INSERT keep every value', async () => {
    const columns = MAPPED.map((m) => m.column).join(', ');
    await fixture.engine.run(`CREATE TABLE pg.public.copied AS SELECT k, ${columns} FROM pg.public.types_t`);
    await fixture.engine.run(`INSERT INTO pg.public.copied SELECT k + 10, ${columns} FROM pg.public.types_t`);
    // bit(1) and the enum were written as boolean and text: compare their values, not their types.
    const asCopied = MAPPED.map((m) => ({ ...m, text: m.column === 'bi' ? 'bi::text' : m.text }));
    const original = await expected('types_t', MAPPED);
    expect(
      await expected(
        '(SELECT * FROM copied WHERE k < 10) c',
        asCopied.map((m) => (m.column === 'bi' ? { ...m, value: (t: string) => t === 'true' } : m)),
      ),
    ).to.deep.equal(original);
    expect(
      await expected(
        '(SELECT * FROM copied WHERE k > 10) c',
        asCopied.map((m) => (m.column === 'bi' ? { ...m, value: (t: string) => t === 'true' } : m)),
      ),
    ).to.deep.equal(original);
    const types = await fixture.server.sql<{ column_name: string; data_type: string }>(
      "SELECT column_name, format_type(atttypid, atttypmod) AS data_type FROM information_schema.columns JOIN pg_attribute ON attrelid = 'copied'::regclass AND attname = column_name WHERE table_name = 'copied' ORDER BY ordinal_position",
    );
    expect(types.map((t) => t.data_type)).to.deep.equal([
      'integer',
      'smallint',
      'integer',
      'bigint',
      'real',
      'double precision',
      'numeric(10,2)',
      'numeric(38,10)',
      'numeric(18,0)',
      'numeric(18,6)',
      'boolean',
      'boolean',
      'character(4)',
      'character varying(10)',
      'text',
      'text',
      'bytea',
      'date',
      'time(3) without time zone',
      'time(6) without time zone',
      'timestamp(3) without time zone',
      'timestamp(6) without time zone',
      'uuid',
      'jsonb',
    ]);
  });

  it('writes tpch rows that PostgreSQL sums as the engine does', async () => {
    await fixture.engine.run('CREATE TABLE pg.public.lineitem AS SELECT * FROM tpch.tiny.lineitem');
    const ours = await fixture.engine.rows(
      'SELECT CAST(count(*) AS varchar), CAST(sum(l_extendedprice) AS varchar), CAST(max(l_shipdate) AS varchar), CAST(min(l_comment) AS varchar) FROM tpch.tiny.lineitem',
    );
    const theirs = await fixture.server.sql(
      'SELECT count(*)::text AS a, sum(l_extendedprice)::text AS b, max(l_shipdate)::text AS c, min(l_comment COLLATE "C") AS d FROM lineitem',
    );
    expect([Object.values(theirs[0])]).to.deep.equal(ours);
  });
});
