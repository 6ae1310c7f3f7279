// Every move of DESIGN.md's node state table over PUT /v1/info/state on a real server, from each
// state it can be put in over HTTP, and every kind of bad body from each of them: an allowed move
// answers 200 with the new state, a refused one 400 with a JSON error naming the current state and
// the allowed moves, and changes nothing. (INACTIVE exists only before the server listens: its row
// is in node-state-machine.test.ts.)

import { expect } from 'chai';
import { nodeState, openQuery, putState } from '../support/node-state-http.js';
import { ServerProcess } from '../support/server-process.js';
import { follow } from '../support/statement-http.js';

type State = 'INACTIVE' | 'ACTIVE' | 'ISOLATING' | 'ISOLATED' | 'SHUTTING_DOWN';
const STATES: readonly State[] = ['INACTIVE', 'ACTIVE', 'ISOLATING', 'ISOLATED', 'SHUTTING_DOWN'];

/** DESIGN.md's table, as written there: yes = moves, '-' = accepted with no effect, no = refused. */
const TABLE: Record<Exclude<State, 'INACTIVE'>, Record<State, 'yes' | '-' | 'no'>> = {
  ACTIVE: { INACTIVE: 'no', ACTIVE: '-', ISOLATING: 'yes', ISOLATED: 'yes', SHUTTING_DOWN: 'yes' },
  ISOLATING: { INACTIVE: 'no', ACTIVE: 'yes', ISOLATING: '-', ISOLATED: 'yes', SHUTTING_DOWN: 'yes' },
  ISOLATED: { INACTIVE: 'no', ACTIVE: 'yes', ISOLATING: 'yes', ISOLATED: '-', SHUTTING_DOWN: 'yes' },
  SHUTTING_DOWN: { INACTIVE: 'no', ACTIVE: 'no', ISOLATING: 'no', ISOLATED: 'no', SHUTTING_DOWN: '-' },
};

function allowedFrom(from: keyof typeof TABLE): State[] {
  return STATES.filter((to) => TABLE[from][to] === 'yes');
}

/** Bodies that name no state, each with what a PUT sends: [body, Content-Type]. */
const BAD_BODIES: ReadonlyArray<readonly [string, string | null]> = [
  ['"RUNNING"', 'application/json'],
  ['"active"', 'application/json'],
  ['ACTIVE', 'application/json'],
  ['{"state":"ACTIVE"}', 'application/json'],
  ['["ACTIVE"]', 'application/json'],
  ['null', 'application/json'],
  ['42', 'application/json'],
  ['', 'application/json'],
  ['"ACTIVE', 'application/json'],
  ['"ACTIVE"', 'text/plain'],
  ['"ACTIVE"', null],
];

interface Refusal {
  error: { message: string; errorName: string; currentState: string; allowedStates: string[] };
}

/** A refused PUT: 400, the JSON error names the state and the allowed moves, and the state is unchanged. */
async function expectRefused(
  base: string,
  from: keyof typeof TABLE,
  body: string,
  contentType: string | null,
  errorName: string,
): Promise<Refusal['error']> {
  const label = `${from} <- ${body} (${contentType ?? 'no Content-Type'})`;
  const answer = await putState(base, body, contentType);
  expect(answer.status, label).to.equal(400);
  const error = (answer.body as Refusal).error;
  expect(error.errorName, label).to.equal(errorName);
  expect(error.currentState, label).to.equal(from);
  expect(error.allowedStates, label).to.deep.equal(allowedFrom(from));
  const allowed = allowedFrom(from);
  expect(error.message, label).to.have.string(`; allowed from ${from}: ${allowed.length > 0 ? allowed.join(', ') : 'none'}`);
  expect(await nodeState(base), label).to.equal(from);
  return error;
}

/** Every target but SHUTTING_DOWN (which ends the server), then every bad body, from `from`. */
async function checkRow(base: string, from: 'ACTIVE' | 'ISOLATING' | 'ISOLATED', enter: () => Promise<void>): Promise<void> {
  for (const to of STATES.filter((s) => s !== 'SHUTTING_DOWN')) {
    await enter();
    expect(await nodeState(base)).to.equal(from);
    const label = `${from} -> ${to}`;
    if (TABLE[from][to] === 'no') {
      const error = await expectRefused(base, from, JSON.stringify(to), 'application/json', 'INVALID_NODE_STATE_TRANSITION');
      expect(error.message, label).to.match(
        to === 'INACTIVE' ? /^Cannot move a node to INACTIVE; / : new RegExp(`^Cannot move node from ${from} to ${to}; `),
      );
    } else {
      const expected = TABLE[from][to] === '-' ? from : to;
      expect(await putState(base, JSON.stringify(to)), label).to.deep.equal({ status: 200, body: expected });
      expect(await nodeState(base), label).to.equal(expected);
    }
  }
  await enter();
  for (const [body, contentType] of BAD_BODIES) await expectRefused(base, from, body, contentType, 'INVALID_NODE_STATE');
}

describe('node state table over PUT /v1/info/state', function () {
  this.timeout(60_000);

  it('makes exactly the moves of the table from ACTIVE, ISOLATING and ISOLATED, and refuses bad bodies from each', async () => {
    const server = await ServerProcess.start();
    try {
      const base = server.uri;
      // A statement whose client has not read it keeps the node busy, so that ISOLATING stays ISOLATING.
      const held = await openQuery(base, 'SELECT 1');
      const put = async (state: string) => {
        expect((await putState(base, JSON.stringify(state))).status).to.equal(200);
      };
      await checkRow(base, 'ACTIVE', () => put('ACTIVE'));
      await checkRow(base, 'ISOLATING', async () => {
        await put('ACTIVE');
        await put('ISOLATING');
      });
      await checkRow(base, 'ISOLATED', () => put('ISOLATED'));
      await put('ACTIVE');
      expect((await follow(held)).rows).to.deep.equal([[1]]);
    } finally {
      await server.stop();
    }
  });

  for (const from of ['ACTIVE', 'ISOLATING', 'ISOLATED'] as const) {
    it(`moves from ${from} to SHUTTING_DOWN, which refuses every other move and bad body, then exits once the work is done`, async () => {
      const server = await ServerProcess.start();
      const base = server.uri;
      const held = await openQuery(base, 'SELECT 1');
      if (from !== 'ACTIVE') expect(await putState(base, JSON.stringify(from))).to.deep.equal({ status: 200, body: from });
      expect(await putState(base, '"SHUTTING_DOWN"')).to.deep.equal({ status: 200, body: 'SHUTTING_DOWN' });
      for (const to of STATES) {
        if (to === 'SHUTTING_DOWN') expect(await putState(base, '"SHUTTING_DOWN"')).to.deep.equal({ status: 200, body: 'SHUTTING_DOWN' });
        else await expectRefused(base, 'SHUTTING_DOWN', JSON.stringify(to), 'application/json', 'INVALID_NODE_STATE_TRANSITION');
      }
      for (const [body, contentType] of BAD_BODIES) await expectRefused(base, 'SHUTTING_DOWN', body, contentType, 'INVALID_NODE_STATE');
      expect(server.running).to.equal(true);
      expect((await follow(held)).rows).to.deep.equal([[1]]);
      expect(await server.waitForExit()).to.equal(0);
    });
  }
});
