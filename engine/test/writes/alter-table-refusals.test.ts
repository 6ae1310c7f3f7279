// ALTER TABLE ... ALTER COLUMN ... SET DATA TYPE and ALTER ... SET AUTHORIZATION run Trino's checks
// (table, view, schema, column, type, role), then fail as Trino fails them for these catalogs: its
// memory and Hive connectors change no column types, and without a security system owners cannot be
// set and no role exists. ADD COLUMN ... FIRST / AFTER are refused as those connectors refuse them.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { LakeFixture } from '../connectors/lake/lake-fixture.js';

async function expectFailures(h: EngineHarness, cases: [string, string, string][]): Promise<void> {
  for (const [sql, name, message] of cases) {
    const e = await h.failure(sql);
    expect([e.errorName, e.message], sql).to.deep.equal([name, message]);
  }
}

describe('ALTER TABLE alterations the catalogs refuse', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run('CREATE TABLE users (id integer, name varchar)', "INSERT INTO users VALUES (1, 'ann')", 'CREATE VIEW v AS SELECT 1 AS x');
  });

  it("checks SET DATA TYPE as Trino does, then refuses it as Trino's memory connector", async () => {
    await expectFailures(h, [
      [
        'ALTER TABLE users ALTER COLUMN id SET DATA TYPE bigint',
        'NOT_SUPPORTED',
        'line 1:1: This connector does not support setting column types',
      ],
      [
        'ALTER TABLE nosuch ALTER COLUMN id SET DATA TYPE bigint',
        'TABLE_NOT_FOUND',
        "line 1:1: Table 'memory.default.nosuch' does not exist",
      ],
      [
        'ALTER TABLE v ALTER COLUMN x SET DATA TYPE bigint',
        'TABLE_NOT_FOUND',
        "line 1:1: Table 'memory.default.v' does not exist, but a view with that name exists.",
      ],
      ['ALTER TABLE users ALTER COLUMN nosuch SET DATA TYPE bigint', 'COLUMN_NOT_FOUND', "line 1:1: Column 'nosuch' does not exist"],
      ['ALTER TABLE users ALTER COLUMN id SET DATA TYPE nosuch', 'TYPE_NOT_FOUND', "line 1:49: Unknown type 'nosuch' for column 'id'"],
    ]);
    await h.run('ALTER TABLE IF EXISTS nosuch ALTER COLUMN id SET DATA TYPE bigint');
    expect(await h.rows('SELECT * FROM users')).to.deep.equal([[1, 'ann']]);
  });

  it('checks SET AUTHORIZATION as Trino does, then refuses it: no owners or roles without a security system', async () => {
    await expectFailures(h, [
      ['ALTER TABLE users SET AUTHORIZATION alice', 'NOT_SUPPORTED', 'line 1:1: Catalog does not support permission management: memory'],
      ['ALTER TABLE users SET AUTHORIZATION ROLE PUBLIC', 'ROLE_NOT_FOUND', "line 1:1: Role 'public' does not exist"],
      ['ALTER TABLE nosuch SET AUTHORIZATION alice', 'TABLE_NOT_FOUND', "line 1:1: Table 'memory.default.nosuch' does not exist"],
      ['ALTER VIEW v SET AUTHORIZATION USER alice', 'NOT_SUPPORTED', 'line 1:1: Catalog does not support permission management: memory'],
      ['ALTER VIEW users SET AUTHORIZATION alice', 'TABLE_NOT_FOUND', "line 1:1: View 'memory.default.users' does not exist"],
      ['ALTER SCHEMA default SET AUTHORIZATION alice', 'NOT_SUPPORTED', 'line 1:1: Catalog does not support permission management: memory'],
      ['ALTER SCHEMA nosuch SET AUTHORIZATION alice', 'SCHEMA_NOT_FOUND', "line 1:1: Schema 'memory.nosuch' does not exist"],
    ]);
  });

  it("refuses FIRST and AFTER in ADD COLUMN as Trino's memory connector, after Trino's checks of the names", async () => {
    await expectFailures(h, [
      [
        'ALTER TABLE users ADD COLUMN zip varchar FIRST',
        'NOT_SUPPORTED',
        'line 1:1: This connector does not support adding columns with FIRST clause',
      ],
      [
        'ALTER TABLE users ADD COLUMN zip varchar AFTER id',
        'NOT_SUPPORTED',
        'line 1:1: This connector does not support adding columns with AFTER clause',
      ],
      ['ALTER TABLE users ADD COLUMN zip varchar AFTER nosuch', 'COLUMN_NOT_FOUND', "line 1:1: Column 'nosuch' does not"],
      ['ALTER TABLE users ADD COLUMN id varchar FIRST', 'COLUMN_ALREADY_EXISTS', "line 1:1: Column 'id' already exists"],
    ]);
  });

  describe('on lake tables', function () {
    this.timeout(30_000);
    let lake: LakeFixture;
    beforeEach(() => {
      lake = LakeFixture.create();
    });
    afterEach(() => lake.remove());

    it("refuses SET DATA TYPE and SET AUTHORIZATION as Trino's Hive connector without a security system", async () => {
      await lake.harness.run('CREATE TABLE lake.default.t (id integer)');
      await expectFailures(lake.harness, [
        [
          'ALTER TABLE lake.default.t ALTER COLUMN id SET DATA TYPE bigint',
          'NOT_SUPPORTED',
          'line 1:1: This connector does not support setting column types',
        ],
        [
          'ALTER TABLE lake.default.t SET AUTHORIZATION alice',
          'NOT_SUPPORTED',
          'line 1:1: Catalog does not support permission management: lake',
        ],
      ]);
    });
  });
});
