// A cluster with a shared secret: workers with the secret join, a worker without it (or with another)
// does not and its log says why; a coordinator without a secret turns a worker with one away as clearly.

import { expect } from 'chai';
import type { NodeEntry } from '../../src/coordinator/remote-node.js';
import type { LogLine, ServerProcess } from '../support/server-process.js';
import { getJson } from '../support/statement-http.js';
import { ENVIRONMENT, eventually, TestCluster, withCluster } from './cluster-fixture.js';

const SECRET = 'cluster secret 0b9d4e shared by the nodes';
const ERROR_LEVEL = 50;

async function listedUris(coordinator: ServerProcess): Promise<string[]> {
  return (await getJson<NodeEntry[]>(`${coordinator.uri}/v1/node`)).body.map((e) => e.uri);
}

function logLine(node: ServerProcess, what: string, match: (line: LogLine) => boolean): Promise<LogLine> {
  return eventually(what, () => Promise.resolve(node.logs.find(match)));
}

describe('a cluster with a shared secret', function () {
  this.timeout(60_000);
  const cluster = withCluster(1, { sharedSecret: SECRET, waitForWorkers: false });

  it('lets a worker with the secret join, and guards its internal endpoints too', async () => {
    const worker = cluster.worker('worker-1');
    await eventually('worker-1 joined and checked', async () => {
      const entry = (await getJson<NodeEntry[]>(`${cluster.coordinator.uri}/v1/node`)).body.find((e) => e.uri === worker.uri);
      return entry !== undefined && entry.recentSuccesses > 0 ? entry : undefined;
    });
    expect(worker.logs.some((l) => l.msg === 'announced to the coordinator')).to.equal(true);
    const unsigned = await getJson<{ error: { errorName: string } }>(`${worker.uri}/v1/info/state`, {
      method: 'PUT',
      body: '"SHUTTING_DOWN"',
    });
    expect(unsigned.status).to.equal(401);
    expect(unsigned.body.error.errorName).to.equal('UNAUTHORIZED');
  });

  it('keeps out a worker without the secret, whose log says the coordinator requires it', async () => {
    const bare = await cluster.startWorker('bare', ENVIRONMENT, {});
    const line = await logLine(
      bare,
      'the refusal in the worker log',
      (l) => l.level === ERROR_LEVEL && String(l.msg).includes('shared-secret'),
    );
    expect(line.msg).to.equal(
      "the coordinator requires internal-communication.shared-secret and this worker has none: start it with the coordinator's secret (ENGINE_SHARED_SECRET); retrying",
    );
    expect(line.problem).to.equal(
      "401: This endpoint is internal: a request needs a bearer token signed with the cluster's shared secret (internal-communication.shared-secret)",
    );
    expect(bare.running).to.equal(true);
    expect(await listedUris(cluster.coordinator)).to.not.include(bare.uri);
  });

  it('keeps out a worker with another secret, whose log says the token was refused and why', async () => {
    const stranger = await cluster.startWorker('stranger', ENVIRONMENT, { ENGINE_SHARED_SECRET: 'not the cluster secret' });
    const line = await logLine(
      stranger,
      'the refusal in the worker log',
      (l) => l.level === ERROR_LEVEL && String(l.msg).includes('shared-secret'),
    );
    expect(line.msg).to.equal(
      "the coordinator refused this worker's internal bearer token: both need the same internal-communication.shared-secret (or none), and clocks within a minute; retrying",
    );
    expect(line.problem).to.equal("401: Invalid internal bearer token: its signature does not match this node's shared secret");
    expect(await listedUris(cluster.coordinator)).to.not.include(stranger.uri);
  });

  it('takes a signed withdrawal when a worker stops, and no node writes the secret to its log', async () => {
    const leaving = await cluster.startWorker('leaving');
    await eventually('the worker joined', async () => ((await listedUris(cluster.coordinator)).includes(leaving.uri) ? true : undefined));
    await leaving.stop();
    cluster.workers.delete('leaving');
    await logLine(cluster.coordinator, 'the signed DELETE taken', (l) => l.msg === 'node left' && l.node === 'leaving');
    expect(await listedUris(cluster.coordinator)).to.not.include(leaving.uri);
    for (const node of [cluster.coordinator, ...cluster.workers.values(), leaving]) {
      expect(JSON.stringify(node.logs) + node.stderr.join('')).to.not.contain(SECRET);
    }
  });
});

describe('a coordinator without a shared secret', function () {
  this.timeout(60_000);

  it('turns away a worker that has one, and the worker log says why', async () => {
    const cluster = await TestCluster.start(0);
    try {
      const secured = await cluster.startWorker('secured', ENVIRONMENT, { ENGINE_SHARED_SECRET: SECRET });
      const line = await logLine(
        secured,
        'the refusal in the worker log',
        (l) => l.level === ERROR_LEVEL && String(l.msg).includes('shared-secret'),
      );
      expect(line.msg).to.equal(
        "the coordinator refused this worker's internal bearer token: both need the same internal-communication.shared-secret (or none), and clocks within a minute; retrying",
      );
      expect(line.problem).to.equal(
        '401: This node has no shared secret (internal-communication.shared-secret) but the request carries an internal bearer token: give every node of the cluster the same secret, or none',
      );
      expect(await listedUris(cluster.coordinator)).to.deep.equal([]);
    } finally {
      await cluster.stop();
    }
  });
});
