// A split update whose answer is lost on the network (the connection cut after the node got it) is
// sent again by the coordinator's RemoteTask, and the node's task takes those splits once: every
// row comes exactly once. So is a creation; and an update never overtakes a slow creation. The
// faults sit in a TCP proxy between the two; both ends are real.

import net from 'node:net';
import { expect } from 'chai';
import { RemoteTask } from '../../src/coordinator/scheduler/remote-task.js';
import { httpTaskChannel } from '../../src/coordinator/scheduler/task-channel.js';
import { ExchangeClient } from '../../src/worker/exchange-client.js';
import { EngineHarness } from '../support/engine-harness.js';
import { ServerProcess } from '../support/server-process.js';
import { sourceTask } from '../support/source-task.js';

/**
 * Forwards to `target`; the connection of the `cutAt`-th POST is closed once the node starts answering
 * it; the first POST reaches the node `holdFirstPostMillis` late (a slow network or a busy sender).
 */
class LossyProxy {
  cut = 0;
  private posts = 0;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly uri: string,
  ) {}

  static async start(target: string, cutAt: number, holdFirstPostMillis = 0): Promise<LossyProxy> {
    const { hostname, port } = new URL(target);
    let proxy: LossyProxy | undefined;
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(port), hostname);
      proxy!.sockets.add(client).add(upstream);
      let cutting = false;
      let held: Promise<void> | undefined;
      client.on('data', (chunk: Buffer) => {
        if (chunk.toString('latin1', 0, 5) === 'POST ') {
          const post = ++proxy!.posts;
          if (post === cutAt) cutting = true;
          if (post === 1 && holdFirstPostMillis > 0) held = new Promise((resolve) => setTimeout(resolve, holdFirstPostMillis));
        }
        if (held === undefined) upstream.write(chunk);
        else held = held.then(() => void upstream.write(chunk));
      });
      upstream.on('data', (chunk: Buffer) => {
        if (!cutting) return void client.write(chunk);
        proxy!.cut++;
        client.destroy();
        upstream.destroy();
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('close', close).on('error', close);
      upstream.on('close', close).on('error', close);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new LossyProxy(server, `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    return proxy;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('split updates sent again', function () {
  this.timeout(60_000);
  let node: ServerProcess;
  let proxy: LossyProxy | undefined;

  before(async () => {
    node = await ServerProcess.start();
  });
  afterEach(async () => {
    await proxy?.stop();
    proxy = undefined;
  });
  after(async () => {
    await node?.stop();
  });

  it('sends a split update again when its answer is lost, and the task reads each split once', async () => {
    const task = await sourceTask(new EngineHarness(), 'SELECT o_orderkey FROM tpch.sf1.orders', '20261123_000000_00001_retry', false);
    expect(task.splits.length).to.be.greaterThan(2);
    // The first POST creates the task; the second, the split update, loses its answer.
    proxy = await LossyProxy.start(node.uri, 2);
    const remote = new RemoteTask(
      task.taskId,
      { nodeId: 'node', uri: proxy.uri },
      httpTaskChannel(proxy.uri, () => ({})),
      { maxErrorDurationMillis: 60_000 },
    );
    await remote.update(task.request);
    const planNodeId = task.request.sources[0].planNodeId;
    await remote.send({
      session: task.request.session,
      sources: [{ planNodeId, splits: task.splits, noMoreSplits: true }],
      remoteSources: [],
    });
    expect(proxy.cut, 'the update lost its answer once').to.equal(1);

    expect(await rowsOf(node.uri, task.taskId)).to.equal(1_500_000);
    const info = (await (await fetch(`${node.uri}/v1/task/${task.taskId}`)).json()) as { state: string; stats: { totalSplits: number } };
    expect(info.stats.totalSplits).to.equal(task.splits.length);
    expect(info.state).to.equal('FINISHED');
    await remote.cancel(false);
  });

  it('creates the task again when the answer to its creation is lost, and the task reads each split once', async () => {
    const task = await sourceTask(new EngineHarness(), 'SELECT o_orderkey FROM tpch.sf1.orders', '20261126_000000_00002_retry', true);
    proxy = await LossyProxy.start(node.uri, 1);
    const remote = new RemoteTask(
      task.taskId,
      { nodeId: 'node', uri: proxy.uri },
      httpTaskChannel(proxy.uri, () => ({})),
      { maxErrorDurationMillis: 60_000 },
    );
    await remote.create(task.request);
    expect(proxy.cut, 'the creation lost its answer once').to.equal(1);
    expect(await rowsOf(node.uri, task.taskId)).to.equal(1_500_000);
    await remote.cancel(false);
  });

  it('sends an update only once the creation sent before it was answered, however late that creation arrives', async () => {
    const task = await sourceTask(new EngineHarness(), 'SELECT o_orderkey FROM tpch.sf1.orders', '20261126_000000_00003_retry', false);
    proxy = await LossyProxy.start(node.uri, 0, 500);
    const remote = new RemoteTask(
      task.taskId,
      { nodeId: 'node', uri: proxy.uri },
      httpTaskChannel(proxy.uri, () => ({})),
      { maxErrorDurationMillis: 60_000 },
    );
    const planNodeId = task.request.sources[0].planNodeId;
    // Not awaited: the scheduler sends a task its last splits while its creation may still be on the way.
    const created = remote.create(task.request);
    await remote.send({
      session: task.request.session,
      sources: [{ planNodeId, splits: task.splits, noMoreSplits: true }],
      remoteSources: [],
    });
    await created;
    expect(await rowsOf(node.uri, task.taskId)).to.equal(1_500_000);
    await remote.cancel(false);
  });
});

/** The rows of a task's buffer 0, read to the end. */
async function rowsOf(nodeUri: string, taskId: string): Promise<number> {
  const client = new ExchangeClient();
  client.addLocation({ uri: `${nodeUri}/v1/task/${taskId}/results/0` });
  client.setNoMoreLocations();
  let rows = 0;
  for await (const page of client) rows += page.rowCount;
  return rows;
}
