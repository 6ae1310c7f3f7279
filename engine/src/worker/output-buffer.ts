// A task's output buffer, with Trino's semantics. The producer enqueues pages (output-page.ts); each consumer
// reads its own buffer (outputId) by sequence number: `get(outputId, token)` answers the pages from
// sequence `token` on and, by asking for `token`, acknowledges (frees) every page before it, so a
// re-read of a token whose response was lost answers the same pages. A buffer is complete once no more
// pages will come and the consumer acknowledged all of them; the consumer then destroys it (DELETE).
//
// Layouts: partitioned (one buffer per consumer partition, the producer names the partition; a
// stage shared by several readers keeps a range of them per reader, each page held once for all),
// broadcast (every page to every buffer, held once and freed when every buffer acknowledged it) and
// arbitrary (one shared queue; whichever consumer asks first takes the next pages).
//
// The bytes held are bounded: `enqueue` accepts the pages and answers a promise that waits while the
// buffer is over its bound, so a slow consumer slows its producer instead of filling memory. They
// are counted in the task's memory too, as the rest of what the query holds.

import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EngineError } from '../errors/engine-error.js';
import type { MemoryContext } from '../exec/memory.js';
import type { OutputBufferInfo, OutputBufferState } from '../internode/task-info.js';
import type { OutputPage } from './output-page.js';

export const DEFAULT_MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

export type OutputBufferLayout =
  /** Buffer ids "0" .. partitions × readers - 1: partition p's pages go to p, p + partitions, ... (one range per reader). */
  | { kind: 'partitioned'; partitions: number; readers?: number }
  | { kind: 'broadcast'; bufferIds: readonly string[] }
  | { kind: 'arbitrary'; bufferIds: readonly string[] };

export interface OutputBufferOptions {
  /** The bound on the bytes held (default 32 MB); the producer waits while the buffer holds more. */
  maxBufferedBytes?: number;
  /** Where the pages held are counted (the task's memory); a page over its limit fails the producer. */
  memory?: MemoryContext;
}

export interface BufferResult {
  /** Sequence id of the first page answered (the token asked for). */
  readonly token: number;
  /** The token to ask for next: `token` + the number of pages answered. */
  readonly nextToken: number;
  readonly pages: readonly OutputPage[];
  /** No more pages will come and every page was acknowledged. */
  readonly complete: boolean;
  /** The buffer was aborted (its task failed or was cancelled): no complete answer will come. */
  readonly aborted: boolean;
}

/** The outputBuffers object of the task resource. */
/** A page held by one or more client buffers (several for broadcast); freed at the last acknowledgement. */
interface PageEntry {
  readonly page: OutputPage;
  readonly bytes: number;
  refs: number;
}

class ClientBuffer {
  /** Pages from sequence `firstSequence` on; the pages before it were acknowledged. */
  entries: PageEntry[] = [];
  firstSequence = 0;
  /** The end of an answer that said complete: the consumer's release acknowledges the pages up to it. */
  completeAt: number | undefined;
  destroyed = false;
  readonly readers = new Set<() => void>();

  constructor(readonly id: string) {}

  wakeReaders(): void {
    for (const wake of [...this.readers]) wake();
  }
}

export class OutputBuffer {
  readonly instanceId = randomUUID();
  private readonly maxBufferedBytes: number;
  private readonly memory: MemoryContext | undefined;
  private readonly buffers = new Map<string, ClientBuffer>();
  /** Arbitrary layout: pages no consumer has taken yet. */
  private readonly sharedQueue: PageEntry[] = [];
  private noMorePages = false;
  private aborted = false;
  private bytes = 0;
  private pagesAdded = 0;
  private pagesReleased = 0;
  private producersWaiting: (() => void)[] = [];
  private readonly stateListeners: (() => void)[] = [];

