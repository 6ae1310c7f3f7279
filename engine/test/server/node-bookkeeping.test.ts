import { expect } from 'chai';
import { DecayCounter } from '../../src/coordinator/decay-counter.js';
import { NodeManager } from '../../src/coordinator/node-manager.js';
import { QueryIdGenerator } from '../../src/coordinator/query-id.js';
import { RemoteNode, failureInfo } from '../../src/coordinator/remote-node.js';
import { HttpError } from '../../src/errors/http-error.js';
import type { NodeState } from '../../src/internode/node-status.js';
import { NodeStateMachine } from '../../src/server/node-state.js';

describe('DecayCounter', () => {
  it('decays with a one-minute parameter: 1000 becomes about 368 after a minute', () => {
    let now = 1_000_000;
    const counter = new DecayCounter(undefined, () => now);
    counter.add(1000);
    expect(counter.get()).to.equal(1000);
    now += 60_000;
    expect(counter.get()).to.be.closeTo(367.88, 0.01);
    counter.add(1);
    now += 60_000;
    expect(counter.get()).to.be.closeTo((367.879 + 1) / Math.E, 0.01);
  });
});

describe('RemoteNode entries', () => {
  it('report decaying counters and the last failure only once there is one', () => {
    let now = Date.UTC(2026, 0, 1);
    const node = new RemoteNode('w1', 'http://10.0.0.2:8080', () => now);
    node.requestStarted();
    node.requestSucceeded();
    now += 30_000;
    let entry = node.entry();
    expect(entry.uri).to.equal('http://10.0.0.2:8080');
    expect(entry.recentRequests).to.be.closeTo(Math.exp(-0.5), 1e-9);
    expect(entry.recentFailures).to.equal(0);
    expect(entry.recentFailureRatio).to.equal(0);
    expect(entry.recentFailuresByType).to.deep.equal({});
    expect(entry.age).to.equal('30.00s');
    expect(entry.lastRequestTime).to.equal('2026-01-01T00:00:00.000Z');
    expect(entry).not.to.have.property('lastFailureInfo');
    node.requestStarted();
    node.requestFailed(failureInfo(new TypeError('connection refused')));
    entry = node.entry();
    expect(entry.recentFailures).to.equal(1);
    expect(entry.recentFailuresByType).to.deep.equal({ TypeError: 1 });
    expect(entry.lastFailureInfo).to.include({ type: 'TypeError', message: 'connection refused' });
    expect(entry.lastFailureInfo!.stack).to.be.an('array');
    expect(entry.lastFailureInfo!.suppressed).to.deep.equal([]);
  });

  it('count every health check and every failed one since the node was first seen, without decay', () => {
    let now = Date.UTC(2026, 0, 1);
    const node = new RemoteNode('w1', 'http://10.0.0.2:8080', () => now);
    expect(node).to.include({ healthChecks: 0, healthChecksFailed: 0 });
    for (const fails of [false, true, true, false, true]) {
      node.requestStarted();
      if (fails) node.requestFailed(failureInfo(new Error('did not answer within 500 ms')));
      else node.requestSucceeded();
      now += 60_000;
    }
    // Five minutes on the decaying counter holds less than one failure; the counts hold all three.
    expect(node.entry().recentFailures).to.be.below(1);
    expect(node).to.include({ healthChecks: 5, healthChecksFailed: 3 });
  });

  it('lists failed nodes separately', () => {
    const nodes = new NodeManager();
    nodes.add('a', 'http://a:8080').requestSucceeded();
    nodes.add('b', 'http://b:8080').requestFailed(failureInfo(new Error('timeout')));
    expect(nodes.entries().map((e) => e.uri)).to.deep.equal(['http://a:8080', 'http://b:8080']);
    expect(nodes.failedEntries().map((e) => e.uri)).to.deep.equal(['http://b:8080']);
  });
});

describe('QueryIdGenerator', () => {
  it('makes <date>_<time>_<sequence>_<suffix> ids in UTC', () => {
    const ids = new QueryIdGenerator();
    const at = new Date(Date.UTC(2026, 10, 21, 22, 30, 1));
    const first = ids.next(at);
    expect(first).to.match(/^20261121_223001_00000_[a-z0-9]{5}$/);
    expect(ids.next(at)).to.equal(first.replace('_00000_', '_00001_'));
  });
});

describe('NodeStateMachine', () => {
  const targets: NodeState[] = ['ACTIVE', 'ISOLATING', 'ISOLATED', 'SHUTTING_DOWN'];
  // DESIGN.md's table: from -> allowed targets ("-" = same state, accepted without effect).
  const allowed: Record<NodeState, NodeState[]> = {
    INACTIVE: ['SHUTTING_DOWN'],
    ACTIVE: ['ACTIVE', 'ISOLATING', 'ISOLATED', 'SHUTTING_DOWN'],
    ISOLATING: ['ACTIVE', 'ISOLATING', 'ISOLATED', 'SHUTTING_DOWN'],
    ISOLATED: ['ACTIVE', 'ISOLATING', 'ISOLATED', 'SHUTTING_DOWN'],
    SHUTTING_DOWN: ['SHUTTING_DOWN'],
  };

  function machineIn(state: NodeState, busy: { value: boolean }): NodeStateMachine {
    const machine = new NodeStateMachine(
      () => busy.value,
      () => undefined,
    );
    if (state !== 'INACTIVE') machine.activate();
    if (state !== 'INACTIVE' && state !== 'ACTIVE') machine.request(state);
    return machine;
  }

  for (const from of Object.keys(allowed) as NodeState[]) {
    for (const to of targets) {
      it(`${allowed[from].includes(to) ? 'moves' : 'refuses to move'} ${from} -> ${to}`, () => {
        const busy = { value: true };
        const machine = machineIn(from, busy);
        expect(machine.state).to.equal(from);
        if (allowed[from].includes(to)) {
          expect(machine.request(to)).to.equal(to);
        } else {
          expect(() => machine.request(to)).to.throw(HttpError, `Cannot move node from ${from} to ${to}`);
          expect(machine.state).to.equal(from);
        }
      });
    }
  }

  it('refuses INACTIVE and bodies that are not state names, changing nothing', () => {
    const machine = machineIn('ACTIVE', { value: false });
    for (const body of ['INACTIVE', 'active', 42, null, { state: 'ACTIVE' }]) {
      let error: unknown;
      try {
        machine.request(body);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(HttpError);
      expect((error as HttpError).status).to.equal(400);
      expect(machine.state).to.equal('ACTIVE');
    }
  });

  it('moves ISOLATING to ISOLATED once the work is done, and shuts down once SHUTTING_DOWN is idle', async () => {
    const busy = { value: true };
    let shutdowns = 0;
    const machine = new NodeStateMachine(
      () => busy.value,
      () => shutdowns++,
    );
    machine.activate();
    machine.request('ISOLATING');
    expect(machine.state).to.equal('ISOLATING');
    busy.value = false;
    machine.workChanged();
    expect(machine.state).to.equal('ISOLATED');
    expect(machine.acceptsWork).to.equal(false);
    machine.request('ACTIVE');
    expect(machine.acceptsWork).to.equal(true);
    machine.request('ISOLATING');
    expect(machine.state).to.equal('ISOLATED');
    busy.value = true;
    machine.request('SHUTTING_DOWN');
    machine.workChanged();
    await new Promise((resolve) => setImmediate(resolve));
    expect(shutdowns).to.equal(0);
    busy.value = false;
    machine.workChanged();
    machine.workChanged();
    await new Promise((resolve) => setImmediate(resolve));
    expect(shutdowns).to.equal(1);
  });
});
