// An exchange response decoded on a worker thread (stream-decoding.ts) gives exactly the pages the
// main thread's decoder gives, for every type the codec carries (nested ones too) and for pages of no
// rows; a damaged body is a PAGE_TRANSPORT_ERROR, not a hang; and the exchange client with every
// body sent to a thread reads what it reads on the event loop. Also: the JSON-plain check of a
// string column's bytes, read four bytes at a time, agrees with a byte-by-byte check.

import { expect } from 'chai';
import { checkedUtf8 } from '../../src/columnar/utf8-strings.js';
import { columnFromScalars, emptyPage, getScalar, slicePage, type Page } from '../../src/columnar/page.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { deserializePages, PageSerializer, streamChunks } from '../../src/exec/exchange/page-codec.js';
import { decodeStreamInThread } from '../../src/exec/threads/stream-decoding.js';
import { ThreadPool } from '../../src/exec/threads/thread-pool.js';
import { MapValue } from '../../src/types/map-value.js';
import { arrayOf, BIGINT, mapOf, rowOf, VARCHAR, type SqlType } from '../../src/types/types.js';
import { ExchangeClient } from '../../src/worker/exchange-client.js';
import { OutputBuffer } from '../../src/worker/output-buffer.js';
import { ALL_TYPES, allTypesPage, expectSamePage } from './all-types.js';
import { produce, ResultsServer } from './results-server.js';

function stream(types: readonly SqlType[], pages: readonly Page[]): Uint8Array {
  const serializer = new PageSerializer(types);
  return new Uint8Array(Buffer.concat(streamChunks(pages.map((p) => serializer.serialize(p)))));
}

const POINT = rowOf([
  { name: 'x', type: BIGINT },
  { name: 'label', type: VARCHAR },
]);
const NESTED_TYPES: SqlType[] = [arrayOf(BIGINT), mapOf(VARCHAR, arrayOf(BIGINT)), POINT, arrayOf(POINT)];

function nestedPage(): Page {
  const values = [
    [[1n, 2n], null, [], [null, 3n]],
    [new MapValue(['a', 'é'], [[1n], null]), null, new MapValue([], []), new MapValue(['z'], [[]])],
    [[1n, 'a'], null, [null, '日本'], [4n, null]],
    [[[1n, 'x'], null], null, [], [[2n, '']]],
  ];
  return { rowCount: 4, columns: NESTED_TYPES.map((type, i) => columnFromScalars(type, values[i])) };
}

