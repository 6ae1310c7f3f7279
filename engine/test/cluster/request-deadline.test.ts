// Requests to a node that answers nothing — a real server stopped with SIGSTOP — end at their
// deadline even when the garbage collector runs while they wait. (A timeout signal combined with
// AbortSignal.any is held weakly by Node; once collected it never fired, and a task's follower or an
// exchange reading a stopped node waited for good.) The node is declared gone by its requests alone
// here: no health check runs.

import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RemoteTask } from '../../src/coordinator/scheduler/remote-task.js';
import { httpTaskChannel } from '../../src/coordinator/scheduler/task-channel.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { ExchangeClient } from '../../src/worker/exchange-client.js';
import { ServerProcess } from '../support/server-process.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Settles `work`, collecting garbage every 100 ms meanwhile. */
async function withGarbageCollections<T>(work: Promise<T>): Promise<T> {
  const collector = setInterval(collectGarbage, 100);
  try {
    return await work;
  } finally {
    clearInterval(collector);
  }
}

describe('requests to a stopped node', function () {
  this.timeout(60_000);
  let node: ServerProcess;

  before(async () => {
    node = await ServerProcess.start(['--node-id', 'stopped-node']);
    node.signal('SIGSTOP');
  });

  after(async () => {
    node?.signal('SIGCONT');
    await node?.stop();
  });

  it("fail a task's follower with REMOTE_HOST_GONE naming the node once they failed for the max error duration", async () => {
    const task = new RemoteTask(
      '20261125_000000_00001_stop0.1.0',
      { nodeId: 'stopped-node', uri: node.uri },
      httpTaskChannel(node.uri, () => ({})),
      { maxErrorDurationMillis: 1000 },
    );
    const failure = await withGarbageCollections(
      task
        .follow(() => undefined)
        .then(
          () => undefined,
          (e: unknown) => e,
        ),
    );
    expect(failure).to.be.instanceOf(EngineError);
    expect(failure).to.include({ errorName: 'REMOTE_HOST_GONE' });
    expect((failure as Error).message).to.contain(`Node stopped-node (${node.uri}): 3 failed requests over`);
  });

  it('fail an exchange reading its output with REMOTE_HOST_GONE naming the node', async () => {
    const client = new ExchangeClient({ maxErrorDurationMillis: 1000, minFailures: 2 });
    client.addLocation({ uri: `${node.uri}/v1/task/20261125_000000_00001_stop0.1.0/results/0`, nodeId: 'stopped-node' });
    client.setNoMoreLocations();
    const failure = await withGarbageCollections(
      client.next().then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    client.close();
    expect(failure).to.include({ errorName: 'REMOTE_HOST_GONE' });
    expect((failure as Error).message).to.contain('node stopped-node');
  });
});
