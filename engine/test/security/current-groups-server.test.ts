// current_groups() on a real server: the groups the group file gives the user of the request, in the
// file's order, and an empty array for a user in no group (as Trino without a group provider). The
// group file works on its own, without a rules file: Trino loads its group provider
// (GroupProviderManager, etc/group-provider.properties) apart from access control. The same server
// sends color values as Trino's client protocol does: the text ColorType.getObjectValue gives.

import { expect } from 'chai';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { EngineHarness } from '../support/engine-harness.js';
import { ServerProcess } from '../support/server-process.js';
import { runStatement } from '../support/statement-http.js';
import { RULES, tempDir, writeJson } from './rules-fixtures.js';

const as = (user: string) => ({ 'X-Trino-User': user });

describe('current_groups() without a group provider', () => {
  it('is an empty array of varchar, listed by SHOW FUNCTIONS, and takes no arguments', async () => {
    const engine = new EngineHarness();
    expect(await engine.rows('SELECT current_groups(), typeof(current_groups())')).to.deep.equal([[[], 'array(varchar)']]);
    expect(await engine.rows("SHOW FUNCTIONS LIKE 'current_groups'")).to.deep.equal([
      ['current_groups', 'array(varchar)', '', 'scalar', true, 'Current groups of current user'],
    ]);
    const e = await engine.failure('SELECT current_groups(1)');
    expect([e.errorName, e.rawMessage]).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'Unexpected parameters (integer) for function current_groups. Expected: current_groups()',
    ]);
  });
});

describe('current_groups() and color values on a real server', function () {
  this.timeout(60_000);
  let server: ServerProcess;

  before(async () => {
    const dir = tempDir();
    const rules = writeJson(join(dir, 'rules.json'), RULES);
    const groups = join(dir, 'group.txt');
    writeFileSync(groups, 'analysts:dave,erin\n# a comment\nadmins:dave\n');
    server = await ServerProcess.start(['--security-rules-file', rules, '--security-group-file', groups]);
  });
  after(async () => {
    await server.stop();
  });

  it("answers each user's groups from the group file", async () => {
    const dave = await runStatement(server.uri, 'SELECT current_groups()', as('dave'));
    expect(dave.columns?.map((c) => c.type)).to.deep.equal(['array(varchar)']);
    expect(dave.rows).to.deep.equal([[['analysts', 'admins']]]);
    expect((await runStatement(server.uri, 'SELECT current_groups()', as('erin'))).rows).to.deep.equal([[['analysts']]]);
    expect((await runStatement(server.uri, 'SELECT cardinality(current_groups())', as('carol'))).rows).to.deep.equal([[0]]);
  });

  it('sends a color as #rrggbb or its system name, typed color', async () => {
    const run = await runStatement(server.uri, "SELECT color('#f0a'), rgb(1, 2, 3), color('cyan'), CAST(NULL AS color)", as('dave'));
    expect(run.final.error).to.equal(undefined);
    expect(run.columns?.map((c) => [c.type, c.typeSignature])).to.deep.equal(
      Array.from({ length: 4 }, () => ['color', { rawType: 'color', arguments: [] }]),
    );
    expect(run.rows).to.deep.equal([['#ff00aa', '#010203', 'cyan', null]]);
  });
});

describe('current_groups() on a real server with a group file and no rules file', function () {
  this.timeout(60_000);
  let server: ServerProcess;

  before(async () => {
    const groups = join(tempDir(), 'group.txt');
    writeFileSync(groups, 'analysts:dave,erin\nadmins:dave\n');
    server = await ServerProcess.start(['--security-group-file', groups]);
  });
  after(async () => {
    await server?.stop();
  });

  it("answers each user's groups from the group file, and every user may still run queries (no access rules)", async () => {
    expect((await runStatement(server.uri, 'SELECT current_groups()', as('dave'))).rows).to.deep.equal([[['analysts', 'admins']]]);
    expect((await runStatement(server.uri, 'SELECT current_groups()', as('erin'))).rows).to.deep.equal([[['analysts']]]);
    const carol = await runStatement(server.uri, 'SELECT cardinality(current_groups()), count(*) FROM tpch.tiny.nation', as('carol'));
    expect(carol.final.error).to.equal(undefined);
    expect(carol.rows).to.deep.equal([[0, 25]]);
  });
});
