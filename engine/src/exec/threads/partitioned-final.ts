// The final step of a grouped aggregation, spread over the workers of a task: each worker splits
// its partial aggregation's output (or, for an aggregation in one step, its stages' rows) by key
// hash, keeps its own partition, sends every other one to the worker that owns it (directly, over
// a MessagePort), and aggregates what it owns. Each group thus ends up whole in exactly one worker,
// and the main thread only collects final rows.

import type { MessagePort } from 'node:worker_threads';
import { EngineError } from '../../errors/engine-error.js';
import { hashAggregation } from '../operators/hash-aggregation.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import type { Page } from '../../columnar/page.js';
import { resolveAggregateRef } from '../../functions/aggregate/aggregate-ref.js';
import { decodePage, encodePage, type EncodedPage } from './page-transfer.js';
import { partitionPage } from './partition-page.js';
import type { FinalAggregation } from './scan-pipeline.js';

/** This worker's place in the task's exchange: its partition, and a port to each other worker (null for itself). */
export interface PartitionExchange {
  partition: number;
  peers: (MessagePort | null)[];
}

type PeerMessage = { type: 'page'; page: EncodedPage } | { type: 'end' };

/** What the final step tells its thread job as it runs. */
export interface FinalStepHooks {
  /** Around waits for other workers, so that waiting does not count as work. */
  pause(): void;
  resume(): void;
  /** Before each page it aggregates: its groups may have grown, and the main thread counts them only when told. */
  aggregating(): void;
}

export async function* partitionedFinal(
  ctx: OperatorContext,
  partial: PageStream,
  final: FinalAggregation,
  exchange: PartitionExchange,
  hooks: FinalStepHooks,
): PageStream {
  const peers = exchange.peers.filter((p): p is MessagePort => p !== null);
  // Inputs: every peer and this worker's own partial aggregation, each ending once.
  const inbox = new Inbox(peers.length + 1, ctx.signal, hooks);
  for (const port of peers) {
    port.on('message', (message: PeerMessage) => (message.type === 'page' ? inbox.push(decodePage(message.page)) : inbox.inputDone()));
  }
  try {
    void sendPartitions(partial, final.groupChannels, exchange, inbox);
    yield* hashAggregation(ctx, inbox.pages(), {
      inputTypes: final.inputTypes,
      groupChannels: final.groupChannels,
      aggregates: final.aggregates.map((a) => ({
        function: resolveAggregateRef(a.function),
        argumentChannels: a.argumentChannels,
        distinct: false,
        maskChannel: a.maskChannel,
      })),
      step: final.step,
    });
  } finally {
    for (const port of peers) port.close();
  }
}

/** Runs the partial aggregation and hands each partition of its output to its owner. */
async function sendPartitions(
  partial: PageStream,
  keyChannels: readonly number[],
  exchange: PartitionExchange,
  inbox: Inbox,
): Promise<void> {
  const count = exchange.peers.length;
  try {
    for await (const page of partial) {
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
    private readonly hooks: FinalStepHooks,
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
        this.hooks.aggregating();
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
