import { expect } from 'chai';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { EngineHarness } from '../support/engine-harness.js';
import { RULES, harnessWithRules, tempDir, writeJson } from './rules-fixtures.js';

describe('file-based access control: reading and writing tables (in process)', () => {
  let h: EngineHarness;

  before(async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'group.txt'), '# analysts read tpch\nanalysts:dave,frank\nother:erin\n');
    h = await harnessWithRules(writeJson(join(dir, 'rules.json'), RULES), join(dir, 'group.txt'));
  });

  async function as(user: string, sql: string): Promise<unknown[][]> {
    h.session.user = user;
    return h.rows(sql);
  }

  async function deniedAs(user: string, sql: string): Promise<string> {
    h.session.user = user;
    const e = await h.failure(sql);
    expect(e.errorName, e.message).to.equal('PERMISSION_DENIED');
    return e.message;
  }

  describe('SELECT', () => {
    it('reads the columns a table rule allows', async () => {
      expect(await as('bob', 'SELECT id, amount FROM orders ORDER BY id')).to.deep.equal([
        [1n, 10n],
        [2n, 20n],
        [3n, 30n],
      ]);
      expect(await as('bob', 'SELECT count(*) FROM orders')).to.deep.equal([[3n]]);
      expect(await as('bob', 'SELECT sum(amount) FROM orders WHERE id > 1')).to.deep.equal([[50n]]);
    });

    it('refuses a denied column wherever the query references it', async () => {
      const denial = 'Access Denied: Cannot select from table memory.default.orders';
      expect(await deniedAs('bob', 'SELECT secret FROM orders')).to.equal(denial);
      expect(await deniedAs('bob', 'SELECT * FROM orders')).to.equal(denial);
      expect(await deniedAs('bob', "SELECT id FROM orders WHERE secret = 'x'")).to.equal(denial);
      expect(await deniedAs('bob', 'SELECT id FROM (SELECT * FROM orders) t')).to.equal(denial);
      expect(await deniedAs('bob', 'SELECT count(DISTINCT secret) FROM orders')).to.equal(denial);
      expect(await deniedAs('bob', 'SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM orders p WHERE p.secret = o.secret)')).to.equal(
        denial,
      );
      expect(await deniedAs('bob', 'EXPLAIN SELECT secret FROM orders')).to.equal(denial);
    });

    it('refuses a table without a matching rule, also in a subquery, a join or a CTE', async () => {
      const denial = 'Access Denied: Cannot select from table memory.default.hidden';
      expect(await deniedAs('bob', 'SELECT * FROM hidden')).to.equal(denial);
      expect(await deniedAs('bob', 'SELECT count(*) FROM hidden')).to.equal(denial);
      expect(await deniedAs('bob', 'SELECT id FROM orders WHERE id IN (SELECT x FROM hidden)')).to.equal(denial);
      expect(await deniedAs('bob', 'SELECT o.id FROM orders o JOIN hidden h ON o.id = h.x')).to.equal(denial);
      expect(await deniedAs('bob', 'WITH c AS (SELECT x FROM hidden) SELECT * FROM c')).to.equal(denial);
    });

    it('refuses a catalog the user has no access to, naming it', async () => {
      expect(await as('bob', 'SELECT count(*) FROM tpch.tiny.nation')).to.deep.equal([[25n]]);
      expect(await deniedAs('carol', 'SELECT count(*) FROM tpch.tiny.nation')).to.equal('Access Denied: Cannot access catalog tpch');
    });

    it('checks the reads of SHOW STATS, DESCRIBE OUTPUT and USE', async () => {
      expect(await deniedAs('bob', 'SHOW STATS FOR orders')).to.equal('Access Denied: Cannot select from table memory.default.orders');
      expect((await as('bob', 'SHOW STATS FOR (SELECT id FROM orders)')).map((r) => r[0])).to.deep.equal(['id', null]);
      h.session.user = 'bob';
      await h.query('PREPARE leak FROM SELECT secret FROM orders');
      expect(await deniedAs('bob', 'DESCRIBE OUTPUT leak')).to.equal('Access Denied: Cannot select from table memory.default.orders');
      expect(await deniedAs('carol', 'USE tpch.tiny')).to.equal('Access Denied: Cannot access catalog tpch');
    });

    it('lets a read-only catalog be read but not written, whatever the table rules grant', async () => {
      expect(await as('rita', 'SELECT id, secret FROM orders WHERE id = 1')).to.deep.equal([[1n, 'x']]);
      expect(await deniedAs('rita', 'INSERT INTO inserts VALUES (5)')).to.equal(
        'Access Denied: Cannot insert into table memory.default.inserts',
      );
      expect(await deniedAs('rita', 'DELETE FROM inserts')).to.equal('Access Denied: Cannot delete from table memory.default.inserts');
      expect(await deniedAs('rita', 'CREATE TABLE t3 (x bigint)')).to.equal('Access Denied: Cannot create table memory.default.t3');
      expect(await deniedAs('rita', 'CREATE SCHEMA memory.rita')).to.equal('Access Denied: Cannot create schema memory.rita');
    });

    it('matches group rules with the groups of the group file', async () => {
      expect(await as('dave', 'SELECT count(*) FROM tpch.tiny.region')).to.deep.equal([[5n]]);
      expect(await deniedAs('erin', 'SELECT count(*) FROM tpch.tiny.region')).to.equal('Access Denied: Cannot access catalog tpch');
    });
  });

  describe('views', () => {
    it('reads a definer view whose owner may read the tables below, though the user may not', async () => {
      expect(await as('bob', 'SELECT * FROM open_view ORDER BY id')).to.deep.equal([
        [1n, 10n],
        [2n, 20n],
        [3n, 30n],
      ]);
      expect(await as('bob', 'SELECT * FROM hidden_view')).to.deep.equal([[7n]]);
      expect(await deniedAs('bob', 'SELECT * FROM hidden')).to.equal('Access Denied: Cannot select from table memory.default.hidden');
    });

    it('refuses a view the user has no rule for, naming the view', async () => {
      expect(await deniedAs('bob', 'SELECT * FROM secret_view')).to.equal(
        'Access Denied: Cannot select from table memory.default.secret_view',
      );
    });

    it('checks the tables of a SECURITY INVOKER view for the user', async () => {
      expect(await deniedAs('bob', 'SELECT id FROM invoker_view')).to.equal(
        'Access Denied: Cannot select from table memory.default.orders',
      );
      expect(await as('admin', 'SELECT id, secret FROM invoker_view ORDER BY id')).to.deep.equal([
        [1n, 'x'],
        [2n, 'y'],
        [3n, 'z'],
      ]);
    });

    it('needs GRANT_SELECT of a definer view owner who is not the user', async () => {
      expect(await deniedAs('bob', 'SELECT * FROM alice_view')).to.equal(
        "Access Denied: View owner 'alice' cannot create view that selects from memory.default.orders",
      );
      expect(await as('alice', 'SELECT * FROM alice_view ORDER BY id')).to.deep.equal([[1n], [2n], [3n]]);
    });
  });

  describe('writes and DDL', () => {
    it('checks INSERT, DELETE, UPDATE, TRUNCATE and MERGE per privilege', async () => {
      expect(await as('bob', 'INSERT INTO inserts VALUES (1), (2)')).to.deep.equal([[2n]]);
      expect(await deniedAs('bob', 'SELECT * FROM inserts')).to.equal('Access Denied: Cannot select from table memory.default.inserts');
      expect(await deniedAs('bob', 'INSERT INTO orders VALUES (4, 40, null)')).to.equal(
        'Access Denied: Cannot insert into table memory.default.orders',
      );
      expect(await deniedAs('bob', 'INSERT INTO inserts SELECT x FROM hidden')).to.equal(
        'Access Denied: Cannot select from table memory.default.hidden',
      );
      expect(await deniedAs('bob', 'DELETE FROM orders WHERE id = 1')).to.equal(
        'Access Denied: Cannot delete from table memory.default.orders',
      );
      expect(await deniedAs('bob', 'UPDATE orders SET amount = 0, id = 1')).to.equal(
        'Access Denied: Cannot update columns [amount, id] in table memory.default.orders',
      );
      expect(await deniedAs('bob', 'TRUNCATE TABLE orders')).to.equal('Access Denied: Cannot truncate table memory.default.orders');
      expect(await deniedAs('bob', 'MERGE INTO inserts t USING (VALUES 1) s(x) ON t.x = s.x WHEN MATCHED THEN DELETE')).to.equal(
        'Access Denied: Cannot delete from table memory.default.inserts',
      );
      expect(await as('admin', 'SELECT x FROM inserts ORDER BY x')).to.deep.equal([[1n], [2n]]);
      expect(await as('alice', 'SELECT amount FROM orders WHERE id = 1')).to.deep.equal([[10n]]);
    });

    it('needs SELECT on the columns the WHERE of a DELETE or the SET and WHERE of an UPDATE read', async () => {
      const denial = 'Access Denied: Cannot select from table memory.default.changes';
      expect(await deniedAs('bob', "DELETE FROM changes WHERE secret = 'a'")).to.equal(denial);
      expect(await deniedAs('bob', "UPDATE changes SET id = 9 WHERE secret = 'a'")).to.equal(denial);
      expect(await deniedAs('bob', 'UPDATE changes SET id = length(secret)')).to.equal(denial);
      expect(await as('bob', 'DELETE FROM changes WHERE id = 1')).to.deep.equal([[1n]]);
      expect(await as('bob', "UPDATE changes SET secret = 'q' WHERE id = 2")).to.deep.equal([[1n]]);
      expect(await as('admin', 'SELECT id, secret FROM changes ORDER BY id')).to.deep.equal([
        [2, 'q'],
        [3, 'c'],
      ]);
    });

    it('needs ownership for tables and views, and schema ownership for schemas', async () => {
      expect(await deniedAs('bob', 'CREATE TABLE t2 (x bigint)')).to.equal('Access Denied: Cannot create table memory.default.t2');
      expect(await deniedAs('bob', 'DROP TABLE orders')).to.equal('Access Denied: Cannot drop table memory.default.orders');
      expect(await deniedAs('bob', 'ALTER TABLE orders ADD COLUMN y bigint')).to.equal(
        'Access Denied: Cannot add a column to table memory.default.orders',
      );
      expect(await deniedAs('bob', 'ALTER TABLE orders ALTER COLUMN id SET DATA TYPE bigint')).to.equal(
        'Access Denied: Cannot alter a column for table memory.default.orders',
      );
      expect(await deniedAs('bob', 'ALTER TABLE orders RENAME TO bobs.orders')).to.equal(
        'Access Denied: Cannot rename table from memory.default.orders to memory.bobs.orders',
      );
      expect(await deniedAs('bob', 'CREATE VIEW v2 AS SELECT 1 x')).to.equal('Access Denied: Cannot create view memory.default.v2');
      expect(await deniedAs('bob', 'DROP VIEW open_view')).to.equal('Access Denied: Cannot drop view memory.default.open_view');
      expect(await deniedAs('bob', 'SHOW CREATE TABLE orders')).to.equal(
        'Access Denied: Cannot show create table for memory.default.orders',
      );
      expect(await deniedAs('bob', 'CREATE SCHEMA memory.other')).to.equal('Access Denied: Cannot create schema memory.other');
      expect(await deniedAs('carol', 'CREATE SCHEMA memory.bobs')).to.equal('Access Denied: Cannot create schema memory.bobs');
      await as('bob', 'CREATE SCHEMA memory.bobs');
      await as('bob', 'CREATE TABLE memory.bobs.mine AS SELECT id, amount FROM orders');
      expect(await as('bob', 'SELECT sum(amount) FROM memory.bobs.mine')).to.deep.equal([[60n]]);
      expect(await deniedAs('bob', 'CREATE TABLE memory.bobs.leak AS SELECT secret FROM orders')).to.equal(
        'Access Denied: Cannot select from table memory.default.orders',
      );
      await as('bob', 'DROP TABLE memory.bobs.mine');
    });

    it('refuses session properties the rules forbid, set by SET SESSION or sent by the client', async () => {
      expect(await deniedAs('bob', "SET SESSION query_max_memory = '1GB'")).to.equal(
        'Access Denied: Cannot set system session property query_max_memory',
      );
      expect(await deniedAs('bob', "WITH SESSION query_max_memory = '1GB' SELECT 1")).to.equal(
        'Access Denied: Cannot set system session property query_max_memory',
      );
      h.session.user = 'alice';
      await h.query("SET SESSION query_max_memory = '1GB'");
      expect(await deniedAs('bob', 'SELECT 1')).to.equal('Access Denied: Cannot set system session property query_max_memory');
      h.session.properties.clear();
      expect(await as('bob', 'SELECT 1')).to.deep.equal([[1]]);
    });

    it('refuses every statement of a user the query rules do not let execute', async () => {
      expect(await deniedAs('banned', 'SELECT 1')).to.equal('Access Denied: Cannot execute query');
      expect(await as('viewer', 'SELECT 1')).to.deep.equal([[1]]);
    });
  });
});
