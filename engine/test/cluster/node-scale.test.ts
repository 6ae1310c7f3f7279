// The node simulator of `make bench-nodes` against a real coordinator: simulated workers join it,
// are listed and checked like real ones, and one that stops answering shows as failed.

import { expect } from 'chai';
import type { NodeEntry } from '../../src/coordinator/remote-node.js';
import { SimulatedNodes } from '../../scripts/bench/simulated-nodes.js';
import { getJson, query } from '../support/statement-http.js';
import { ServerProcess } from '../support/server-process.js';
import { eventually } from './cluster-fixture.js';

const ENVIRONMENT = 'node_scale_test';
const NODE_COUNT = 20;
const HEARTBEAT_INTERVAL_MILLIS = 250;

describe('simulated nodes against a real coordinator', function () {
  this.timeout(60_000);
  let coordinator: ServerProcess;
  let simulated: SimulatedNodes | undefined;

  before(async () => {
    coordinator = await ServerProcess.start([
      '--role',
      'coordinator',
      '--node-id',
      'coordinator',
      '--environment',
      ENVIRONMENT,
      '--heartbeat-interval',
      `${HEARTBEAT_INTERVAL_MILLIS}ms`,
      '--heartbeat-timeout',
      '2s',
    ]);
    simulated = await SimulatedNodes.start({
      discoveryUri: coordinator.uri,
      environment: ENVIRONMENT,
      count: NODE_COUNT,
      announcementIntervalMillis: 500,
      idPrefix: 'sim',
    });
  });

  after(async () => {
    await simulated?.stop();
    await coordinator?.stop();
  });

  const entries = async (path: string) => (await getJson<NodeEntry[]>(`${coordinator.uri}${path}`)).body;

  it('lists every simulated node in /v1/node, checked, and in system.runtime.nodes as active', async () => {
    const listed = await eventually('all simulated nodes checked', async () => {
      const list = await entries('/v1/node');
      return list.length === NODE_COUNT && list.every((e) => e.recentSuccesses > 0) ? list : undefined;
    });
    expect(listed.map((e) => e.uri).sort()).to.deep.equal(simulated!.nodes.map((n) => n.uri).sort());
    expect(await entries('/v1/node/failed')).to.deep.equal([]);
    expect(await query(coordinator.uri, 'SELECT count(*) FROM system.runtime.nodes')).to.deep.equal([[NODE_COUNT + 1]]);
    expect(
      await query(
        coordinator.uri,
        "SELECT count(*) FROM system.runtime.nodes WHERE node_id LIKE 'sim-%' AND state = 'active' AND NOT coordinator",
      ),
    ).to.deep.equal([[NODE_COUNT]]);
  });

  it('spreads the health checks of its nodes over the heartbeat interval rather than start them all at once', async () => {
    // Each check stamps its node's lastRequestTime when it starts: checks started together in one turn
    // of the coordinator's event loop lie milliseconds apart, checks spread over the interval most of it.
    await new Promise((resolve) => setTimeout(resolve, 4 * HEARTBEAT_INTERVAL_MILLIS));
    const started = (await entries('/v1/node')).map((e) => Date.parse(e.lastRequestTime));
    expect(Math.max(...started) - Math.min(...started)).to.be.at.least(HEARTBEAT_INTERVAL_MILLIS / 2);
  });

  it('shows a node that stops answering its health checks in /v1/node/failed, and only that one', async () => {
    const silent = simulated!.nodes[6]!;
    await silent.stopAnswering();
    // A check on a connection open when the node went away fails as a reset; the next are refused.
    const failed = await eventually('the silent node refused', async () => {
      const list = await entries('/v1/node/failed');
      return list.some((e) => e.lastFailureInfo?.type === 'ECONNREFUSED') ? list : undefined;
    });
    expect(failed.map((e) => e.uri)).to.deep.equal([silent.uri]);
    expect(failed[0]!.recentFailures).to.be.above(0);
    // It still announces itself, so it stays listed, as inactive.
    expect(await query(coordinator.uri, `SELECT state FROM system.runtime.nodes WHERE node_id = '${silent.nodeId}'`)).to.deep.equal([
      ['inactive'],
    ]);
    expect((await entries('/v1/node')).length).to.equal(NODE_COUNT);
  });
});
