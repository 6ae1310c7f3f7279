// A PostgreSQL table keeps its columns' case (a quoted "D"): the engine names it by any spelling, as
// Trino's names resolve ignoring case, while the SQL sent to PostgreSQL keeps the remote spelling;
// a table the engine creates there has lower-case columns, as Trino creates them.

import { expect } from 'chai';
import { withPgFixture } from './pg-fixture.js';

describe('postgresql connector: identifier case', function () {
  this.timeout(60_000);
  const fixture = withPgFixture(
    `CREATE TABLE cased ("D" integer, "Mixed" text, plain integer); INSERT INTO cased VALUES (1, 'a', 10), (2, 'b', 20)`,
  );

  it('reads, filters and aggregates a quoted upper-case column by any spelling', async () => {
    const { engine } = fixture;
    expect(await engine.rows('SELECT d, "D", mixed FROM pg.public.cased WHERE D = 2')).to.deep.equal([[2, 2, 'b']]);
    expect(await engine.rows('SELECT sum(d), max(MIXED) FROM pg.public.cased')).to.deep.equal([[3n, 'b']]);
  });

  it('writes to it naming the columns in any case', async () => {
    const { engine, server } = fixture;
    await engine.run("INSERT INTO pg.public.cased (d, mixed, plain) VALUES (3, 'c', 30)");
    expect(await server.sql('SELECT "D", "Mixed" FROM cased WHERE plain = 30')).to.deep.equal([{ D: 3, Mixed: 'c' }]);
  });

  it('creates tables with lower-case columns', async () => {
    const { engine, server } = fixture;
    await engine.run('CREATE TABLE pg.public.made ("K" integer)', 'INSERT INTO pg.public.made VALUES 4');
    expect(await server.sql("SELECT attname FROM pg_attribute WHERE attrelid = 'made'::regclass AND attnum > 0")).to.deep.equal([
      { attname: 'k' },
    ]);
    expect(await engine.rows('SELECT "K" FROM pg.public.made')).to.deep.equal([[4]]);
  });
});
