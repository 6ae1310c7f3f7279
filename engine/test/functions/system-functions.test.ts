// functions/system.md: version() is the version the node reports (its package's, as GET /v1/info's
// nodeVersion), and SHOW FUNCTIONS does not list it, as Trino hides its VersionFunction.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { EngineHarness } from '../support/engine-harness.js';

describe('version()', () => {
  const engine = new EngineHarness();

  it("is the engine package's version, as varchar, and hidden from SHOW FUNCTIONS", async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await engine.rows('SELECT version(), typeof(version())')).to.deep.equal([[pkg.version, 'varchar']]);
    expect(await engine.rows("SHOW FUNCTIONS LIKE 'version'")).to.deep.equal([]);
  });
});
