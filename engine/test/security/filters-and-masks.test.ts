import { expect } from 'chai';
import { join } from 'node:path';
import { EngineHarness } from '../support/engine-harness.js';
import { accessControlFrom, tempDir, writeJson } from './rules-fixtures.js';

const RULES = {
  tables: [
    { user: 'admin', privileges: ['SELECT', 'INSERT', 'DELETE', 'UPDATE', 'OWNERSHIP', 'GRANT_SELECT'] },
    {
      user: 'bob',
      table: 'people|people_invoker',
      privileges: ['SELECT'],
      filter: 'owner = current_user',
      filter_environment: { user: 'admin' },
      columns: [
        { name: 'ssn', mask: "'XXX-' || substr(ssn, 8)" },
        { name: 'salary', mask: 'NULL' },
      ],
    },
    { user: 'carol', table: 'people', privileges: ['SELECT', 'INSERT', 'DELETE', 'UPDATE'], filter: "region = 'EU'" },
    { user: 'dan', table: 'people', privileges: ['SELECT', 'INSERT', 'UPDATE'], columns: [{ name: 'ssn', mask: 'length(ssn)' }] },
    { user: 'erin', table: 'people', privileges: ['SELECT'], filter: 'nosuch = 1' },
    { user: 'fay', table: 'people_view', privileges: ['SELECT'] },
    { user: 'hal', table: 'people', privileges: ['SELECT'], filter: '1' },
  ],
};

describe('file-based access control: row filters and column masks (in process)', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    h.session.user = 'admin';
    await h.run(
      'CREATE TABLE people (name varchar, owner varchar, region varchar, ssn varchar, salary bigint)',
      "INSERT INTO people VALUES ('a', 'bob', 'EU', '123-45-6789', 100), ('b', 'carol', 'US', '987-65-4321', 200), ('c', 'bob', 'US', '555-55-5555', 300)",
      'CREATE VIEW people_view AS SELECT name, ssn FROM people',
      'CREATE VIEW people_invoker SECURITY INVOKER AS SELECT name, ssn FROM people',
    );
    h.catalogs.accessControl = accessControlFrom(writeJson(join(tempDir(), 'rules.json'), RULES));
  });

  async function as(user: string, sql: string): Promise<unknown[][]> {
    h.session.user = user;
    return h.rows(sql);
  }

  async function failureAs(user: string, sql: string): Promise<{ errorName: string; message: string }> {
    h.session.user = user;
    return h.failure(sql);
  }

  it('reads only the rows the filter keeps, with masks in place of masked columns', async () => {
    expect(await as('bob', 'SELECT name, ssn, salary FROM people ORDER BY name')).to.deep.equal([
      ['a', 'XXX-6789', null],
      ['c', 'XXX-5555', null],
    ]);
    expect(await as('bob', 'SELECT count(*), count(salary) FROM people')).to.deep.equal([[2n, 0n]]);
    expect(await as('carol', 'SELECT name, ssn FROM people ORDER BY name')).to.deep.equal([['a', '123-45-6789']]);
    expect(await as('admin', 'SELECT count(*) FROM people')).to.deep.equal([[3n]]);
  });

  it('evaluates the query over masked values, and the filter over unmasked ones', async () => {
    expect(await as('bob', "SELECT name FROM people WHERE ssn = '123-45-6789'")).to.deep.equal([]);
    expect(await as('bob', "SELECT name FROM people WHERE ssn LIKE 'XXX-%' ORDER BY name")).to.deep.equal([['a'], ['c']]);
    expect(await as('bob', "SELECT p.name FROM people p JOIN people q ON p.ssn = q.ssn WHERE q.ssn = 'XXX-5555'")).to.deep.equal([['c']]);
  });

  it('applies the view owner’s rules below a definer view and the user’s below an invoker view', async () => {
    expect(await as('fay', 'SELECT name, ssn FROM people_view ORDER BY name')).to.deep.equal([
      ['a', '123-45-6789'],
      ['b', '987-65-4321'],
      ['c', '555-55-5555'],
    ]);
    expect(await as('bob', 'SELECT name, ssn FROM people_invoker ORDER BY name')).to.deep.equal([
      ['a', 'XXX-6789'],
      ['c', 'XXX-5555'],
    ]);
  });

  it('names the table of a filter or mask that does not fit', async () => {
    expect(await failureAs('dan', 'SELECT ssn FROM people')).to.include({
      errorName: 'TYPE_MISMATCH',
      message: "Expected column mask for 'memory.default.people.ssn' to be of type varchar, but was bigint",
    });
    expect(await failureAs('hal', 'SELECT name FROM people')).to.include({
      errorName: 'TYPE_MISMATCH',
      message: "Expected row filter for 'memory.default.people' to be of type BOOLEAN, but was integer",
    });
    expect(await failureAs('erin', 'SELECT name FROM people')).to.include({
      errorName: 'COLUMN_NOT_FOUND',
      message: "Invalid row filter for 'memory.default.people': Column 'nosuch' cannot be resolved",
    });
  });

  it('refuses to change rows of a table read through a filter or masks (NOT_SUPPORTED)', async () => {
    const refused = async (user: string, sql: string) => {
      const e = await failureAs(user, sql);
      expect(e.errorName, e.message).to.equal('NOT_SUPPORTED');
      return e.message;
    };
    expect(await refused('carol', "INSERT INTO people VALUES ('d', 'carol', 'EU', '1', 1)")).to.equal(
      'line 1:1: Insert into table with a row filter is not supported',
    );
    expect(await refused('carol', 'DELETE FROM people')).to.equal('line 1:1: Deleting from a table with a row filter is not supported');
    expect(await refused('carol', 'UPDATE people SET salary = 0')).to.equal(
      'line 1:1: Updating a table with a row filter is not supported',
    );
    expect(await refused('dan', "INSERT INTO people VALUES ('d', 'dan', 'EU', '1', 1)")).to.equal(
      'line 1:1: Insert into table with column masks is not supported',
    );
    expect(await refused('dan', 'UPDATE people SET salary = 0')).to.equal('line 1:1: Updating a table with column masks is not supported');
    expect(await as('admin', 'SELECT count(*), sum(salary) FROM people')).to.deep.equal([[3n, 600n]]);
  });
});
