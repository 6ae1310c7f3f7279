import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('per-query memory limit', () => {
  it('fails a query whose hash tables exceed the limit with EXCEEDED_LOCAL_MEMORY_LIMIT, and the engine keeps working', async () => {
    const h = new EngineHarness({ memoryLimitBytes: 8 * 1024 * 1024 });
    await h.run('CREATE TABLE big AS SELECT CAST(x AS bigint) AS k, CAST(x AS varchar) AS s FROM (VALUES 1,2,3,4,5,6,7,8,9,10) t(x)');
    // Grow a table to 327,680 distinct keys by repeated self-inserts.
    await h.run('CREATE TABLE grow AS SELECT k, s FROM big');
    for (let i = 0; i < 15; i++) await h.run('INSERT INTO grow SELECT k + (SELECT count(*) FROM grow), s FROM grow');
    const count = (await h.rows('SELECT count(*) FROM grow'))[0][0] as bigint;
    expect(count > 100_000n).to.equal(true);
    let error: unknown;
    try {
      await h.rows('SELECT k, count(*), max(s) FROM grow GROUP BY k ORDER BY k');
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(EngineError);
    expect((error as EngineError).errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect((error as EngineError).message).to.match(/Query exceeded per-node memory limit of 8\.00MB/);
    expect(await h.rows('SELECT count(*) FROM big')).to.deep.equal([[10n]]);
  });
});
