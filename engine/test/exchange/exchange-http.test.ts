// The exchange over real sockets: output buffers behind the real results routes on a loopback port,
// read by the real ExchangeClient.

import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EngineError } from '../../src/errors/engine-error.js';
import { deserializePages } from '../../src/exec/exchange/page-codec.js';
import { columnFromScalars, getScalar, type Page } from '../../src/columnar/page.js';
import { BIGINT } from '../../src/types/types.js';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { ExchangeClient } from '../../src/worker/exchange-client.js';
import { OutputBuffer } from '../../src/worker/output-buffer.js';
import { ALL_TYPES, allTypesPage, expectSamePage } from './all-types.js';
import { produce, ResultsServer } from './results-server.js';

/** Page `seq` of source `source`: 100 rows holding source * 1e6 + seq. */
function numbered(source: number, seq: number): Page {
  return {
    rowCount: 100,
    columns: [
      columnFromScalars(
        BIGINT,
        Array.from({ length: 100 }, () => BigInt(source * 1_000_000 + seq)),
      ),
    ],
  };
}
function* numberedPages(source: number, count: number): Generator<Page> {
  for (let seq = 0; seq < count; seq++) yield numbered(source, seq);
}
async function readAll(client: ExchangeClient): Promise<Page[]> {
  const pages: Page[] = [];
  for await (const page of client) pages.push(page);
  return pages;
}
async function until(condition: () => boolean, what: string, timeoutMillis = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('exchange over HTTP (results routes + ExchangeClient)', () => {
  let server: ResultsServer;
  beforeEach(async () => {
    server = await new ResultsServer().start();
  });
  afterEach(async () => {
    await server.kill();
  });

  it('answers endpoint 8 with Arrow pages and the token headers, 204 when nothing comes, and endpoint 9 releases', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    server.buffers.set('q.1.0', buffer);
    const uri = server.resultsUri('q.1.0', '0');
    const empty = await fetch(`${uri}/0`, { headers: { 'X-Engine-Max-Wait': '20ms' } });
    expect(empty.status).to.equal(204);
    expect(empty.headers.get('X-Engine-Page-Sequence-Id')).to.equal('0');
    expect(empty.headers.get('X-Engine-Page-End-Sequence-Id')).to.equal('0');
    expect(empty.headers.get('X-Engine-Buffer-Complete')).to.equal('false');
    expect(empty.headers.get('X-Engine-Task-Failed')).to.equal('false');
    expect(empty.headers.get('X-Engine-Task-Instance-Id')).to.equal(buffer.instanceId);

    await produce(buffer, [BIGINT], numberedPages(0, 3));
    const full = await fetch(`${uri}/1`);
    expect(full.status).to.equal(200);
    expect(full.headers.get('content-type')).to.equal('application/vnd.apache.arrow.stream');
    expect(full.headers.get('X-Engine-Page-Sequence-Id')).to.equal('1');
    expect(full.headers.get('X-Engine-Page-End-Sequence-Id')).to.equal('3');
    const { pages } = deserializePages(new Uint8Array(await full.arrayBuffer()));
    expect(pages.map((p) => getScalar(p.columns[0], 0))).to.deep.equal([1n, 2n]);

    const done = await fetch(`${uri}/3`);
    expect(done.status).to.equal(204);
    expect(done.headers.get('X-Engine-Buffer-Complete')).to.equal('true');
    const deleted = await fetch(uri, { method: 'DELETE' });
    expect(deleted.status).to.equal(204);
    expect(buffer.state).to.equal('FINISHED');
  });

  it('answers bad requests with a JSON error: unknown task 404, unknown buffer 404, bad token or header 400', async () => {
    server.buffers.set('q.1.0', new OutputBuffer({ kind: 'partitioned', partitions: 1 }));
    const cases: [string, RequestInit, number, RegExp][] = [
      [server.resultsUri('nope.1.0', '0') + '/0', {}, 404, /Task nope\.1\.0 not found/],
      [server.resultsUri('nope.1.0', '0'), { method: 'DELETE' }, 404, /Task nope\.1\.0 not found/],
      [server.resultsUri('q.1.0', '7') + '/0', {}, 404, /Output buffer 7 does not exist/],
      [server.resultsUri('q.1.0', '0') + '/-1', {}, 400, /Invalid token: -1/],
      [server.resultsUri('q.1.0', '0') + '/5', {}, 400, /past its last page/],
      [server.resultsUri('q.1.0', '0') + '/0', { headers: { 'X-Engine-Max-Wait': 'soon' } }, 400, /Invalid X-Engine-Max-Wait header: soon/],
    ];
    for (const [uri, init, status, message] of cases) {
      const response = await fetch(uri, init);
      expect(response.status, uri).to.equal(status);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).to.match(message);
    }
  });

  it('reads several sources concurrently and gets every page exactly once, in order per source', async () => {
    const client = new ExchangeClient({ maxBufferedBytes: 64 * 1024, maxResponseBytes: 16 * 1024 });
    const producers: Promise<void>[] = [];
    for (let source = 0; source < 3; source++) {
      const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 }, { maxBufferedBytes: 16 * 1024 });
      server.buffers.set(`q.1.${source}`, buffer);
      producers.push(produce(buffer, [BIGINT], numberedPages(source, 300)));
      client.addLocation({ uri: server.resultsUri(`q.1.${source}`, '0') });
    }
    client.setNoMoreLocations();
    const pages = await readAll(client);
    await Promise.all(producers);
    const bySource: number[][] = [[], [], []];
    for (const page of pages) {
      const id = Number(getScalar(page.columns[0], 0));
      bySource[Math.floor(id / 1_000_000)].push(id % 1_000_000);
    }
    const expected = Array.from({ length: 300 }, (_, i) => i);
    for (const sequence of bySource) expect(sequence).to.deep.equal(expected);
    // Sources were interleaved, not read one after the other.
    const firstOfLast = pages.findIndex((p) => getScalar(p.columns[0], 0) === 2_000_000n);
    expect(firstOfLast).to.be.below(300);
    // Every buffer was released.
    await until(() => [...server.buffers.values()].every((b) => b.state === 'FINISHED'), 'buffers released');
    const status = client.status();
    expect(status.bufferedPages).to.equal(0);
    expect(status.averageBytesPerRequest).to.be.above(0);
    for (const s of status.pageBufferClientStatuses) {
      expect(s).to.include({ state: 'closed', pagesReceived: 300, httpRequestState: 'queued' });
      expect(s.requestsCompleted).to.equal(s.requestsScheduled);
      expect(new Date(s.lastUpdate).toISOString()).to.equal(s.lastUpdate);
    }
  });

  it('takes a repeated location after no-more-locations (a retried task update) and refuses a new one', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    server.buffers.set('q.9.0', buffer);
    const producer = produce(buffer, [BIGINT], numberedPages(0, 5));
    const client = new ExchangeClient();
    const location = { uri: server.resultsUri('q.9.0', '0') };
    client.addLocation(location);
    client.setNoMoreLocations();
    client.addLocation(location);
    expect(() => client.addLocation({ uri: server.resultsUri('q.9.1', '0') })).to.throw(/added after no-more-locations/);
    const pages = await readAll(client);
    await producer;
    expect(pages.map((p) => Number(getScalar(p.columns[0], 0)))).to.deep.equal([0, 1, 2, 3, 4]);
  });

  it('keeps page order per source when each response holds one page and the next request goes out during decoding', async () => {
    const client = new ExchangeClient({ maxResponseBytes: 1 });
    const producers: Promise<void>[] = [];
    for (let source = 0; source < 2; source++) {
      const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
      server.buffers.set(`q.5.${source}`, buffer);
      producers.push(produce(buffer, [BIGINT], numberedPages(source, 60)));
      client.addLocation({ uri: server.resultsUri(`q.5.${source}`, '0') });
    }
    client.setNoMoreLocations();
    const pages = await readAll(client);
    await Promise.all(producers);
    const bySource: number[][] = [[], []];
    for (const page of pages) {
      const id = Number(getScalar(page.columns[0], 0));
      bySource[Math.floor(id / 1_000_000)].push(id % 1_000_000);
    }
    for (const sequence of bySource) expect(sequence).to.deep.equal(Array.from({ length: 60 }, (_, i) => i));
    for (const s of client.status().pageBufferClientStatuses) expect(s.requestsCompleted).to.be.at.least(60);
  });

  it('answers at most about 1 MB per response by default, and the client reads a big buffer in several', async () => {
    const big = (seq: number): Page => ({
      rowCount: 50_000,
      columns: [
        columnFromScalars(
          BIGINT,
          Array.from({ length: 50_000 }, () => BigInt(seq)),
        ),
      ],
    });
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    server.buffers.set('q.6.0', buffer);
    await produce(buffer, [BIGINT], [0, 1, 2, 3].map(big)); // about 400 KB each
    const first = await fetch(`${server.resultsUri('q.6.0', '0')}/0`);
    expect(first.headers.get('X-Engine-Page-End-Sequence-Id')).to.equal('2');
    expect((await first.arrayBuffer()).byteLength).to.be.within(800_000, 1024 * 1024);
    const client = new ExchangeClient();
    client.addLocation({ uri: server.resultsUri('q.6.0', '0') });
    client.setNoMoreLocations();
    const pages = await readAll(client);
    expect(pages.map((p) => getScalar(p.columns[0], 0))).to.deep.equal([0n, 1n, 2n, 3n]);
    expect(client.status().averageBytesPerRequest).to.be.at.most(1024 * 1024);
  });

  it('does not hold on to the pages the consumer took', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    server.buffers.set('q.7.0', buffer);
    await produce(buffer, [BIGINT], numberedPages(0, 5));
    const client = new ExchangeClient();
    client.addLocation({ uri: server.resultsUri('q.7.0', '0') });
    client.setNoMoreLocations();
    const taken = new WeakRef((await client.next()).value as Page);
    let rest = 0;
    for await (const page of client) rest += page.rowCount > 0 ? 1 : 0;
    expect(rest).to.equal(4);
    await new Promise((r) => setImmediate(r)); // a WeakRef holds its target until the job ends
    collectGarbage();
    expect(taken.deref()).to.equal(undefined);
    expect(client.status().bufferedPages).to.equal(0);
  });

  it('a consumer that stops reading stops the fetching, and the producer stays within its buffer bound', async () => {
    const bound = 32 * 1024;
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 }, { maxBufferedBytes: bound });
    server.buffers.set('q.1.0', buffer);
    let produced = 0;
    const producer = produce(
      buffer,
      [BIGINT],
      (function* () {
        for (const page of numberedPages(0, 500)) {
          produced++;
          yield page;
        }
      })(),
    );
    const client = new ExchangeClient({ maxBufferedBytes: 32 * 1024, maxResponseBytes: 8 * 1024 });
    client.addLocation({ uri: server.resultsUri('q.1.0', '0') });
    client.setNoMoreLocations();
    const iterator = client[Symbol.asyncIterator]();
    await iterator.next();
    let maxBuffered = 0;
    for (let i = 0; i < 20; i++) {
      await sleep(15);
      maxBuffered = Math.max(maxBuffered, buffer.bufferedBytes);
    }
    const producedWhilePaused = produced;
    await sleep(100);
    expect(produced, 'the producer is held back').to.equal(producedWhilePaused);
    expect(produced).to.be.below(200);
    const onePage = 1024; // a 100-row bigint page is about 1 kB on the wire
    expect(maxBuffered).to.be.at.most(bound + onePage);
    expect(client.status().bufferedBytes).to.be.at.most(32 * 1024 + 16 * 1024);
    let count = 1;
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      count++;
    }
    await producer;
    expect(count).to.equal(500);
  });

  it('reads a buffer whose producer is done in one page request and one release: its last pages say complete', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    server.buffers.set('q.1.0', buffer);
    await produce(buffer, [BIGINT], numberedPages(0, 3));
    const client = new ExchangeClient();
    client.addLocation({ uri: server.resultsUri('q.1.0', '0') });
    client.setNoMoreLocations();
    const pages = await readAll(client);
    expect(pages.map((p) => Number(getScalar(p.columns[0], 0)))).to.deep.equal([0, 1, 2]);
    expect(buffer.state).to.equal('FINISHED');
    expect({ requests: server.requests, deletes: server.deletes }).to.deep.equal({ requests: 2, deletes: 1 });
  });

  it("ends a task's input (endBeforeRelease) once the buffer is complete, its release unanswered; the coordinator's reader waits for it", async () => {
    let answerDeletes = () => {};
    server.holdDeletes = new Promise<void>((resolve) => (answerDeletes = resolve));
    const read = async (endBeforeRelease: boolean) => {
      const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
      const taskId = `q.${endBeforeRelease ? 1 : 2}.0`;
      server.buffers.set(taskId, buffer);
      await produce(buffer, [BIGINT], numberedPages(0, 5));
      const client = new ExchangeClient({ endBeforeRelease });
      client.addLocation({ uri: server.resultsUri(taskId, '0') });
      client.setNoMoreLocations();
      return { buffer, pages: readAll(client) };
    };

    const task = await read(true);
    expect((await task.pages).length).to.equal(5);
    // The input ended with the release on its way: the buffer is not released yet.
    expect(task.buffer.state).to.not.equal('FINISHED');
    await until(() => server.deletes === 1, 'the release sent');

    const coordinator = await read(false);
    let ended = false;
    void coordinator.pages.then(() => (ended = true));
    await until(() => server.deletes === 2, 'the second release sent');
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).to.equal(false);

    answerDeletes();
    expect((await coordinator.pages).length).to.equal(5);
    await until(() => task.buffer.state === 'FINISHED' && coordinator.buffer.state === 'FINISHED', 'both buffers released');
  });

  it('retries a transient 503 and loses nothing', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    server.buffers.set('q.1.0', buffer);
    const producer = produce(buffer, [BIGINT], numberedPages(0, 20));
    server.failNext = 3;
    const client = new ExchangeClient({ maxResponseBytes: 4 * 1024 });
    client.addLocation({ uri: server.resultsUri('q.1.0', '0') });
    client.setNoMoreLocations();
    const pages = await readAll(client);
    await producer;
    expect(pages.map((p) => Number(getScalar(p.columns[0], 0)))).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
    expect(server.failNext).to.equal(0);
    expect(buffer.state).to.equal('FINISHED');
  });

  it('fails with REMOTE_HOST_GONE naming the node when the server disappears mid-stream', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 }, { maxBufferedBytes: 8 * 1024 });
    server.buffers.set('q.1.0', buffer);
    void produce(buffer, [BIGINT], numberedPages(0, 1000));
    const uri = server.resultsUri('q.1.0', '0');
    const client = new ExchangeClient({ maxBufferedBytes: 8 * 1024, maxErrorDurationMillis: 300 });
    client.addLocation({ uri, nodeId: 'worker-7' });
    client.setNoMoreLocations();
    const iterator = client[Symbol.asyncIterator]();
    for (let i = 0; i < 5; i++) expect((await iterator.next()).done).to.equal(false);
    await server.kill();
    buffer.abort(); // the node is gone, and its producer with it
    const started = Date.now();
    let error: unknown;
    try {
      for (;;) if ((await iterator.next()).done) break;
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(EngineError);
    const engineError = error as EngineError;
    expect(engineError.errorName).to.equal('REMOTE_HOST_GONE');
    expect(engineError.errorCode).to.equal(65558);
    expect(engineError.message).to.contain(
      'Could not communicate with the remote task. The node may have crashed or be under too much load.',
    );
    expect(engineError.message).to.contain('node worker-7');
    expect(engineError.message).to.contain(uri);
    expect(engineError.message).to.match(/\d+ failures/);
    expect(Date.now() - started).to.be.below(10_000);
  });

  it('carries the headers option (the internal bearer token) on every request, reads and releases a secured buffer', async () => {
    const secured = await new ResultsServer().start(new InternalAuthenticator('exchange secret', 'producer'));
    try {
      const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
      secured.buffers.set('q.1.0', buffer);
      const producer = produce(buffer, [BIGINT], numberedPages(0, 20));
      const consumer = new InternalAuthenticator('exchange secret', 'consumer');
      const client = new ExchangeClient({ maxResponseBytes: 4 * 1024, headers: () => consumer.authorizationHeader() });
      client.addLocation({ uri: secured.resultsUri('q.1.0', '0') });
      client.setNoMoreLocations();
      const pages = await readAll(client);
      await producer;
      expect(pages.map((p) => Number(getScalar(p.columns[0], 0)))).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
      // The DELETE that released the buffer was let in too.
      await until(() => buffer.state === 'FINISHED', 'buffer released');

      // Without the token the first answer is a 401: not worth retrying, the client fails at once saying so.
      const other = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
      secured.buffers.set('q.2.0', other);
      const requestsBefore = secured.requests;
      const unsigned = new ExchangeClient();
      unsigned.addLocation({ uri: secured.resultsUri('q.2.0', '0') });
      unsigned.setNoMoreLocations();
      let error: unknown;
      try {
        await readAll(unsigned);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(EngineError);
      expect((error as Error).message)
        .to.contain('but was 401')
        .and.contain('internal-communication.shared-secret');
      expect(secured.requests).to.equal(requestsBefore); // `requests` counts what got past the check: nothing unsigned did
    } finally {
      await secured.kill();
    }
  });

  it('carries every type exactly over HTTP', async () => {
    const buffer = new OutputBuffer({ kind: 'broadcast', bufferIds: ['a', 'b'] });
    server.buffers.set('q.2.0', buffer);
    const page = allTypesPage();
    await produce(buffer, ALL_TYPES, [
      page,
      {
        rowCount: 0,
        columns: page.columns.map((c) => ({ ...c, length: 0, values: c.values.slice(0, 0) as typeof c.values, nulls: null })),
      },
      page,
    ]);
    for (const outputId of ['a', 'b']) {
      const client = new ExchangeClient();
      client.addLocation({ uri: server.resultsUri('q.2.0', outputId) });
      client.setNoMoreLocations();
      const pages = await readAll(client);
      expect(pages.map((p) => p.rowCount)).to.deep.equal([6, 0, 6]);
      expectSamePage(pages[0], page);
      expectSamePage(pages[2], page);
    }
    await until(() => buffer.state === 'FINISHED', 'broadcast buffer released');
  });
});
