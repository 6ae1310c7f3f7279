// What the coordinator writes per task: the session, fragment and physical plan that every task of
// a stage shares are encoded once, not once per task (the coordinator's CPU per query grew with the
// tasks of each stage), and every body still reads back as the whole request. The HTTP channel's
// transport (undici's request API, not fetch) still tells a node whose port refuses connections
// from one that answers a malformed task info.

import { expect } from 'chai';
import { NodeGoneError, RemoteTask } from '../../src/coordinator/scheduler/remote-task.js';
import { httpTaskChannel } from '../../src/coordinator/scheduler/task-channel.js';
import { decodeTaskUpdateRequest, encodeTaskUpdateRequest, type TaskUpdateRequest } from '../../src/internode/task-update-request.js';
import { toTaggedJson } from '../../src/sql/planner/plan-json.js';
import { EngineHarness } from '../support/engine-harness.js';
import { sourceTask } from '../support/source-task.js';
import { freePort } from '../../scripts/sqllogictest/server-process.js';

/** `value` behind a proxy that counts the reads of its fields (JSON.stringify reads every one it writes). */
function counted<T extends object>(value: T): { proxy: T; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { proxy, reads: () => reads };
}

describe('task request encoding', () => {
  it("writes a stage's session, fragment and physical plan once for all its tasks' requests, each body still the whole request", async () => {
    const { request } = await sourceTask(
      new EngineHarness(),
      'SELECT n_name FROM tpch.tiny.nation WHERE n_regionkey = 1',
      '20261127_000000_00001_encod',
    );
    const session = counted(request.session);
    const fragment = counted(request.fragment!);
    const physicalPlan = counted(request.physicalPlan!);
    const shared = { session: session.proxy, fragment: fragment.proxy, physicalPlan: physicalPlan.proxy };
    // Four tasks of the stage: the same shared parts, each its own splits.
    const requests: TaskUpdateRequest[] = [0, 1, 2, 3].map((task) => ({
      ...request,
      ...shared,
      sources: request.sources.map((s) => ({ ...s, splits: s.splits.filter((_, i) => i % 4 === task) })),
    }));
    const bodies = [encodeTaskUpdateRequest(requests[0])];
    const readsOfOne = [session.reads(), fragment.reads(), physicalPlan.reads()];
    expect(Math.min(...readsOfOne)).to.be.greaterThan(0);
    bodies.push(...requests.slice(1).map(encodeTaskUpdateRequest));
    // An update without a fragment carries the session (written already) and its own splits only.
    const update: TaskUpdateRequest = { session: session.proxy, sources: requests[1].sources, remoteSources: [] };
    const updateBody = encodeTaskUpdateRequest(update);
    expect([session.reads(), fragment.reads(), physicalPlan.reads()]).to.deep.equal(readsOfOne);
    // Each body reads as its request written whole, as before (one tagged JSON of everything).
    bodies.forEach((body, i) => expect(decodeTaskUpdateRequest(body)).to.deep.equal(decodeTaskUpdateRequest(toTaggedJson(requests[i]))));
    expect(decodeTaskUpdateRequest(updateBody)).to.deep.equal(decodeTaskUpdateRequest(toTaggedJson(update)));
  });

  it('tells a node whose port refuses connections apart: the task cannot be sent, the node is gone', async () => {
    const { request } = await sourceTask(new EngineHarness(), 'SELECT n_name FROM tpch.tiny.nation', '20261127_000000_00002_encod');
    // A loopback port just freed: nothing listens there.
    const port = await freePort();
    const uri = `http://127.0.0.1:${port}`;
    const task = new RemoteTask(
      '20261127_000000_00002_encod.1.0',
      { nodeId: 'worker-9', uri },
      httpTaskChannel(uri, () => ({})),
      {
        maxErrorDurationMillis: 1000,
      },
    );
    const failure = await task.update(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).to.be.instanceOf(NodeGoneError);
    expect((failure as NodeGoneError).message).to.match(
      new RegExp(`^Could not send task .* to node worker-9 \\(http://127\\.0\\.0\\.1:${port}\\): ECONNREFUSED: the node is gone$`),
    );
  });
});
