import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { getJson, query } from '../support/statement-http.js';
import { expectFields } from './shapes.js';

describe('node endpoints', function () {
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start(['--node-id', 'node-a', '--environment', 'test_env']);
  });
  after(async () => {
    await server.stop();
  });

  it('GET /v1/info reports version, environment, role and uptime', async () => {
    const info = await getJson<Record<string, unknown>>(`${server.uri}/v1/info`);
    expect(info.status).to.equal(200);
    expectFields(
      info.body,
      { nodeVersion: 'object', environment: 'string', coordinator: 'boolean', starting: 'boolean', uptime: 'duration' },
      'info',
    );
    expect(info.body).to.include({ environment: 'test_env', coordinator: true, starting: false });
    expect(info.body.nodeVersion).to.have.property('version').that.is.a('string');
  });

  it('GET /v1/info/state is a JSON string', async () => {
    const state = await getJson<string>(`${server.uri}/v1/info/state`);
    expect(state.headers.get('content-type')).to.match(/^application\/json/);
    expect(state.body).to.equal('ACTIVE');
  });

  it('GET /v1/status reports identity, CPU, memory and workload', async () => {
    const status = await getJson<Record<string, unknown>>(`${server.uri}/v1/status`);
    expectFields(
      status.body,
      {
        nodeId: 'string',
        state: 'string',
        nodeVersion: 'object',
        environment: 'string',
        coordinator: 'boolean',
        uptime: 'duration',
        externalAddress: 'string',
        internalAddress: 'string',
        processors: 'integer',
        processCpuLoad: 'number',
        systemCpuLoad: 'number',
        heapUsed: 'integer',
        heapAvailable: 'integer',
        nonHeapUsed: 'integer',
        pid: 'integer',
        memoryInfo: 'object',
        workload: 'object',
        eventLoopDelay: 'object',
      },
      'status',
    );
    expect(status.body).to.include({ nodeId: 'node-a', state: 'ACTIVE', internalAddress: server.uri });
    for (const load of [status.body.processCpuLoad, status.body.systemCpuLoad] as number[]) expect(load).to.be.within(0, 1);
    const memory = status.body.memoryInfo as Record<string, unknown>;
    expectFields(memory, { availableProcessors: 'integer', totalNodeMemory: 'size', pools: 'object' }, 'memoryInfo');
    expectFields(
      (memory.pools as Record<string, unknown>).general,
      { maxBytes: 'integer', reservedBytes: 'integer' },
      'memoryInfo.pools.general',
    );
    expectFields(
      status.body.workload,
      {
        runningQueries: 'integer',
        queuedQueries: 'integer',
        queriesAwaitingClient: 'integer',
        runningTasks: 'integer',
        queuedSplits: 'integer',
        runningSplits: 'integer',
        bufferedOutputBytes: 'integer',
      },
      'workload',
    );
    expect(status.body.pid).to.equal(server.child.pid);
    expect(status.body.nodeVersion).to.deep.equal((await getJson<{ nodeVersion: unknown }>(`${server.uri}/v1/info`)).body.nodeVersion);
  });

  it('GET /v1/node and /v1/node/failed list no other nodes on a single node', async () => {
    expect((await getJson(`${server.uri}/v1/node`)).body).to.deep.equal([]);
    expect((await getJson(`${server.uri}/v1/node/failed`)).body).to.deep.equal([]);
  });

  it('serves the system catalog from the running server', async () => {
    const nodes = await query(server.uri, 'SELECT node_id, http_uri, coordinator, state FROM system.runtime.nodes');
    expect(nodes).to.deep.equal([['node-a', server.uri, true, 'active']]);
    const marker = 'SELECT 12345 AS marker';
    await query(server.uri, marker, { 'X-Trino-User': 'system-test' });
    const queries = await query(server.uri, `SELECT state, "user" FROM system.runtime.queries WHERE query = '${marker}'`, {
      'X-Trino-User': 'system-test',
    });
    expect(queries).to.deep.equal([['FINISHED', 'system-test']]);
  });

  it('logs one JSON line per finished query', async () => {
    await query(server.uri, 'SELECT 777 AS logged');
    const line = server.logs.find((l) => l.msg === 'query completed' && l.state === 'FINISHED' && l.outputRows === 1);
    expect(line).to.not.equal(undefined);
    expect(line).to.have.property('queryId').that.is.a('string');
    expect(line).to.have.property('elapsedMillis').that.is.a('number');
  });
});