  constructor(
    private readonly layout: OutputBufferLayout,
    options: OutputBufferOptions = {},
  ) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.memory = options.memory;
    if (!(this.maxBufferedBytes > 0))
      throw new EngineError('GENERIC_INTERNAL_ERROR', `Output buffer bound must be positive, got ${this.maxBufferedBytes}`);
    const ids =
      layout.kind === 'partitioned'
        ? Array.from({ length: layout.partitions * (layout.readers ?? 1) }, (_, i) => String(i))
        : layout.bufferIds;
    if (ids.length === 0) throw new EngineError('GENERIC_INTERNAL_ERROR', 'An output buffer needs at least one consumer buffer');
    for (const id of ids) this.buffers.set(id, new ClientBuffer(id));
  }

  get bufferedBytes(): number {
    return this.bytes;
  }

  get state(): OutputBufferState {
    if (this.aborted) return 'ABORTED';
    if (!this.noMorePages) return 'OPEN';
    for (const b of this.buffers.values()) if (!b.destroyed) return 'FLUSHING';
    return 'FINISHED';
  }

  /** Calls `listener` after every change that may change `state` (no more pages, a buffer destroyed, abort). */
  onStateChange(listener: () => void): void {
    this.stateListeners.push(listener);
  }

  private stateChanged(): void {
    for (const listener of this.stateListeners) listener();
  }

  /** Whether the producer should wait before enqueueing more. */
  get isFull(): boolean {
    return !this.aborted && this.bytes >= this.maxBufferedBytes;
  }

  /**
   * Adds pages (to `partition` in the partitioned layout). Resolves when the buffer has room again;
   * pages enqueued into an aborted buffer or a destroyed partition are dropped, as nobody will read them.
   */
  enqueue(pages: readonly OutputPage[], partition?: number): Promise<void> {
    if (this.noMorePages && !this.aborted) throw new EngineError('GENERIC_INTERNAL_ERROR', 'Pages enqueued after no-more-pages');
    if (this.aborted || pages.length === 0) return this.whenNotFull();
    switch (this.layout.kind) {
      case 'partitioned': {
        if (partition === undefined || !Number.isInteger(partition) || partition < 0 || partition >= this.layout.partitions) {
          throw new EngineError(
            'GENERIC_INTERNAL_ERROR',
            `Partition ${String(partition)} is not one of the ${this.layout.partitions} output partitions`,
          );
        }
        const { partitions, readers = 1 } = this.layout;
        this.holdForEach(
          pages,
          Array.from({ length: readers }, (_, k) => this.buffers.get(String(partition + k * partitions))!),
        );
        break;
      }
      case 'broadcast':
        this.holdForEach(pages, [...this.buffers.values()]);
        break;
      case 'arbitrary':
        for (const page of pages) this.sharedQueue.push(this.hold(page, 1));
        for (const b of this.buffers.values()) b.wakeReaders();
        break;
    }
    this.pagesAdded += pages.length;
    return this.whenNotFull();
  }

  /** The producer is done: consumers get `complete` once they acknowledged the remaining pages. */
  setNoMorePages(): void {
    this.noMorePages = true;
    for (const b of this.buffers.values()) b.wakeReaders();
    this.stateChanged();
  }

  /**
   * The pages of buffer `outputId` from sequence `token` on, at most `maxBytes` of them (but at least
   * one page when any is there). Acknowledges the pages before `token`. With nothing to answer, waits
   * up to `maxWaitMillis` for pages, completion or abort (or until `signal` aborts); a
   * `remoteConsumer` (over HTTP) woken by pages is answered a turn later (see below).
   */
  async get(
    outputId: string,
    token: number,
    maxBytes: number,
    maxWaitMillis = 0,
    signal?: AbortSignal,
    remoteConsumer = false,
  ): Promise<BufferResult> {
    const client = this.client(outputId);
    const first = this.read(client, token, maxBytes);
    if (first.pages.length > 0 || first.complete || first.aborted || maxWaitMillis <= 0 || first.token < client.firstSequence) return first;
    await this.waitForChange(client, maxWaitMillis, signal);
    // Woken while the producer runs: one that ends right after its last page (a small stage) ends
    // within this turn, and the answer then says complete, sparing a remote consumer a round trip
    // for it (a consumer in this process asks again at no such cost: it gets the pages at once).
    if (remoteConsumer && !this.noMorePages && !this.aborted && signal?.aborted !== true) await nextTurn();
    return this.read(client, token, maxBytes);
  }

  /** The consumer of `outputId` is gone (it read everything, or no longer needs it): frees its pages. */
  destroy(outputId: string): void {
    const client = this.client(outputId);
    if (client.destroyed) return;
    client.destroyed = true;
    if (client.completeAt !== undefined) client.firstSequence = Math.max(client.firstSequence, client.completeAt);
    this.release(client.entries.splice(0));
    client.wakeReaders();
    this.stateChanged();
  }

  /** The task failed or was cancelled: drops every page, unblocks the producer and answers readers `aborted`. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    for (const b of this.buffers.values()) {
      this.release(b.entries.splice(0));
      b.wakeReaders();
    }
    this.release(this.sharedQueue.splice(0));
    this.wakeProducers();
    this.stateChanged();
  }

  info(): OutputBufferInfo {
    return {
      state: this.state,
      masterSequenceId: this.pagesReleased,
      pagesAdded: this.pagesAdded,
      buffers: [...this.buffers.values()].map((b) => ({
        bufferId: b.id,
        finished: b.destroyed,
        bufferedPages: b.entries.length,
        pagesSent: b.firstSequence,
      })),
    };
  }

  private client(outputId: string): ClientBuffer {
    const client = this.buffers.get(outputId);
    if (client === undefined)
      throw new EngineError('NOT_FOUND', `Output buffer ${outputId} does not exist (buffers: ${[...this.buffers.keys()].join(', ')})`);
    return client;
  }

  private read(client: ClientBuffer, token: number, maxBytes: number): BufferResult {
    if (!Number.isSafeInteger(token) || token < 0) throw new EngineError('GENERIC_USER_ERROR', `Invalid token ${token}`);
    if (this.aborted) return { token, nextToken: token, pages: [], complete: false, aborted: true };
    if (client.destroyed) return { token, nextToken: token, pages: [], complete: true, aborted: false };
    this.acknowledge(client, token);
    // An old token (its pages were acknowledged by a later request): nothing to answer.
    if (token < client.firstSequence) return { token, nextToken: token, pages: [], complete: false, aborted: false };
    if (this.layout.kind === 'arbitrary' && client.entries.length === 0) this.takeShared(client, maxBytes);
    if (client.entries.length === 0) {
      const complete = this.noMorePages && this.sharedQueue.length === 0;
      return { token, nextToken: token, pages: [], complete, aborted: false };
    }
    const pages: OutputPage[] = [];
    let bytes = 0;
    for (const entry of client.entries) {
      if (pages.length > 0 && bytes + entry.bytes > maxBytes) break;
      pages.push(entry.page);
      bytes += entry.bytes;
    }
    // An answer holding the last pages says so: its consumer releases the buffer then, without asking once more.
    const complete = this.noMorePages && this.sharedQueue.length === 0 && pages.length === client.entries.length;
    if (complete) client.completeAt = token + pages.length;
    return { token, nextToken: token + pages.length, pages, complete, aborted: false };
  }

  private acknowledge(client: ClientBuffer, token: number): void {
    const count = token - client.firstSequence;
    if (count <= 0) return;
    if (count > client.entries.length) {
      throw new EngineError(
        'GENERIC_USER_ERROR',
        `Token ${token} of output buffer ${client.id} is past its last page (${client.firstSequence + client.entries.length})`,
      );
    }
    this.release(client.entries.splice(0, count));
    client.firstSequence = token;
  }

  /** Arbitrary layout: moves shared pages (at least one, at most `maxBytes`) into this consumer's buffer. */
  private takeShared(client: ClientBuffer, maxBytes: number): void {
    let bytes = 0;
    while (this.sharedQueue.length > 0) {
      const next = this.sharedQueue[0];
      if (client.entries.length > 0 && bytes + next.bytes > maxBytes) break;
      client.entries.push(this.sharedQueue.shift()!);
      bytes += next.bytes;
    }
  }

  /** Each page held once for the buffers of `targets` not destroyed yet. */
  private holdForEach(pages: readonly OutputPage[], targets: readonly ClientBuffer[]): void {
    const live = targets.filter((b) => !b.destroyed);
    if (live.length === 0) return;
    for (const page of pages) {
      const entry = this.hold(page, live.length);
      for (const b of live) b.entries.push(entry);
    }
    for (const b of live) b.wakeReaders();
  }

  private hold(page: OutputPage, refs: number): PageEntry {
    const entry = { page, bytes: page.bytes, refs };
    this.memory?.reserve(entry.bytes);
    this.bytes += entry.bytes;
    return entry;
  }

  private release(entries: readonly PageEntry[]): void {
    for (const entry of entries) {
      if (--entry.refs === 0) {
        this.bytes -= entry.bytes;
        this.memory?.free(entry.bytes);
        this.pagesReleased++;
      }
    }
    if (!this.isFull) this.wakeProducers();
  }

  private whenNotFull(): Promise<void> {
    if (!this.isFull) return Promise.resolve();
    return new Promise((resolve) => this.producersWaiting.push(resolve));
  }

  private wakeProducers(): void {
    const waiting = this.producersWaiting;
    this.producersWaiting = [];
    for (const resolve of waiting) resolve();
  }

  private waitForChange(client: ClientBuffer, maxWaitMillis: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        client.readers.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMillis);
      client.readers.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
