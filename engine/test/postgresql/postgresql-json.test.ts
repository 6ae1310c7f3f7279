// PostgreSQL json and jsonb columns as Trino's PostgreSQL connector has them: both read as the json
// type (their text made canonical by Trino's jsonParse: keys sorted, no spaces), nothing about them
// evaluated in PostgreSQL (DISABLE_PUSHDOWN: filters and groupings stay in the engine), and json
// values written into json and jsonb columns (Trino binds CAST(? AS json); a new table's json column
// is jsonb). Expectations: PostgreSQL's own text of each value re-serialized by JavaScript's JSON
// with sorted keys, and PostgreSQL's jsonb equality for what the engine wrote.

import { expect } from 'chai';
import { sortedJson, withPgFixture } from './pg-fixture.js';

const SETUP = `
CREATE TABLE docs (id integer, j json, jb jsonb);
INSERT INTO docs VALUES
  (1, '{"b": 1,   "a": [true, null, "x"]}', '{"b": 1, "a": [true, null, "x"]}'),
  (2, '{"a":[true,null,"x"],"b":1}', '{"a":[true,null,"x"],"b":1}'),
  (3, '[1, 2, {"z": "é", "y": -3}]', '"text"'),
  (4, 'null', '12'),
  (5, NULL, NULL);`;

describe('postgresql connector: json and jsonb columns', function () {
  this.timeout(120_000);
  const fixture = withPgFixture(SETUP);

  const explain = async (sql: string) => String((await fixture.engine.rows(`EXPLAIN ${sql}`))[0][0]);

  it('reads json and jsonb as json, each value canonical', async () => {
    const described = await fixture.engine.rows('DESCRIBE pg.public.docs');
    expect(described.map((r) => [r[0], r[1]])).to.deep.equal([
      ['id', 'integer'],
      ['j', 'json'],
      ['jb', 'json'],
    ]);
    const rows = await fixture.engine.rows('SELECT id, j, jb FROM pg.public.docs ORDER BY id');
    const theirs = await fixture.server.sql<{ id: number; j: string | null; jb: string | null }>(
      'SELECT id, j::text AS j, jb::text AS jb FROM docs ORDER BY id',
    );
    expect(rows).to.deep.equal(theirs.map((r) => [r.id, r.j === null ? null : sortedJson(r.j), r.jb === null ? null : sortedJson(r.jb)]));
    expect(
      await fixture.engine.rows(
        "SELECT json_extract_scalar(j, '$.a[2]'), json_array_length(j) FROM pg.public.docs WHERE id IN (1, 3) ORDER BY id",
      ),
    ).to.deep.equal([
      ['x', null],
      [null, 3n],
    ]);
  });

  it('keeps filters and groupings on json columns in the engine', async () => {
    // The two texts of row 1 and 2's json column differ in PostgreSQL; as json values they are one.
    const [[distinctInPostgres]] = (
      await fixture.server.sql<{ n: string }>('SELECT count(DISTINCT j::text)::text AS n FROM docs WHERE id <= 2')
    ).map((r) => [r.n]);
    expect(distinctInPostgres).to.equal('2');
    const [[sameAsJsonb]] = (
      await fixture.server.sql<{ n: string }>('SELECT count(DISTINCT j::jsonb)::text AS n FROM docs WHERE id <= 2')
    ).map((r) => [r.n]);
    expect(sameAsJsonb).to.equal('1');
    const grouped = 'SELECT json_format(j), count(*) FROM pg.public.docs WHERE id <= 2 GROUP BY j';
    expect(await fixture.engine.rows(grouped)).to.deep.equal([['{"a":[true,null,"x"],"b":1}', 2n]]);
    expect(await explain(grouped)).to.match(/Aggregate/);
    const filtered = `SELECT id FROM pg.public.docs WHERE json_format(jb) = '"text"'`;
    expect(await fixture.engine.rows(filtered)).to.deep.equal([[3]]);
    expect(await explain(filtered)).to.match(/Filter\[/);
  });

  it('writes json values into json and jsonb columns, and makes a new json column jsonb', async () => {
    await fixture.server.sql('CREATE TABLE written (id integer, j json, jb jsonb)');
    await fixture.engine.run(
      `INSERT INTO pg.public.written VALUES (1, JSON '{"b": 1, "a": [1.5, "é"]}', JSON '{"b": 1, "a": [1.5, "é"]}'), (2, NULL, JSON 'null')`,
    );
    const theirs = await fixture.server.sql<{ id: number; j: string | null; same: boolean | null; jb: string | null }>(
      `SELECT id, j::text AS j, j::jsonb = jb AS same, jb::text AS jb FROM written ORDER BY id`,
    );
    // A json column keeps the text it was given (the engine's canonical text); jsonb holds the same value.
    expect(theirs).to.deep.equal([
      { id: 1, j: '{"a":[1.5,"é"],"b":1}', same: true, jb: '{"a": [1.5, "é"], "b": 1}' },
      { id: 2, j: null, same: null, jb: 'null' },
    ]);
    await fixture.engine.run('CREATE TABLE pg.public.copied AS SELECT id, j, jb FROM pg.public.docs');
    const types = await fixture.server.sql<{ t: string }>(
      "SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'copied'::regclass AND attnum > 0 ORDER BY attnum",
    );
    expect(types.map((r) => r.t)).to.deep.equal(['integer', 'jsonb', 'jsonb']);
    expect(await fixture.engine.rows('SELECT id, j, jb FROM pg.public.copied ORDER BY id')).to.deep.equal(
      await fixture.engine.rows('SELECT id, j, jb FROM pg.public.docs ORDER BY id'),
    );
  });
});
