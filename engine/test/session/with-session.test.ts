// WITH SESSION: session properties for one query, checked as SET SESSION checks them. The oracle is
// Trino's TestInlineSession (its messages and positions) and select.md's WITH SESSION example.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { PostgresConnector } from '../../src/connectors/postgresql/postgresql-connector.js';
import { postgresConfig } from '../../src/connectors/postgresql/postgresql-config.js';

describe('WITH SESSION', () => {
  let h: EngineHarness;

  beforeEach(() => {
    h = new EngineHarness();
    // A catalog with session properties (its server is never contacted by these queries).
    h.catalogs.register('pg', new PostgresConnector('pg', postgresConfig('pg', { 'connection-url': 'postgresql://127.0.0.1:1/none' })));
  });

  it('sets a property for its query only (Trino: time_zone_id shown by current_timezone())', async () => {
    expect(await h.rows("WITH SESSION time_zone_id = 'Europe/Warsaw' SELECT current_timezone()")).to.deep.equal([['Europe/Warsaw']]);
    expect(await h.rows('SELECT current_timezone()')).to.deep.equal([['UTC']]);
    expect(h.session.properties.size).to.equal(0);
    h.session.properties.set('time_zone_id', 'America/Los_Angeles');
    expect(await h.rows("WITH SESSION time_zone_id = 'Europe/Warsaw' SELECT current_timezone()")).to.deep.equal([['Europe/Warsaw']]);
    expect(await h.rows('SELECT current_timezone()')).to.deep.equal([['America/Los_Angeles']]);
  });

  it("runs select.md's example: a system and a catalog property together", async () => {
    const { rows, result } = await h.query("WITH SESSION query_max_execution_time = '2h', pg.filter_pushdown_enabled = false SELECT 1");
    expect(rows).to.deep.equal([[1]]);
    expect(result.sessionChanges.setSessionProperties.size).to.equal(0);
  });

  it('checks and applies the properties of an explained query', async () => {
    expect((await h.failure('EXPLAIN WITH SESSION invalid_key = 1 SELECT 1')).message).to.equal(
      "line 1:36: Session property 'invalid_key' does not exist",
    );
    const [[plan]] = await h.rows("EXPLAIN WITH SESSION time_zone_id = 'Europe/Warsaw' SELECT current_timezone()");
    expect(plan).to.contain('Europe/Warsaw');
  });

  it('applies the value of a prepared statement parameter', async () => {
    await h.run('PREPARE zone FROM WITH SESSION time_zone_id = ? SELECT current_timezone()');
    expect(await h.rows("EXECUTE zone USING 'Europe/Warsaw'")).to.deep.equal([['Europe/Warsaw']]);
  });

  it("refuses what SET SESSION refuses, with Trino's errors and positions", async () => {
    const failure = async (sql: string) => {
      const e = await h.failure(sql);
      return [e.errorName, e.message];
    };
    expect(await failure("WITH SESSION invalid_key = 'invalid_value' SELECT 1")).to.deep.equal([
      'INVALID_SESSION_PROPERTY',
      "line 1:28: Session property 'invalid_key' does not exist",
    ]);
    expect(await failure("WITH SESSION test.schema.invalid_key = 'invalid_value' SELECT 1")).to.deep.equal([
      'INVALID_SESSION_PROPERTY',
      "line 1:14: Invalid session property 'test.schema.invalid_key'",
    ]);
    expect(await failure("WITH SESSION query_max_execution_time = '1h', query_max_execution_time = '2h' SELECT 1")).to.deep.equal([
      'INVALID_SESSION_PROPERTY',
      "line 1:47: Session property 'query_max_execution_time' already set",
    ]);
    expect(await failure("WITH SESSION pg.invalid_key = 'invalid_value' SELECT 1")).to.deep.equal([
      'INVALID_SESSION_PROPERTY',
      "line 1:31: Session property 'pg.invalid_key' does not exist",
    ]);
    expect(await failure('WITH SESSION pg.split_count = 1, pg.split_count = 2 SELECT 1')).to.deep.equal([
      'INVALID_SESSION_PROPERTY',
      "line 1:34: Session property 'pg.split_count' already set",
    ]);
    expect(await failure("WITH SESSION task_concurrency = '4' SELECT 1")).to.deep.equal([
      'INVALID_SESSION_PROPERTY',
      "line 1:33: Unable to set session property 'task_concurrency' to ''4'': Cannot convert ['4'] to integer",
    ]);
    expect((await failure('WITH SESSION pg.split_count = 0 SELECT 1'))[1]).to.contain('must be at least 1');
    expect((await failure("WITH SESSION query_max_execution_time = 'soon' SELECT 1"))[1]).to.contain('is not a duration');
    const zone = await failure("WITH SESSION time_zone_id = 'Europe/Wonderland' SELECT current_timezone()");
    expect(zone[0]).to.equal('INVALID_SESSION_PROPERTY');
    expect(zone[1]).to.contain('Time zone not supported: Europe/Wonderland');
    expect(await failure('WITH SESSION nope.x = 1 SELECT 1')).to.deep.equal(['CATALOG_NOT_FOUND', "line 1:23: Catalog 'nope' not found"]);
  });
});
