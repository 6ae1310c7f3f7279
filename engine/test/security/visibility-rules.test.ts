import { expect } from 'chai';
import { join } from 'node:path';
import type { EngineHarness } from '../support/engine-harness.js';
import { RULES, harnessWithRules, tempDir, writeJson } from './rules-fixtures.js';

describe('file-based access control: what SHOW and information_schema list (in process)', () => {
  let h: EngineHarness;

  before(async () => {
    h = await harnessWithRules(writeJson(join(tempDir(), 'rules.json'), RULES));
  });

  async function as(user: string, sql: string): Promise<unknown[][]> {
    h.session.user = user;
    return h.rows(sql);
  }

  const BOBS_TABLES = ['alice_view', 'changes', 'hidden_view', 'inserts', 'invoker_view', 'open_view', 'orders'];
  const ALL_TABLES = ['alice_view', 'changes', 'hidden', 'hidden_view', 'inserts', 'invoker_view', 'open_view', 'orders', 'secret_view'];

  it('SHOW CATALOGS lists the catalogs where the user holds something', async () => {
    expect(await as('admin', 'SHOW CATALOGS')).to.deep.equal([['memory'], ['tpch']]);
    expect(await as('bob', 'SHOW CATALOGS')).to.deep.equal([['memory'], ['tpch']]);
    expect(await as('alice', 'SHOW CATALOGS')).to.deep.equal([['memory']]);
    expect(await as('carol', 'SHOW CATALOGS')).to.deep.equal([]);
  });

  it('SHOW SCHEMAS lists the schemas the user owns or holds privileges in', async () => {
    expect(await as('bob', 'SHOW SCHEMAS FROM memory')).to.deep.equal([['default'], ['information_schema']]);
    expect(await as('admin', 'SHOW SCHEMAS FROM memory')).to.deep.equal([['default'], ['information_schema']]);
    h.session.user = 'carol';
    expect((await h.failure('SHOW SCHEMAS FROM memory')).message).to.equal('Access Denied: Cannot show schemas');
    expect((await h.failure('SHOW SCHEMAS FROM tpch')).message).to.equal('Access Denied: Cannot access catalog tpch');
  });

  it('SHOW TABLES lists the tables and views the user holds privileges on', async () => {
    expect((await as('bob', 'SHOW TABLES FROM memory.default')).map((r) => r[0])).to.deep.equal(BOBS_TABLES);
    expect((await as('admin', 'SHOW TABLES FROM memory.default')).map((r) => r[0])).to.deep.equal(ALL_TABLES);
    h.session.user = 'carol';
    expect((await h.failure('SHOW TABLES FROM memory.default')).message).to.equal(
      'Access Denied: Cannot show tables of schema memory.default',
    );
  });

  it('SHOW COLUMNS and DESCRIBE leave out denied columns and refuse tables without privileges', async () => {
    expect((await as('bob', 'SHOW COLUMNS FROM orders')).map((r) => r[0])).to.deep.equal(['id', 'amount']);
    expect((await as('bob', 'DESCRIBE orders')).map((r) => r[0])).to.deep.equal(['id', 'amount']);
    expect((await as('admin', 'SHOW COLUMNS FROM orders')).map((r) => r[0])).to.deep.equal(['id', 'amount', 'secret']);
    h.session.user = 'bob';
    expect((await h.failure('SHOW COLUMNS FROM hidden')).message).to.equal(
      'Access Denied: Cannot show columns of table memory.default.hidden',
    );
  });

  it('information_schema lists only what the user may see', async () => {
    const tables = "SELECT table_name FROM memory.information_schema.tables WHERE table_schema = 'default' ORDER BY 1";
    expect((await as('bob', tables)).map((r) => r[0])).to.deep.equal(BOBS_TABLES);
    expect((await as('admin', tables)).map((r) => r[0])).to.deep.equal(ALL_TABLES);
    const columns =
      "SELECT column_name FROM memory.information_schema.columns WHERE table_schema = 'default' AND table_name = 'orders' ORDER BY ordinal_position";
    expect((await as('bob', columns)).map((r) => r[0])).to.deep.equal(['id', 'amount']);
    expect((await as('admin', columns)).map((r) => r[0])).to.deep.equal(['id', 'amount', 'secret']);
    const views = "SELECT table_name FROM memory.information_schema.views WHERE table_schema = 'default' ORDER BY 1";
    expect((await as('bob', views)).map((r) => r[0])).to.deep.equal(['alice_view', 'hidden_view', 'invoker_view', 'open_view']);
    expect((await as('bob', 'SELECT schema_name FROM memory.information_schema.schemata ORDER BY 1')).map((r) => r[0])).to.deep.equal([
      'default',
      'information_schema',
    ]);
    expect(await as('carol', tables)).to.deep.equal([]);
    h.session.user = 'erin';
    expect((await h.failure(tables)).message).to.equal('Access Denied: Cannot access catalog memory');
  });
});
