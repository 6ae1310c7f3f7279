// A merging exchange over real sockets: output buffers behind the real results routes, each holding
// one task's rows sorted, read by the real MergingExchangeClient (one ExchangeClient per buffer) and
// merged by remoteMerge. The merged rows are every row once, in the order of a plain sort of them
// all (NULLs first, descending, ties broken by a second key), whether locations come before or after
// the merge asks for its streams, with an empty source among them; a consumer that stops early
// releases every buffer; an abort before the last location fails the merge with its error.

import { expect } from 'chai';
import { columnFromScalars, getScalar, type Page } from '../../src/columnar/page.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { MemoryContext } from '../../src/exec/memory.js';
import { remoteMerge } from '../../src/exec/exchange/remote-merge.js';
import { OperatorRecorders } from '../../src/exec/stats/operator-recorder.js';
import type { SortKey } from '../../src/functions/scalar/value-ordering.js';
import { BIGINT, type SqlType } from '../../src/types/types.js';
import { MergingExchangeClient } from '../../src/worker/merging-exchange-client.js';
import { OutputBuffer } from '../../src/worker/output-buffer.js';
import { produce, ResultsServer } from './results-server.js';

const TYPES: SqlType[] = [BIGINT, BIGINT];
/** The first column DESC NULLS FIRST, then the second ASC. */
const KEYS: SortKey[] = [
  { channel: 0, ascending: false, nullsFirst: true },
  { channel: 1, ascending: true, nullsFirst: false },
];
type Row = [bigint | null, bigint];

/** The order of KEYS on plain values. */
function referenceCompare(a: Row, b: Row): number {
  if (a[0] !== b[0]) {
    if (a[0] === null) return -1;
    if (b[0] === null) return 1;
    return a[0] > b[0] ? -1 : 1;
  }
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** Rows of source `source`: keys with ties across sources and a NULL in every tenth row. */
function rowsOf(source: number, count: number): Row[] {
  return Array.from(
    { length: count },
    (_, i): Row => [i % 10 === 3 ? null : BigInt((i * 37 + source) % 500), BigInt(source * 100_000 + i)],
  );
}

/** `rows` sorted as their task would send them, in pages of `size` rows. */
function sortedPages(rows: Row[], size: number): Page[] {
  const sorted = [...rows].sort(referenceCompare);
  const pages: Page[] = [];
  for (let start = 0; start < sorted.length; start += size) {
    const slice = sorted.slice(start, start + size);
    pages.push({
      rowCount: slice.length,
      columns: TYPES.map((t, c) =>
        columnFromScalars(
          t,
          slice.map((r) => r[c]),
        ),
      ),
    });
  }
  return pages;
}

function rowsFrom(pages: Page[]): Row[] {
  return pages.flatMap((p) =>
    Array.from({ length: p.rowCount }, (_, r): Row => [getScalar(p.columns[0], r) as bigint | null, getScalar(p.columns[1], r) as bigint]),
  );
}

function operatorContext() {
  const stats = new OperatorRecorders(new MemoryContext('task', 1 << 30), { cpuTimeMillis: 0 }).of(1);
  return { memory: stats.memory, signal: new AbortController().signal, timeZone: 'UTC', stats };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('merging exchange over HTTP (MergingExchangeClient + remoteMerge)', () => {
  let server: ResultsServer;
  beforeEach(async () => {
    server = await new ResultsServer().start();
  });
  afterEach(async () => {
    await server.kill();
  });

  /** A task's output buffer holding `rows` sorted, produced as the consumer reads; its address. */
  function sortedSource(name: string, rows: Row[], pageRows: number): { uri: string; produced: Promise<void> } {
    const buffer = new OutputBuffer({ kind: 'partitioned', partitions: 1 }, { maxBufferedBytes: 16 * 1024 });
    server.buffers.set(name, buffer);
    return { uri: server.resultsUri(name, '0'), produced: produce(buffer, TYPES, sortedPages(rows, pageRows)) };
  }

  it('merges sorted sources (one empty, locations coming after the merge started) into the order of a sort of all rows', async () => {
    const all: Row[] = [];
    const sources = [0, 1, 2, 3].map((s) => {
      const rows = s === 2 ? [] : rowsOf(s, 1500 + s * 700);
      all.push(...rows);
      return sortedSource(`q.1.${s}`, rows, 100 + s * 77);
    });
    const client = new MergingExchangeClient({ maxBufferedBytes: 32 * 1024, maxResponseBytes: 8 * 1024 });
    client.addLocation({ uri: sources[0].uri });
    const merged: Page[] = [];
    const reading = (async () => {
      for await (const page of remoteMerge(operatorContext(), client, TYPES, KEYS)) merged.push(page);
    })();
    await new Promise((r) => setTimeout(r, 50));
    expect(merged).to.have.length(0);
    for (const source of sources.slice(1)) client.addLocation(source);
    // A location repeated (a retried task update) is not read twice.
    client.addLocation({ uri: sources[1].uri });
    client.setNoMoreLocations();
    await reading;
    await Promise.all(sources.map((s) => s.produced));
    expect(rowsFrom(merged)).to.deep.equal([...all].sort(referenceCompare));
    const status = client.status();
    expect(status.pageBufferClientStatuses).to.have.length(4);
    expect(status.bufferedPages).to.equal(0);
    await until(() => [...server.buffers.values()].every((b) => b.state === 'FINISHED'), 'every buffer released');
  });

  it('releases every buffer when its consumer stops early', async () => {
    const sources = [0, 1, 2].map((s) => sortedSource(`q.2.${s}`, rowsOf(s, 5000), 200));
    const client = new MergingExchangeClient({ maxBufferedBytes: 16 * 1024, maxResponseBytes: 4 * 1024 });
    for (const source of sources) client.addLocation(source);
    client.setNoMoreLocations();
    let rows = 0;
    for await (const page of remoteMerge(operatorContext(), client, TYPES, KEYS)) {
      rows += page.rowCount;
      if (rows >= 1000) break;
    }
    await until(() => [...server.buffers.values()].every((b) => b.state === 'FINISHED'), 'every buffer released');
    expect(client.status().pageBufferClientStatuses.map((s) => s.state)).to.deep.equal(['closed', 'closed', 'closed']);
  });

  it("fails the merge with the abort's error when it comes before the last location", async () => {
    const source = sortedSource('q.3.0', rowsOf(0, 100), 50);
    const client = new MergingExchangeClient({});
    client.addLocation(source);
    const reading = (async () => {
      for await (const _ of remoteMerge(operatorContext(), client, TYPES, KEYS));
    })();
    client.abort(new EngineError('USER_CANCELED', 'Query was canceled'));
    let failure: unknown;
    await reading.catch((e: unknown) => (failure = e));
    expect(failure).to.be.instanceOf(EngineError);
    expect((failure as EngineError).message).to.equal('Query was canceled');
  });
});
