// Routines in the lake catalog: kept as Trino's file metastore keeps them
// (<schema>/.trinoFunction/<name>=<sha256 of the signature token>, Trino's LanguageFunction JSON), so
// that a routine survives a restart and every node that sees the folder sees it.

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HiveConnector } from '../../src/connectors/hive/hive-connector.js';
import { LakeFixture } from '../connectors/lake/lake-fixture.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('SQL routines in the lake catalog', () => {
  let lake: LakeFixture;

  beforeEach(() => {
    lake = LakeFixture.create();
  });

  afterEach(() => lake.remove());

  it("keeps a routine in Trino's file metastore layout, and calls it after a restart", async () => {
    await lake.harness.run(
      'CREATE FUNCTION lake.default.power_of(n bigint, p bigint) RETURNS bigint BEGIN DECLARE r bigint DEFAULT 1; WHILE p > 0 DO SET r = r * n; SET p = p - 1; END WHILE; RETURN r; END',
    );
    const directory = join(lake.root, 'catalog', 'default', '.trinoFunction');
    // Trino hashes the token's UTF-16 code units (Guava's hashUnencodedChars).
    const hash = createHash('sha256').update(Buffer.from('bigint,bigint', 'utf16le')).digest('hex');
    expect(readdirSync(directory)).to.deep.equal([`power_of=${hash}`]);
    expect(JSON.parse(readFileSync(join(directory, `power_of=${hash}`), 'utf8'))).to.deep.equal({
      signatureToken: 'bigint,bigint',
      sql: 'FUNCTION power_of(n bigint, p bigint) RETURNS bigint BEGIN DECLARE r bigint DEFAULT 1; WHILE p > 0 DO SET r = r * n; SET p = p - 1; END WHILE; RETURN r; END',
      path: [],
      owner: 'test',
    });
    // A new engine over the same folder: another node, or this one after a restart.
    const restarted = new EngineHarness();
    restarted.catalogs.register('lake', new HiveConnector('lake', { catalogDir: `file://${join(lake.root, 'catalog')}/`, fileSystem: {} }));
    expect(await restarted.rows('SELECT lake.default.power_of(2, 10)')).to.deep.equal([[1024n]]);
    expect((await restarted.rows('SHOW FUNCTIONS FROM lake.default')).map((r) => r.slice(0, 3))).to.deep.equal([
      ['power_of', 'bigint', 'bigint, bigint'],
    ]);
    await restarted.run('DROP FUNCTION lake.default.power_of(bigint, bigint)');
    expect(readdirSync(directory)).to.deep.equal([]);
    const error = await lake.harness.failure('SELECT lake.default.power_of(2, 10)');
    expect(error.errorName).to.equal('FUNCTION_NOT_FOUND');
  });
});
