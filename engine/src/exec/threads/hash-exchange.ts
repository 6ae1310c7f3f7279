// A HASH local exchange between the worker threads of a task: each thread splits the pages of its
// input by the hash of their key columns, keeps its own partition, and sends every other one to the
// thread that owns it (directly, over a MessagePort). What a thread reads is every row, from any
// thread, whose keys hash to its partition: a step above it (an aggregation's final step, a window)
// thus sees each group or partition whole in exactly one thread.

import type { MessagePort } from 'node:worker_threads';
import { EngineError } from '../../errors/engine-error.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import type { Page } from '../../columnar/page.js';
import { decodePage, encodePage, type EncodedPage } from './page-transfer.js';
import { partitionPage } from './partition-page.js';

/** This thread's place in the task's exchange: its partition, and a port to each other thread (null for itself). */
export interface PartitionExchange {
  partition: number;
  peers: (MessagePort | null)[];
}

type PeerMessage = { type: 'page'; page: EncodedPage } | { type: 'end' };

/** What the exchange tells its thread job as it runs. */
export interface ExchangeHooks {
  /** Around waits for other threads, so that waiting does not count as work. */
  pause(): void;
  resume(): void;
  /** Before each page it hands on: the step above may have grown, and the main thread counts its memory only when told. */
  received(): void;
}

/** The rows of `input` of every thread whose `keyChannels` hash to this thread's partition. */
export async function* exchangeByHash(
  ctx: OperatorContext,
  input: PageStream,
  keyChannels: readonly number[],
  exchange: PartitionExchange,
  hooks: ExchangeHooks,
): PageStream {
  const peers = exchange.peers.filter((p): p is MessagePort => p !== null);
  // Inputs: every peer and this thread's own input, each ending once.
  const inbox = new Inbox(peers.length + 1, ctx.signal, hooks);
  for (const port of peers) {
    port.on('message', (message: PeerMessage) => (message.type === 'page' ? inbox.push(decodePage(message.page)) : inbox.inputDone()));
  }
  try {
    void sendPartitions(input, keyChannels, exchange, inbox);
    yield* inbox.pages();
  } finally {
    for (const port of peers) port.close();
  }
}

/** Reads this thread's input and hands each partition of it to its owner. */
async function sendPartitions(input: PageStream, keyChannels: readonly number[], exchange: PartitionExchange, inbox: Inbox): Promise<void> {
  const count = exchange.peers.length;
  try {
    for await (const page of input) {
      partitionPage(page, keyChannels, count).forEach((part, target) => {
        if (part.rowCount === 0) return;
        const port = exchange.peers[target];
        if (port === null) {
          inbox.push(part);
          return;
        }
        const encoded = encodePage(part);
        port.postMessage({ type: 'page', page: encoded.page } satisfies PeerMessage, encoded.transfer);
      });
    }
    for (const port of exchange.peers) port?.postMessage({ type: 'end' } satisfies PeerMessage);
    inbox.inputDone();
  } catch (e) {
    inbox.fail(e);
  }
}

/** Pages from several inputs, as one stream that ends when every input has ended. */
class Inbox {
  private readonly queue: Page[] = [];
  private failure: unknown;
  private wakeUp: (() => void) | undefined;

  constructor(
    private openInputs: number,
    private readonly signal: AbortSignal,
    private readonly hooks: ExchangeHooks,
  ) {
    signal.addEventListener('abort', () => this.notify(), { once: true });
  }

  push(page: Page): void {
    this.queue.push(page);
    this.notify();
  }

  inputDone(): void {
    this.openInputs--;
    this.notify();
  }

  fail(error: unknown): void {
    this.failure ??= error;
    this.notify();
  }

  async *pages(): PageStream {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (this.signal.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
      const page = this.queue.shift();
      if (page !== undefined) {
        this.hooks.received();
        yield page;
        continue;
      }
      if (this.openInputs === 0) return;
      this.hooks.pause();
      await new Promise<void>((resolve) => (this.wakeUp = resolve));
      this.hooks.resume();
    }
  }

  private notify(): void {
    const wake = this.wakeUp;
    this.wakeUp = undefined;
    wake?.();
  }
}
