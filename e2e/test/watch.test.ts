import { expect } from 'chai';
import { TestCluster } from './support/cluster.js';

interface WatchEvent {
  type: string;
  object: { metadata: { name?: string; resourceVersion: string }; code?: number; reason?: string; message?: string };
}

/** Reads `count` watch events from a streaming GET, then disconnects (the client "restarts"). */
async function readEvents(url: string, count: number): Promise<WatchEvent[]> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const events: WatchEvent[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0 && events.length < count) {
      events.push(JSON.parse(buffer.slice(0, nl)) as WatchEvent);
      buffer = buffer.slice(nl + 1);
    }
    if (events.length >= count) break;
  }
  controller.abort();
  return events;
}

describe('watches on the API test server', function () {
  this.timeout(30000);
  let cluster: TestCluster;
  before(async () => (cluster = await TestCluster.start({ watchHistory: 5 })));
  after(async () => cluster?.stop());

  it('resumes from the last resourceVersion seen after the client reconnects, and answers 410 for a compacted one', async () => {
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\n`;
    await cluster.ok(['create', '-f', '-'], cm('first'));
    const base = `${cluster.url}/api/v1/namespaces/default/configmaps?watch=1`;
    const [initial] = await readEvents(base, 1);
    expect([initial.type, initial.object.metadata.name]).to.deep.equal(['ADDED', 'first']);
    // Changes while the client is away.
    await cluster.ok(['create', '-f', '-'], cm('second'));
    await cluster.ok(['label', 'configmap', 'first', 'x=y']);
    const missed = await readEvents(`${base}&resourceVersion=${initial.object.metadata.resourceVersion}`, 2);
    expect(missed.map((e) => `${e.type} ${e.object.metadata.name}`)).to.deep.equal(['ADDED second', 'MODIFIED first']);
    for (let i = 0; i < 6; i++) await cluster.ok(['label', 'configmap', 'second', `n=${i}`, '--overwrite']);
    const [gone] = await readEvents(`${base}&resourceVersion=${initial.object.metadata.resourceVersion}`, 1);
    expect(gone.type).to.equal('ERROR');
    expect([gone.object.code, gone.object.reason]).to.deep.equal([410, 'Expired']);
    expect(gone.object.message).to.match(/^too old resource version: \d+ \(\d+\)$/);
  });
});
