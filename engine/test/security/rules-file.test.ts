import { expect } from 'chai';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../../src/config/config-error.js';
import { rulesImpersonation } from '../../src/security/access-control/impersonation-rules.js';
import { RULES, accessControlFrom, capturingLogger, harnessWithRules, tempDir, writeJson } from './rules-fixtures.js';

function loadError(text: string): string {
  const path = join(tempDir(), 'rules.json');
  writeFileSync(path, text);
  try {
    accessControlFrom(path);
  } catch (e) {
    expect(e).to.be.instanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error(`rules loaded: ${text}`);
}

describe('file-based access control: the rules file', () => {
  describe('refused at start', () => {
    it('names the line and column of a syntax error', () => {
      const message = loadError('{\n  "catalogs": [\n    { "allow": "all", }\n  ]\n}\n');
      expect(message).to.match(/^Invalid access rules file .*rules\.json: line 3:23: invalid JSON/);
      expect(loadError('{"tables": [')).to.match(/line 1:13: invalid JSON/);
      expect(loadError('')).to.match(/line 1:1: invalid JSON/);
      expect(loadError('{"catalogs": []} x')).to.match(/line 1:18: invalid JSON/);
    });

    it('names what is wrong and where', () => {
      expect(loadError('[]')).to.match(/\(the file\): expected an object/);
      expect(loadError('{"tabels": []}')).to.match(/unknown section 'tabels'/);
      expect(loadError('{"catalogs": [{"allow": "some"}]}')).to.match(/catalogs\[0\]\.allow: unknown catalog access "some"/);
      expect(loadError('{"catalogs": [{"catalog": "x"}]}')).to.match(/catalogs\[0\]: 'allow' is required/);
      expect(loadError('{"tables": [{"privileges": ["SELECT", "READ"]}]}')).to.match(
        /tables\[0\]\.privileges\[1\]: unknown privilege "READ"/,
      );
      expect(loadError('{"tables": [{"user": "(", "privileges": []}]}')).to.match(/tables\[0\]\.user: invalid regular expression "\("/);
      expect(loadError('{"tables": [{"privileges": [], "owner": true}]}')).to.match(/tables\[0\]: unknown field 'owner'/);
      expect(loadError('{"queries": [{"queryOwner": "a", "allow": ["execute"]}]}')).to.match(
        /queries\[0\]: a rule with 'queryOwner' cannot allow 'execute'/,
      );
      expect(loadError('{"impersonation": [{"original_user": "a", "new_user": "$1"}]}')).to.match(
        /impersonation\[0\]\.new_user: refers to group \$1/,
      );
      expect(loadError('{"tables": [{"privileges": ["SELECT"], "filter": "id >"}]}')).to.match(/tables\[0\]\.filter: "id >": line 1:5: /);
      expect(loadError('{"tables": [{"privileges": ["SELECT"], "columns": [{"name": "a", "mask": "max(a)"}]}]}')).to.match(
        /tables\[0\]\.columns\[0\]\.mask: "max\(a\)": .*Column mask cannot contain aggregations/,
      );
      expect(loadError('{"tables": [{"privileges": ["SELECT"], "filter": "true", "filter_environment": {"role": "x"}}]}')).to.match(
        /tables\[0\]\.filter_environment: unknown field 'role'/,
      );
      expect(loadError('{"system_session_properties": [{"allow": "yes"}]}')).to.match(
        /system_session_properties\[0\]\.allow: expected true or false/,
      );
    });

    it('refuses what is not supported yet with NOT_SUPPORTED naming it', () => {
      expect(loadError('{"tables": [{"privileges": ["SELECT"], "filter": "id IN (SELECT id FROM t)"}]}')).to.match(
        /tables\[0\]\.filter: "id IN \(SELECT id FROM t\)": subqueries in row filters are NOT_SUPPORTED yet/,
      );
      expect(loadError('{"tables": [{"privileges": ["SELECT"], "columns": [{"name": "ssn", "mask": "(SELECT 1)"}]}]}')).to.match(
        /tables\[0\]\.columns\[0\]\.mask: "\(SELECT 1\)": subqueries in column masks are NOT_SUPPORTED yet/,
      );
      expect(loadError('{"functions": []}')).to.match(/'functions': function rules are NOT_SUPPORTED/);
      expect(loadError('{"catalog_session_properties": []}')).to.match(
        /'catalog_session_properties': catalog session property rules are NOT_SUPPORTED/,
      );
    });

    it('refuses a missing file, naming it', () => {
      expect(() => accessControlFrom('/nonexistent/rules.json')).to.throw(
        ConfigError,
        /Invalid access rules file \/nonexistent\/rules\.json: ENOENT/,
      );
    });
  });

  describe('reloaded on change', () => {
    it('applies a changed file, and keeps the last good rules when a change cannot be used, logging why once', async () => {
      const path = writeJson(join(tempDir(), 'rules.json'), RULES);
      const h = await harnessWithRules(path);
      const { logger, lines } = capturingLogger();
      h.catalogs.accessControl = accessControlFrom(path, { logger });
      h.session.user = 'bob';
      expect((await h.failure('SELECT x FROM hidden')).message).to.equal('Access Denied: Cannot select from table memory.default.hidden');

      writeJson(path, { ...RULES, tables: [{ user: 'bob', table: 'hidden', privileges: ['SELECT'] }, ...RULES.tables] });
      expect(await h.rows('SELECT x FROM hidden')).to.deep.equal([[7n]]);
      expect(lines.filter((l) => l.includes('reloaded access rules file'))).to.have.length(1);

      writeFileSync(path, '{"tables": [\n  {"privileges": }\n]}');
      expect(await h.rows('SELECT x FROM hidden')).to.deep.equal([[7n]]);
      expect(await h.rows('SELECT x FROM hidden')).to.deep.equal([[7n]]);
      const refusals = lines.filter((l) => l.includes('not reloaded'));
      expect(refusals).to.have.length(1);
      expect(JSON.parse(refusals[0]).msg).to.match(
        /access rules file .*rules\.json not reloaded, keeping the last good version: line 2:18: invalid JSON/,
      );

      writeJson(path, RULES);
      expect((await h.failure('SELECT x FROM hidden')).message).to.equal('Access Denied: Cannot select from table memory.default.hidden');
    });

    it('reads a changed group file', async () => {
      const dir = tempDir();
      const groups = join(dir, 'group.txt');
      writeFileSync(groups, 'analysts:dave\n');
      const h = await harnessWithRules(writeJson(join(dir, 'rules.json'), RULES), groups);
      h.session.user = 'erin';
      expect((await h.failure('SELECT count(*) FROM tpch.tiny.region')).message).to.equal('Access Denied: Cannot access catalog tpch');
      writeFileSync(groups, 'analysts:dave,erin\n');
      expect(await h.rows('SELECT count(*) FROM tpch.tiny.region')).to.deep.equal([[5n]]);
    });
  });

  describe('query rules', () => {
    it('decide who views and kills whose queries; everyone their own; everyone everything without a queries section', () => {
      const rules = accessControlFrom(writeJson(join(tempDir(), 'rules.json'), RULES));
      expect(rules.canViewQueryOwnedBy('viewer', 'alice')).to.equal(true);
      expect(rules.canKillQueryOwnedBy('viewer', 'alice')).to.equal(false);
      expect(rules.canViewQueryOwnedBy('viewer', 'bob')).to.equal(false);
      expect(rules.canKillQueryOwnedBy('admin', 'bob')).to.equal(true);
      expect(rules.canKillQueryOwnedBy('banned', 'banned')).to.equal(true);
      expect(rules.canViewQueryOwnedBy('bob', 'alice')).to.equal(false);
      const open = accessControlFrom(writeJson(join(tempDir(), 'rules.json'), { tables: [] }));
      expect(open.canViewQueryOwnedBy('bob', 'alice')).to.equal(true);
      expect(open.canKillQueryOwnedBy('bob', 'alice')).to.equal(true);
    });
  });

  describe('impersonation rules', () => {
    it('allows what the first matching rule allows, with groups of original_user in new_user', () => {
      const may = rulesImpersonation(accessControlFrom(writeJson(join(tempDir(), 'rules.json'), RULES)));
      expect(may.canImpersonate('team_admin', 'team')).to.equal(true);
      expect(may.canImpersonate('team_admin', 'other')).to.equal(false);
      expect(may.canImpersonate('admin', 'carol')).to.equal(true);
      expect(may.canImpersonate('admin', 'bob')).to.equal(false);
      expect(may.canImpersonate('carol', 'carol')).to.equal(true);
      expect(may.canImpersonate('carol', 'bob')).to.equal(false);
    });

    it('without impersonation rules or without a rules file, only lets users be themselves', () => {
      const without = rulesImpersonation(accessControlFrom(writeJson(join(tempDir(), 'rules.json'), { catalogs: [{ allow: 'all' }] })));
      expect(without.canImpersonate('admin', 'bob')).to.equal(false);
      expect(without.canImpersonate('admin', 'admin')).to.equal(true);
      expect(rulesImpersonation(undefined).canImpersonate('admin', 'bob')).to.equal(false);
      expect(rulesImpersonation(undefined).canImpersonate('bob', 'bob')).to.equal(true);
    });
  });
});
