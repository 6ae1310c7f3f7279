import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error.js';
import { checkResourceGroups, defaultResourceGroups } from '../../src/coordinator/resource-groups/resource-groups-file.js';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, type Exchange } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-resource-groups-'));
let files = 0;
function groupsFile(content: unknown): string {
  const path = join(dir, `groups-${files++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const ADMIN = { 'X-Engine-User': 'admin' };
const as = (user: string, source?: string) => ({ 'X-Trino-User': user, ...(source ? { 'X-Trino-Source': source } : {}) });

interface Detail {
  state: string;
  resourceGroupId?: string[];
}

describe('resource groups', function () {
  const servers: ServerProcess[] = [];
  async function start(args: string[]): Promise<string> {
    const server = await ServerProcess.start(['--admin-users', 'admin', ...args]);
    servers.push(server);
    return server.uri;
  }
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });

  async function detail(base: string, queryId: string): Promise<Detail> {
    return (await getJson<Detail>(`${base}/v1/query/${queryId}`, { headers: ADMIN })).body;
  }

  /** Queries that hold their slot until canceled: their rows wait for a reader. */
  async function blocking(base: string, headers: Record<string, string>, count: number): Promise<Exchange[]> {
    const posted: Exchange[] = [];
    for (let i = 0; i < count; i++) posted.push(await postStatement(base, MILLION_ROWS_SQL, headers));
    return posted;
  }

  const states = (posted: Exchange[]) => posted.map((p) => p.body.stats.state);

  it('by default caps one user at query.maxRunningPerUser (10), so another user still runs', async () => {
    const base = await start([]);
    const alices = await blocking(base, as('alice'), 11);
    expect(states(alices)).to.deep.equal([...Array<string>(10).fill('RUNNING'), 'QUEUED']);
    const bobs = await blocking(base, as('bob'), 1);
    expect(states(bobs)).to.deep.equal(['RUNNING']);
    expect((await detail(base, alices[10]!.body.id)).resourceGroupId).to.deep.equal(['global', 'alice']);
    expect((await detail(base, bobs[0]!.body.id)).resourceGroupId).to.deep.equal(['global', 'bob']);
  });

  it("queues a user's queries beyond the per-user cap separately: user B runs while user A's wait, within the global limit", async () => {
    const base = await start(['--query-max-running', '3', '--query-max-running-per-user', '2']);
    const alices = await blocking(base, as('alice'), 3);
    expect(states(alices)).to.deep.equal(['RUNNING', 'RUNNING', 'QUEUED']);
    const bobs = await blocking(base, as('bob'), 1);
    expect(states(bobs)).to.deep.equal(['RUNNING']);
    const carols = await blocking(base, as('carol'), 1);
    expect(states(carols)).to.deep.equal(['QUEUED']);
    // Alice's freed slot goes to carol, who runs nothing yet, before alice's own queued query.
    expect((await fetch(alices[0]!.body.nextUri!, { method: 'DELETE' })).status).to.equal(204);
    expect((await detail(base, carols[0]!.body.id)).state).to.not.equal('QUEUED');
    expect((await detail(base, alices[2]!.body.id)).state).to.equal('QUEUED');
  });

  it('fails a query at once with QUERY_QUEUE_FULL when its group holds maxQueued waiting queries', async () => {
    const file = groupsFile({
      rootGroups: [
        {
          name: 'global',
          hardConcurrencyLimit: 10,
          maxQueued: 100,
          subGroups: [{ name: 'adhoc_${USER}', hardConcurrencyLimit: 1, maxQueued: 1 }],
        },
      ],
      selectors: [{ group: 'global.adhoc_${USER}' }],
    });
    const base = await start(['--resource-groups-config-file', file]);
    const bobs = await blocking(base, as('bob'), 2);
    expect(states(bobs)).to.deep.equal(['RUNNING', 'QUEUED']);
    const refused = await follow(await postStatement(base, 'SELECT 1', as('bob')));
    expect(refused.final.error).to.deep.include({
      errorName: 'QUERY_QUEUE_FULL',
      errorType: 'INSUFFICIENT_RESOURCES',
      message: 'Too many queued queries for "global.adhoc_bob"',
    });
    expect((await follow(await postStatement(base, 'SELECT 2 AS other', as('alice')))).rows).to.deep.equal([[2]]);
  });

  it("names the group whose queue is full when it is an ancestor of the query's own group", async () => {
    const file = groupsFile({
      rootGroups: [
        {
          name: 'global',
          hardConcurrencyLimit: 1,
          maxQueued: 1,
          subGroups: [{ name: 'adhoc_${USER}', hardConcurrencyLimit: 1, maxQueued: 100 }],
        },
      ],
      selectors: [{ group: 'global.adhoc_${USER}' }],
    });
    const base = await start(['--resource-groups-config-file', file]);
    const alices = await blocking(base, as('alice'), 2);
    expect(states(alices)).to.deep.equal(['RUNNING', 'QUEUED']);
    const refused = await follow(await postStatement(base, 'SELECT 1', as('bob')));
    expect(refused.final.error).to.deep.include({
      errorName: 'QUERY_QUEUE_FULL',
      message: 'Too many queued queries for "global" (the query\'s group is "global.adhoc_bob")',
    });
  });

  it('selects the group by source and user regexes, and rejects a query no selector matches', async () => {
    const file = groupsFile({
      rootGroups: [
        {
          name: 'global',
          hardConcurrencyLimit: 10,
          maxQueued: 10,
          softMemoryLimit: '80%',
          subGroups: [
            { name: 'etl', hardConcurrencyLimit: 2, maxQueued: 5, schedulingWeight: 3 },
            { name: 'adhoc_${USER}', hardConcurrencyLimit: 1, maxQueued: 5 },
            {
              name: 'by_source',
              hardConcurrencyLimit: 1,
              maxQueued: 5,
              subGroups: [{ name: '${SOURCE}', hardConcurrencyLimit: 1, maxQueued: 5 }],
            },
          ],
        },
      ],
      selectors: [
        { source: 'etl-.*', group: 'global.etl' },
        { user: 'alice|bob', group: 'global.adhoc_${USER}' },
        { user: 'dan', group: 'global.by_source.${SOURCE}' },
      ],
    });
    const base = await start(['--resource-groups-config-file', file]);
    const groupOf = async (headers: Record<string, string>) => {
      const run = await follow(await postStatement(base, 'SELECT 1', headers));
      return { group: (await detail(base, run.final.id)).resourceGroupId, error: run.final.error };
    };
    expect((await groupOf(as('alice', 'etl-nightly'))).group).to.deep.equal(['global', 'etl']);
    expect((await groupOf(as('alice', 'notebook'))).group).to.deep.equal(['global', 'adhoc_alice']);
    expect((await groupOf(as('dan', 'report'))).group).to.deep.equal(['global', 'by_source', 'report']);
    // 'alice|bob' must match the whole user name.
    for (const headers of [as('carol'), as('alicex'), as('dan')]) {
      const rejected = await groupOf(headers);
      expect(rejected.group).to.equal(undefined);
      expect(rejected.error).to.deep.include({
        errorName: 'QUERY_REJECTED',
        errorType: 'USER_ERROR',
        message: 'Query did not match any selection rule',
      });
    }
  });

  it('hands freed slots to the queued queries round robin across groups, FIFO within a group', async () => {
    const file = groupsFile({
      rootGroups: [
        {
          name: 'global',
          hardConcurrencyLimit: 1,
          maxQueued: 10,
          subGroups: [{ name: '${USER}', hardConcurrencyLimit: 1, maxQueued: 10 }],
        },
      ],
      selectors: [{ group: 'global.${USER}' }],
    });
    const base = await start(['--resource-groups-config-file', file]);
    const [a1, a2, a3] = await blocking(base, as('alice'), 3);
    const [b1, b2] = await blocking(base, as('bob'), 2);
    expect(states([a1!, a2!, a3!, b1!, b2!])).to.deep.equal(['RUNNING', 'QUEUED', 'QUEUED', 'QUEUED', 'QUEUED']);
    const order = [a1!];
    const waiting = [a2!, a3!, b1!, b2!];
    while (waiting.length > 0) {
      expect((await fetch(order[order.length - 1]!.body.nextUri!, { method: 'DELETE' })).status).to.equal(204);
      const started: Exchange[] = [];
      for (const q of waiting) if ((await detail(base, q.body.id)).state !== 'QUEUED') started.push(q);
      expect(started, 'exactly one query starts per freed slot').to.have.length(1);
      order.push(started[0]!);
      waiting.splice(waiting.indexOf(started[0]!), 1);
    }
    expect(order.map((q) => q.body.id)).to.deep.equal([a1, b1, a2, b2, a3].map((q) => q!.body.id));
    await fetch(a3!.body.nextUri!, { method: 'DELETE' });
  });

  it('keeps queries queued while their group is over its soft memory limit', async () => {
    const file = groupsFile({
      rootGroups: [{ name: 'global', hardConcurrencyLimit: 10, maxQueued: 10, softMemoryLimit: '1B' }],
      selectors: [{ group: 'global' }],
    });
    const base = await start(['--resource-groups-config-file', file]);
    // The sort holds its rows in memory until they are read.
    const sorting = await postStatement(base, `${MILLION_ROWS_SQL} ORDER BY v DESC`, as('alice'));
    let memoryHeld = false;
    for (let i = 0; i < 200 && !memoryHeld; i++) {
      const stats = (
        await getJson<{ queryStats: { totalMemoryReservation: string } }>(`${base}/v1/query/${sorting.body.id}`, { headers: ADMIN })
      ).body.queryStats;
      memoryHeld = stats.totalMemoryReservation !== '0B';
      if (!memoryHeld) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(memoryHeld, 'the sort reserves memory').to.equal(true);
    const second = await postStatement(base, 'SELECT 3 AS after_memory', as('bob'));
    expect(second.body.stats.state).to.equal('QUEUED');
    await fetch(sorting.body.nextUri!, { method: 'DELETE' });
    expect((await follow(second)).rows).to.deep.equal([[3]]);
  });

  it('refuses to start with an invalid resource group file, naming the key', async () => {
    const bad = groupsFile({
      rootGroups: [
        { name: 'global', hardConcurrencyLimit: 'ten', maxQueued: 10, subGroups: [{ name: 'a', hardConcurrencyLimit: 1, maxQueued: 1 }] },
      ],
      selectors: [{ group: 'global.a' }],
    });
    let message = '';
    try {
      await ServerProcess.start(['--resource-groups-config-file', bad]);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).to.contain(`Invalid resource group file ${bad}`).and.contain("'rootGroups[0].hardConcurrencyLimit' must be integer");
    const missing = join(dir, 'missing.json');
    let missingMessage = '';
    try {
      await ServerProcess.start([], { ENGINE_RESOURCE_GROUPS_CONFIG_FILE: missing });
    } catch (e) {
      missingMessage = (e as Error).message;
    }
    expect(missingMessage).to.contain(`Cannot read resource group file ${missing}`);
  });
});

describe('resource group file checks', () => {
  function problems(file: unknown): string {
    try {
      checkResourceGroups(file, 'test file');
    } catch (e) {
      expect(e).to.be.instanceOf(ConfigError);
      return (e as Error).message;
    }
    throw new Error('expected a ConfigError');
  }
  const group = (name: string, extra: Record<string, unknown> = {}) => ({ name, hardConcurrencyLimit: 1, maxQueued: 1, ...extra });

  it('names unknown keys, missing keys and bad values', () => {
    expect(problems({ rootGroups: [group('g', { maxRunning: 3 })], selectors: [{ group: 'g' }] })).to.contain(
      "unknown key 'rootGroups[0].maxRunning'",
    );
    expect(problems({ rootGroups: [{ name: 'g', maxQueued: 1 }], selectors: [{ group: 'g' }] })).to.contain(
      "'rootGroups[0]' needs 'hardConcurrencyLimit'",
    );
    expect(problems({ rootGroups: [group('g')] })).to.contain("'(root)' needs 'selectors'");
    expect(problems({ rootGroups: [group('g', { softMemoryLimit: 'lots' })], selectors: [{ group: 'g' }] })).to.contain(
      "'rootGroups[0].softMemoryLimit' must match pattern",
    );
    expect(problems({ rootGroups: [group('g', { softMemoryLimit: '150%' })], selectors: [{ group: 'g' }] })).to.contain(
      "'rootGroups[0].softMemoryLimit' must be at most 100%",
    );
    expect(problems({ rootGroups: [group('a.b')], selectors: [{ group: 'a' }] })).to.contain("'rootGroups[0].name' must match pattern");
    expect(problems({ rootGroups: [group('${HOST}')], selectors: [{ group: 'x' }] })).to.contain("'rootGroups[0].name' must match pattern");
  });

  it('checks regexes, duplicate names and that selectors name groups without subgroups', () => {
    expect(problems({ rootGroups: [group('g')], selectors: [{ user: '(unclosed', group: 'g' }] })).to.contain(
      "'selectors[0].user' is not a valid regular expression",
    );
    expect(problems({ rootGroups: [group('g'), group('g')], selectors: [{ group: 'g' }] })).to.contain(
      "'rootGroups[1].name': group 'g' is defined twice",
    );
    expect(problems({ rootGroups: [group('g')], selectors: [{ group: 'g.sub' }] })).to.contain(
      "'selectors[0].group' names no configured group: 'g.sub' has no 'sub' under 'g'",
    );
    expect(problems({ rootGroups: [group('g', { subGroups: [group('s')] })], selectors: [{ group: 'g' }] })).to.contain(
      "'selectors[0].group' names 'g', which has subgroups",
    );
  });

  it('derives the default groups from the query settings', () => {
    expect(defaultResourceGroups({ maxRunning: 100, maxQueued: 1000, maxRunningPerUser: 10 })).to.deep.equal({
      rootGroups: [
        {
          name: 'global',
          hardConcurrencyLimit: 100,
          maxQueued: 1000,
          subGroups: [{ name: '${USER}', hardConcurrencyLimit: 10, maxQueued: 1000 }],
        },
      ],
      selectors: [{ group: 'global.${USER}' }],
    });
  });
});