describe('exchange bodies decoded on a worker thread', function () {
  this.timeout(60_000);
  const pool = new ThreadPool(1);
  after(() => pool.shutdown());

  it('gives the main thread decoder’s pages for every type, edge values and NULLs', async () => {
    const page = allTypesPage();
    const body = stream(ALL_TYPES, [page, slicePage(page, 1, 4)]);
    const expected = deserializePages(body).pages;
    const { pages } = await decodeStreamInThread(pool, body.slice());
    expect(pages).to.have.length(2);
    pages.forEach((p, i) => expectSamePage(p, expected[i]));
    expectSamePage(pages[0], page);
  });

  it('gives the same arrays, maps and rows, nested', async () => {
    const page = nestedPage();
    const body = stream(NESTED_TYPES, [page]);
    const [expected] = deserializePages(body).pages;
    const { pages } = await decodeStreamInThread(pool, body.slice());
    for (let c = 0; c < NESTED_TYPES.length; c++)
      for (let r = 0; r < page.rowCount; r++) {
        expect(getScalar(pages[0].columns[c], r), `column ${c} row ${r}`).to.deep.equal(getScalar(expected.columns[c], r));
        expect(getScalar(pages[0].columns[c], r), `column ${c} row ${r}`).to.deep.equal(getScalar(page.columns[c], r));
      }
  });

  it('carries pages of no rows, in order among the others', async () => {
    const page = allTypesPage();
    const parts = [emptyPage(ALL_TYPES), slicePage(page, 0, 2), emptyPage(ALL_TYPES)];
    const { pages } = await decodeStreamInThread(pool, stream(ALL_TYPES, parts));
    expect(pages.map((p) => p.rowCount)).to.deep.equal([0, 2, 0]);
    parts.forEach((expected, i) => expectSamePage(pages[i], expected));
  });

  it('takes a body that is a view into a larger buffer (copied, the buffer left as it was)', async () => {
    const body = stream(ALL_TYPES, [allTypesPage()]);
    const larger = new Uint8Array(body.length + 16);
    larger.set(body, 8);
    const view = larger.subarray(8, 8 + body.length);
    const { pages } = await decodeStreamInThread(pool, view);
    expectSamePage(pages[0], allTypesPage());
    expect(larger.byteLength).to.equal(body.length + 16);
  });

  it('fails a damaged body with a PAGE_TRANSPORT_ERROR that says so, and goes on decoding others', async () => {
    const body = stream(ALL_TYPES, [allTypesPage(), allTypesPage()]);
    for (const damaged of [body.slice(0, body.length - 100), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])]) {
      let error: unknown;
      try {
        await decodeStreamInThread(pool, damaged);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(EngineError);
      expect((error as EngineError).errorName).to.equal('PAGE_TRANSPORT_ERROR');
      expect((error as EngineError).message).to.match(/Malformed Arrow IPC stream of pages/);
    }
    const { pages } = await decodeStreamInThread(pool, body);
    expect(pages).to.have.length(2);
  });

  describe('through the exchange client over HTTP', () => {
    let server: ResultsServer;
    beforeEach(async () => {
      server = await new ResultsServer().start();
    });
    afterEach(async () => {
      await server.kill();
    });

    it('reads every page in order with every body decoded on a thread, equal to the pages produced', async () => {
      const client = new ExchangeClient({ maxResponseBytes: 4 * 1024, threadDecoding: { minBodyBytes: 0, pool } });
      const produced: Page[] = [];
      for (let i = 0; i < 40; i++) produced.push(i % 7 === 3 ? slicePage(allTypesPage(), 2, 3) : allTypesPage());
      const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
      server.buffers.set('q.1.0', buffer);
      const producing = produce(buffer, ALL_TYPES, produced.values());
      client.addLocation({ uri: server.resultsUri('q.1.0', '0') });
      client.setNoMoreLocations();
      const pages: Page[] = [];
      for await (const page of client) pages.push(page);
      await producing;
      expect(pages).to.have.length(produced.length);
      pages.forEach((p, i) => expectSamePage(p, produced[i]));
    });

    it('fails the client with PAGE_TRANSPORT_ERROR when a thread finds a body damaged', async () => {
      server.damageBodies = true;
      const client = new ExchangeClient({ threadDecoding: { minBodyBytes: 0, pool } });
      const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 });
      server.buffers.set('q.1.0', buffer);
      const producing = produce(buffer, ALL_TYPES, [allTypesPage(), allTypesPage()].values());
      client.addLocation({ uri: server.resultsUri('q.1.0', '0') });
      client.setNoMoreLocations();
      let error: unknown;
      try {
        for await (const _ of client);
      } catch (e) {
        error = e;
      }
      client.close();
      await producing.catch(() => undefined);
      expect((error as EngineError).errorName).to.equal('PAGE_TRANSPORT_ERROR');
    });
  });
});

describe('the JSON-plain check of UTF-8 rows', () => {
  const byByte = (bytes: Uint8Array) => bytes.every((b) => b >= 0x20 && b !== 0x22 && b !== 0x5c);

  it('agrees with a byte-by-byte check for every byte value at every position of a word, at every alignment', () => {
    const base = new TextEncoder().encode('plain text é 日本 with some length to it');
    for (let shift = 0; shift < 4; shift++)
      for (let at = 0; at < 9; at++)
        for (let value = 0; value < 256; value++) {
          const backing = new Uint8Array(base.length + 8);
          const bytes = backing.subarray(shift, shift + base.length);
          bytes.set(base);
          bytes[at] = value < 0x80 ? value : 0x41; // stay valid UTF-8
          const offsets = Int32Array.of(0, bytes.length);
          const utf8 = checkedUtf8(offsets, bytes, 1);
          expect(utf8?.jsonPlain, `byte ${value} at ${at}, shift ${shift}`).to.equal(byByte(bytes));
        }
  });

  it('agrees with it on random text rows', () => {
    const alphabet = ['a', 'Z', ' ', '"', '\\', '\n', '\t', 'é', '日', '😀', '~', '\u001f', '\u007f'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let trial = 0; trial < 300; trial++) {
      const rows = Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
        Array.from({ length: Math.floor(random() * 12) }, () =>
          random() < 0.9 ? alphabet[Math.floor(random() * 3)] : alphabet[Math.floor(random() * alphabet.length)],
        ).join(''),
      );
      const encoded = rows.map((r) => new TextEncoder().encode(r));
      const offsets = new Int32Array(rows.length + 1);
      encoded.forEach((e, i) => (offsets[i + 1] = offsets[i] + e.length));
      const bytes = new Uint8Array(offsets[rows.length]);
      encoded.forEach((e, i) => bytes.set(e, offsets[i]));
      expect(checkedUtf8(offsets, bytes, rows.length)?.jsonPlain, JSON.stringify(rows)).to.equal(byByte(bytes));
    }
  });
});
