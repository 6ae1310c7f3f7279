// The output buffer's rules: tokens, acknowledgement, completion, the three layouts (partitioned also
// with several readers), the byte bound that holds back the producer, the long poll, destroy and abort.

import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { PageSerializer } from '../../src/exec/exchange/page-codec.js';
import { OutputPage } from '../../src/worker/output-page.js';
import { columnFromScalars } from '../../src/columnar/page.js';
import { BIGINT } from '../../src/types/types.js';
import { OutputBuffer } from '../../src/worker/output-buffer.js';

const serializer = new PageSerializer([BIGINT]);
/** A one-column page whose single value identifies it. */
function page(id: number, rows = 1): OutputPage {
  return new OutputPage(
    {
      rowCount: rows,
      columns: [
        columnFromScalars(
          BIGINT,
          Array.from({ length: rows }, () => BigInt(id)),
        ),
      ],
    },
    serializer,
  );
}
const ALL = Number.MAX_SAFE_INTEGER;

describe('OutputBuffer', () => {
  it('answers pages from the token on; a re-read of the same token answers the same pages', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    const pages = [page(0), page(1), page(2)];
    await buffer.enqueue(pages, 0);
    const first = await buffer.get('0', 0, ALL);
    expect(first).to.include({ token: 0, nextToken: 3, complete: false, aborted: false });
    expect(first.pages).to.deep.equal(pages);
    const again = await buffer.get('0', 0, ALL);
    expect(again.pages).to.deep.equal(pages);
    expect(again.nextToken).to.equal(3);
  });

  it('acknowledges the pages before the token asked for, freeing their bytes', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    const pages = [page(0, 100), page(1, 100), page(2, 100)];
    await buffer.enqueue(pages, 0);
    const total = pages.reduce((s, p) => s + p.bytes, 0);
    expect(buffer.bufferedBytes).to.equal(total);
    const result = await buffer.get('0', 2, ALL);
    expect(result.pages).to.deep.equal([pages[2]]);
    expect(buffer.bufferedBytes).to.equal(pages[2].bytes);
    expect(buffer.info().buffers[0]).to.deep.equal({ bufferId: '0', finished: false, bufferedPages: 1, pagesSent: 2 });
    // An old token answers nothing and acknowledges nothing more.
    const old = await buffer.get('0', 1, ALL);
    expect(old).to.include({ token: 1, nextToken: 1, complete: false });
    expect(old.pages).to.have.length(0);
  });

  it('refuses a token past the last page', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    await buffer.enqueue([page(0)], 0);
    const error = await buffer.get('0', 5, ALL).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(EngineError);
    expect((error as EngineError).message).to.match(/Token 5 .* past its last page \(1\)/);
  });

  it('limits an answer to maxBytes but always answers at least one page', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    const pages = [page(0, 50), page(1, 50), page(2, 50)];
    await buffer.enqueue(pages, 0);
    const size = pages[0].bytes;
    expect((await buffer.get('0', 0, 1)).pages).to.have.length(1);
    expect((await buffer.get('0', 0, 2 * size)).nextToken).to.equal(2);
  });

  it('is complete once no more pages come: with the answer holding the last pages, or after all were acknowledged', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    await buffer.enqueue([page(0), page(1)], 0);
    const early = await buffer.get('0', 0, ALL);
    expect(early).to.include({ token: 0, nextToken: 2, complete: false });
    buffer.setNoMorePages();
    // Bounded by its size, an answer that leaves a page behind is not the last.
    expect((await buffer.get('0', 0, 1)).complete).to.equal(false);
    expect((await buffer.get('0', 1, ALL)).pages).to.have.length(1);
    expect((await buffer.get('0', 1, ALL)).complete).to.equal(true);
    const done = await buffer.get('0', 2, ALL);
    expect(done).to.include({ token: 2, nextToken: 2, complete: true });
    expect(buffer.state).to.equal('FLUSHING');
    buffer.destroy('0');
    expect(buffer.state).to.equal('FINISHED');
    expect(buffer.info()).to.deep.include({ state: 'FINISHED', pagesAdded: 2, masterSequenceId: 2 });
  });

  it('partitioned: each partition gets only its pages', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 2 });
    const [a, b, c] = [page(0), page(1), page(2)];
    await buffer.enqueue([a, c], 0);
    await buffer.enqueue([b], 1);
    expect((await buffer.get('0', 0, ALL)).pages).to.deep.equal([a, c]);
    expect((await buffer.get('1', 0, ALL)).pages).to.deep.equal([b]);
    expect(() => buffer.enqueue([a], 2)).to.throw(EngineError, /Partition 2/);
  });

  it('partitioned with readers: each reader has its range of partitions, a page held once until every reader acknowledged it', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 2, readers: 2 });
    const [a, b] = [page(0, 10), page(1, 10)];
    await buffer.enqueue([a], 0);
    await buffer.enqueue([b], 1);
    expect(buffer.bufferedBytes).to.equal(a.bytes + b.bytes);
    // Reader 0 reads buffers 0 and 1, reader 1 buffers 2 and 3.
    expect((await buffer.get('0', 0, ALL)).pages).to.deep.equal([a]);
    expect((await buffer.get('2', 0, ALL)).pages).to.deep.equal([a]);
    expect((await buffer.get('1', 0, ALL)).pages).to.deep.equal([b]);
    expect((await buffer.get('3', 0, ALL)).pages).to.deep.equal([b]);
    await buffer.get('0', 1, ALL);
    expect(buffer.bufferedBytes).to.equal(a.bytes + b.bytes);
    await buffer.get('2', 1, ALL);
    expect(buffer.bufferedBytes).to.equal(b.bytes);
    // A reader gone (a LIMIT above it) no longer holds the pages of its partition.
    buffer.destroy('3');
    await buffer.get('1', 1, ALL);
    expect(buffer.bufferedBytes).to.equal(0);
    expect(() => buffer.enqueue([a], 2)).to.throw(EngineError, /Partition 2/);
  });

  it('broadcast: every buffer gets every page, held once until every buffer acknowledged it', async () => {
    const buffer = new OutputBuffer({ kind: 'broadcast', bufferIds: ['x', 'y'] });
    const pages = [page(0, 10), page(1, 10)];
    await buffer.enqueue(pages);
    const bytes = pages.reduce((s, p) => s + p.bytes, 0);
    expect(buffer.bufferedBytes).to.equal(bytes);
    expect((await buffer.get('x', 0, ALL)).pages).to.deep.equal(pages);
    expect((await buffer.get('y', 0, ALL)).pages).to.deep.equal(pages);
    await buffer.get('x', 2, ALL);
    expect(buffer.bufferedBytes).to.equal(bytes);
    await buffer.get('y', 2, ALL);
    expect(buffer.bufferedBytes).to.equal(0);
  });

  it('arbitrary: each page goes to exactly one consumer, and stays with it until acknowledged', async () => {
    const buffer = new OutputBuffer({ kind: 'arbitrary', bufferIds: ['a', 'b'] });
    const pages = [page(0, 50), page(1, 50), page(2, 50)];
    await buffer.enqueue(pages);
    const size = pages[0].bytes;
    const a = await buffer.get('a', 0, size);
    const b = await buffer.get('b', 0, 2 * size);
    expect(a.pages).to.deep.equal([pages[0]]);
    expect(b.pages).to.deep.equal([pages[1], pages[2]]);
    expect((await buffer.get('a', 0, ALL)).pages).to.deep.equal([pages[0]]);
    buffer.setNoMorePages();
    expect((await buffer.get('a', 1, ALL)).complete).to.equal(true);
    // b's answer holds its last pages and the shared queue is empty: nothing more will come.
    expect((await buffer.get('b', 0, size)).complete).to.equal(false);
    expect((await buffer.get('b', 0, ALL)).complete).to.equal(true);
    expect((await buffer.get('b', 2, ALL)).complete).to.equal(true);
  });

  it('holds back the producer while over its bound and lets it go once the consumer acknowledges', async () => {
    const big = page(0, 1000);
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 }, { maxBufferedBytes: 2 * big.bytes });
    await buffer.enqueue([big], 0);
    let released = false;
    const blocked = buffer.enqueue([page(1, 1000)], 0).then(() => (released = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(buffer.isFull).to.equal(true);
    expect(released).to.equal(false);
    await buffer.get('0', 0, ALL); // reading alone does not free
    await new Promise((r) => setTimeout(r, 20));
    expect(released).to.equal(false);
    await buffer.get('0', 1, ALL); // acknowledging does
    await blocked;
    expect(released).to.equal(true);
  });

  it('long-polls: a get with nothing buffered answers when pages arrive, or empty after the wait', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    const waiting = buffer.get('0', 0, ALL, 10_000);
    const p = page(7);
    setTimeout(() => void buffer.enqueue([p], 0), 30);
    expect((await waiting).pages).to.deep.equal([p]);
    const start = Date.now();
    const empty = await buffer.get('0', 1, ALL, 50);
    expect(empty.pages).to.have.length(0);
    expect(Date.now() - start).to.be.at.least(45);
    const completing = buffer.get('0', 1, ALL, 10_000);
    setTimeout(() => buffer.setNoMorePages(), 20);
    expect((await completing).complete).to.equal(true);
  });

  it('answers a remote consumer’s waiting get complete with the last page when the producer ends right after it', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
    const waiting = buffer.get('0', 0, ALL, 10_000, undefined, true);
    const last = page(9);
    // A producer's last page, then its end a few promise turns later (as a task's driver loop ends).
    setTimeout(async () => {
      await buffer.enqueue([last], 0);
      await Promise.resolve();
      buffer.setNoMorePages();
    }, 10);
    const answer = await waiting;
    expect(answer.pages).to.deep.equal([last]);
    expect(answer.complete).to.equal(true);
  });

  it('destroy frees a consumer’s pages and answers it complete; abort drops everything and unblocks the producer', async () => {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 2 }, { maxBufferedBytes: 1 });
    void buffer.enqueue([page(0)], 0);
    buffer.destroy('0');
    expect(buffer.bufferedBytes).to.equal(0);
    expect((await buffer.get('0', 0, ALL)).complete).to.equal(true);
    const blocked = buffer.enqueue([page(1)], 1);
    const reader = buffer.get('1', 1, ALL, 10_000); // acknowledges page 1, then waits
    buffer.abort();
    await blocked;
    expect(buffer.bufferedBytes).to.equal(0);
    expect(buffer.state).to.equal('ABORTED');
    const result = await buffer.get('1', 0, ALL);
    expect(result).to.include({ aborted: true, complete: false });
    expect(await reader).to.include({ aborted: true, complete: false });
  });

  it('refuses an unknown output buffer with NOT_FOUND', async () => {
    const buffer = new OutputBuffer({ kind: 'broadcast', bufferIds: ['a'] });
    const error = await buffer.get('b', 0, ALL).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as EngineError).errorName).to.equal('NOT_FOUND');
  });
});
