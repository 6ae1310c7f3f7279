import { expect } from 'chai';
import { Client as PrestoClient } from 'presto-client';
import { buildAnnouncement } from '../../src/internode/announcement.js';
import type { NodeEntry } from '../../src/coordinator/remote-node.js';
import { getJson, postStatement, query } from '../support/statement-http.js';
import { ENVIRONMENT, eventually, withCluster } from './cluster-fixture.js';

const ENTRY_FIELDS = [
  'uri',
  'recentRequests',
  'recentFailures',
  'recentSuccesses',
  'recentFailureRatio',
  'recentFailuresByType',
  'lastRequestTime',
  'lastResponseTime',
  'age',
];

describe('a cluster: coordinator and workers on loopback', function () {
  this.timeout(60_000);
  const cluster = withCluster(2, { waitForWorkers: false });

  const nodeEntries = async (path = '/v1/node') => (await getJson<NodeEntry[]>(`${cluster.coordinator.uri}${path}`)).body;
  const entryOf = async (uri: string, path = '/v1/node') => (await nodeEntries(path)).find((e) => e.uri === uri);
  const nodeRows = () =>
    query(
      cluster.coordinator.uri,
      'SELECT node_id, http_uri, node_version, coordinator, state FROM system.runtime.nodes ORDER BY node_id',
      { 'X-Engine-User': 'test' },
    );
  const stateOf = async (nodeId: string) => (await nodeRows()).find((row) => row[0] === nodeId)?.[4];

  it('lists the workers in /v1/node with the interface fields, in system.runtime.nodes, and through presto-client', async () => {
    const workerUris = [cluster.worker('worker-1').uri, cluster.worker('worker-2').uri].sort();
    const entries = await eventually('both workers checked', async () => {
      const list = await nodeEntries();
      return list.length === 2 && list.every((e) => e.recentSuccesses > 0) ? list : undefined;
    });
    expect(entries.map((e) => e.uri).sort()).to.deep.equal(workerUris);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).to.deep.equal([...ENTRY_FIELDS].sort());
      expect(entry.recentRequests).to.be.a('number').above(0);
      expect(entry.recentFailures).to.equal(0);
      expect(entry.recentFailureRatio).to.equal(0);
      expect(entry.recentFailuresByType).to.deep.equal({});
      expect(new Date(entry.lastResponseTime).toISOString()).to.equal(entry.lastResponseTime);
      expect(entry.age).to.match(/^\d+\.\d{2}(ns|us|ms|s|m)$/);
    }
    expect(await nodeEntries('/v1/node/failed')).to.deep.equal([]);

    const rows = await eventually('workers active in system.runtime.nodes', async () => {
      const list = await nodeRows();
      return list.filter((row) => row[4] === 'active').length === 3 ? list : undefined;
    });
    const version = (await getJson<{ nodeVersion: { version: string } }>(`${cluster.coordinator.uri}/v1/info`)).body.nodeVersion.version;
    expect(rows).to.deep.equal([
      ['coordinator', cluster.coordinator.uri, version, true, 'active'],
      ['worker-1', cluster.worker('worker-1').uri, version, false, 'active'],
      ['worker-2', cluster.worker('worker-2').uri, version, false, 'active'],
    ]);

    const client = new PrestoClient({ host: '127.0.0.1', port: cluster.coordinator.port, user: 'presto-test', checkInterval: 10 });
    const listed = await new Promise<unknown[]>((resolve, reject) =>
      client.nodes((error, list) => (error ? reject(new Error(error.message)) : resolve(list))),
    );
    expect((listed as NodeEntry[]).map((e) => e.uri).sort()).to.deep.equal(workerUris);
  });

  it('lets a worker serve no statements, and only the coordinator take announcements', async () => {
    const worker = cluster.worker('worker-1');
    const refused = await postStatement(worker.uri, 'SELECT 1');
    expect(refused.status).to.equal(404);
    expect((refused.body as unknown as { error: { errorName: string; message: string } }).error).to.deep.equal({
      errorName: 'NOT_A_COORDINATOR',
      message: `This node is a worker and serves no statements; send queries to the coordinator at ${cluster.coordinator.uri}`,
    });
    const announcement = buildAnnouncement({
      nodeId: 'x',
      environment: ENVIRONMENT,
      uri: 'http://127.0.0.1:1',
      version: '1',
      coordinator: false,
    });
    const toWorker = await getJson<{ error: { errorName: string } }>(`${worker.uri}/v1/announcement/x`, {
      method: 'PUT',
      body: JSON.stringify(announcement),
    });
    expect(toWorker.status).to.equal(404);
    expect(toWorker.body.error.errorName).to.equal('NOT_A_COORDINATOR');
    // The coordinator itself still runs queries (scheduling on workers comes later).
    expect(await query(cluster.coordinator.uri, 'SELECT count(*) FROM tpch.tiny.nation')).to.deep.equal([[25]]);
  });

  it('refuses an announcement from another environment or with a malformed body, with a 400 that says why', async () => {
    const put = (nodeId: string, body: unknown) =>
      getJson<{ error: { errorName: string; message: string } }>(`${cluster.coordinator.uri}/v1/announcement/${nodeId}`, {
        method: 'PUT',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      });
    const foreign = await put(
      'stranger',
      buildAnnouncement({ nodeId: 'stranger', environment: 'elsewhere', uri: 'http://127.0.0.1:1', version: '1', coordinator: false }),
    );
    expect(foreign.status).to.equal(400);
    expect(foreign.body.error).to.deep.equal({
      errorName: 'INVALID_ANNOUNCEMENT',
      message: `Environment mismatch: node 'stranger' announced environment 'elsewhere', this coordinator's environment is '${ENVIRONMENT}'`,
    });
    const misaddressed = await put(
      'a',
      buildAnnouncement({ nodeId: 'b', environment: ENVIRONMENT, uri: 'http://127.0.0.1:1', version: '1', coordinator: false }),
    );
    expect(misaddressed.status).to.equal(400);
    expect(misaddressed.body.error.message).to.equal("Announcement for node 'b' sent to the address of node 'a'");
    const threads = buildAnnouncement({
      nodeId: 'd',
      environment: ENVIRONMENT,
      uri: 'http://127.0.0.1:1',
      version: '1',
      coordinator: false,
    });
    threads.services[0].properties.worker_threads = 'many';
    const badThreads = await put('d', threads);
    expect(badThreads.status).to.equal(400);
    expect(badThreads.body.error.message).to.equal(
      `Announcement of node 'd': property 'worker_threads' must be a positive integer, got "many"`,
    );
    const shapeless = await put('c', { nodeId: 'c' });
    expect(shapeless.status).to.equal(400);
    expect(shapeless.body.error.message).to.contain("must have required property 'environment'");
    expect((await nodeEntries()).map((e) => e.uri)).not.to.include('http://127.0.0.1:1');
  });

  it("sees a worker's state change within a heartbeat or two", async () => {
    const worker = cluster.worker('worker-1');
    const isolate = await getJson<string>(`${worker.uri}/v1/info/state`, {
      method: 'PUT',
      body: '"ISOLATING"',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(isolate.status).to.equal(200);
    // With no work to wait for, ISOLATING becomes ISOLATED at once.
    await eventually(
      'worker-1 isolated on the coordinator',
      async () => ((await stateOf('worker-1')) === 'isolated' ? true : undefined),
      5000,
    );
    await getJson<string>(`${worker.uri}/v1/info/state`, {
      method: 'PUT',
      body: '"ACTIVE"',
      headers: { 'Content-Type': 'application/json' },
    });
    await eventually('worker-1 active again', async () => ((await stateOf('worker-1')) === 'active' ? true : undefined), 5000);
  });

  it('lists a worker killed with SIGKILL as failed, forgets it once it stops announcing, and takes it back when it restarts', async () => {
    const killed = cluster.worker('worker-2');
    killed.signal('SIGKILL');
    await killed.waitForExit();
    const failed = await eventually('worker-2 in /v1/node/failed', () => entryOf(killed.uri, '/v1/node/failed'), 5000);
    expect(failed.recentFailures).to.be.above(0);
    // The kept-alive connection of the last check is reset, or a new one refused.
    const types = Object.keys(failed.recentFailuresByType);
    expect(types.length).to.be.greaterThan(0);
    for (const type of types) expect(type).to.be.oneOf(['ECONNREFUSED', 'ECONNRESET']);
    expect(failed.lastFailureInfo!.type).to.be.oneOf(['ECONNREFUSED', 'ECONNRESET']);
    expect(failed.lastFailureInfo!.message).to.contain(failed.lastFailureInfo!.type);
    expect(failed.lastFailureInfo!.stack).to.be.an('array');
    expect(failed.lastFailureInfo!.suppressed).to.deep.equal([]);
    expect(await stateOf('worker-2')).to.equal('inactive');
    expect(await entryOf(cluster.worker('worker-1').uri, '/v1/node/failed')).to.equal(undefined);

    await eventually('worker-2 forgotten', async () => ((await entryOf(killed.uri)) === undefined ? true : undefined), 10_000);
    expect(await stateOf('worker-2')).to.equal(undefined);

    const restarted = await cluster.startWorker('worker-2');
    const rejoined = await eventually('worker-2 back', async () => {
      const entry = await entryOf(restarted.uri);
      return entry && entry.recentSuccesses > 0 ? entry : undefined;
    });
    expect(rejoined).not.to.have.property('lastFailureInfo');
    await eventually('worker-2 active again', async () => ((await stateOf('worker-2')) === 'active' ? true : undefined), 5000);
  });

  it('forgets a worker at once when it stops gracefully (it withdraws its announcement)', async () => {
    const leaving = cluster.worker('worker-2');
    await eventually('worker-2 known', () => entryOf(leaving.uri));
    expect(await leaving.stop()).to.equal(0);
    // Well before the coordinator would forget a silent node (MAX_ANNOUNCEMENT_AGE_MILLIS).
    expect(await entryOf(leaving.uri)).to.equal(undefined);
  });
});
