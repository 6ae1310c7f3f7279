// The INACTIVE row of DESIGN.md's node state table: a node is INACTIVE only while it starts, before
// its HTTP server answers, so the row is checked on the state machine itself.

import { expect } from 'chai';
import { HttpError } from '../../src/errors/http-error.js';
import { NodeStateMachine } from '../../src/server/node-state.js';

function refusal(machine: NodeStateMachine, body: unknown): HttpError {
  try {
    machine.request(body);
  } catch (e) {
    expect(e).to.be.instanceOf(HttpError);
    return e as HttpError;
  }
  throw new Error(`${JSON.stringify(body)} was accepted`);
}

describe('node state machine while INACTIVE', () => {
  it('refuses every move but SHUTTING_DOWN, naming INACTIVE and its one allowed move', () => {
    const machine = new NodeStateMachine(
      () => true,
      () => undefined,
    );
    for (const target of ['INACTIVE', 'ACTIVE', 'ISOLATING', 'ISOLATED']) {
      const error = refusal(machine, target);
      expect(error.status, target).to.equal(400);
      expect(error.details, target).to.deep.equal({ currentState: 'INACTIVE', allowedStates: ['SHUTTING_DOWN'] });
      expect(error.message, target).to.match(/; allowed from INACTIVE: SHUTTING_DOWN$/);
      expect(machine.state).to.equal('INACTIVE');
    }
    expect(machine.acceptsWork).to.equal(false);
    expect(machine.notAcceptingWork('queries')).to.include({ status: 503, errorName: 'SERVER_STARTING_UP' });
  });

  it('moves to SHUTTING_DOWN and shuts down once no work is left', async () => {
    let busy = true;
    let shutdowns = 0;
    const machine = new NodeStateMachine(
      () => busy,
      () => shutdowns++,
    );
    expect(machine.request('SHUTTING_DOWN')).to.equal('SHUTTING_DOWN');
    busy = false;
    machine.workChanged();
    await new Promise((resolve) => setImmediate(resolve));
    expect(shutdowns).to.equal(1);
    expect(refusal(machine, 'ACTIVE').details).to.deep.equal({ currentState: 'SHUTTING_DOWN', allowedStates: [] });
  });
});
