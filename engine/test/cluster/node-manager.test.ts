import { expect } from 'chai';
import { AnnouncementError, type AnnouncedNode } from '../../src/internode/announcement.js';
import { heartbeatFailure } from '../../src/coordinator/heartbeat-monitor.js';
import { NodeManager } from '../../src/coordinator/node-manager.js';

const worker = (nodeId: string, uri: string): AnnouncedNode => ({ nodeId, environment: 'test', uri, version: '1.0', coordinator: false });

describe('NodeManager on a coordinator (injected clock)', () => {
  let now: number;
  let nodes: NodeManager;
  beforeEach(() => {
    now = Date.UTC(2026, 0, 1);
    nodes = new NodeManager('test', () => now);
  });

  it('decays a node’s counters with the one-minute parameter: 1000 requests read about 367.9 a minute later', () => {
    const { node } = nodes.announce(worker('w1', 'http://w1:8080'));
    for (let i = 0; i < 1000; i++) node.requestStarted();
    expect(nodes.entries()[0]!.recentRequests).to.equal(1000);
    now += 60_000;
    const entry = nodes.entries()[0]!;
    expect(entry.recentRequests).to.be.closeTo(367.879, 0.001);
    expect(entry.age).to.equal('1.00m');
  });

  it('forgets a node that stopped announcing, keeps one that renews, and starts afresh when a node comes back at another address (the old one is gone)', () => {
    expect(nodes.announce(worker('w1', 'http://w1:8080')).joined).to.equal(true);
    nodes.announce(worker('w2', 'http://w2:8080'));
    now += 2000;
    expect(nodes.announce(worker('w1', 'http://w1:8080')).joined).to.equal(false);
    now += 2000;
    expect(nodes.removeExpired(3000).map((n) => n.nodeId)).to.deep.equal(['w2']);
    expect(nodes.all().map((n) => n.nodeId)).to.deep.equal(['w1']);

    const before = nodes.all()[0]!;
    before.requestFailed(heartbeatFailure(new Error('gone')));
    expect(before.gone.aborted).to.equal(false);
    const back = nodes.announce(worker('w1', 'http://w1:9090'));
    expect(back.joined).to.equal(true);
    expect(back.node.entry()).to.include({ uri: 'http://w1:9090', recentFailures: 0 });
    expect(back.node.failedLastCheck).to.equal(false);
    // The tasks on the process at the old address are lost: they fail with REMOTE_HOST_GONE naming it.
    expect(before.gone.reason).to.include({ errorName: 'REMOTE_HOST_GONE' });
    expect((before.gone.reason as Error).message).to.contain(
      'Node w1 (http://w1:8080) announced itself again from http://w1:9090: it restarted',
    );
    expect(back.node.gone.aborted).to.equal(false);
  });

  it('counts only checked, ACTIVE workers as schedulable, and includes the coordinator only while there are none', () => {
    const { node } = nodes.announce(worker('w1', 'http://w1:8080'));
    expect(nodes.activeWorkers()).to.deep.equal([]);
    expect(nodes.includeCoordinator(undefined)).to.equal(true);
    node.state = 'ACTIVE';
    node.requestSucceeded();
    expect(nodes.activeWorkers()).to.deep.equal([node]);
    expect(nodes.includeCoordinator(undefined)).to.equal(false);
    expect(nodes.includeCoordinator(true)).to.equal(true);
    node.state = 'ISOLATED';
    expect(nodes.activeWorkers()).to.deep.equal([]);
  });

  it('gives a worker that refused a task no more work until a health check reads its state again', () => {
    const { node } = nodes.announce(worker('w1', 'http://w1:8080'));
    node.checked('ACTIVE');
    node.requestSucceeded();
    nodes.refusedWork('w1');
    nodes.refusedWork('unknown');
    expect(nodes.activeWorkers()).to.deep.equal([]);
    node.checked('ACTIVE');
    expect(nodes.activeWorkers()).to.deep.equal([node]);
  });

  it('refuses announcements from another environment, and all of them on a node that keeps no others', () => {
    expect(() => nodes.announce({ ...worker('w1', 'http://w1:8080'), environment: 'prod' })).to.throw(
      AnnouncementError,
      "Environment mismatch: node 'w1' announced environment 'prod', this coordinator's environment is 'test'",
    );
    expect(() => new NodeManager().announce(worker('w1', 'http://w1:8080'))).to.throw(
      AnnouncementError,
      'This node takes no announcements',
    );
    expect(nodes.all()).to.deep.equal([]);
  });
});
