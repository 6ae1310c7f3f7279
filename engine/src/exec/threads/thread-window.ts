// A window run on the worker threads of a task (sql/planner/physical ParallelWindow): each thread's
// rows go through a HASH exchange on the partition keys (hash-exchange.ts), so each thread holds
// whole partitions, which it sorts and windows with the same operator as the main thread. The
// window's functions travel by their plan handles (a function object cannot cross a thread) and are
// resolved again in the thread.

import type { WindowFunctionHandle } from '../../sql/planner/function-handles.js';
import { windowFunctionOf } from '../../sql/planner/function-handles.js';
import type { FrameSpec } from '../../sql/planner/window-frame.js';
import type { SortKey } from '../../functions/scalar/value-ordering.js';
import type { SqlType } from '../../types/types.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import { window, type WindowSpec } from '../operators/window.js';
import { exchangeByHash, type ExchangeHooks, type PartitionExchange } from './hash-exchange.js';

/** A window as plain data: over rows of `types`, its functions named by their handles. */
export interface ThreadWindow {
  types: SqlType[];
  partitionChannels: number[];
  orderKeys: SortKey[];
  functions: { handle: WindowFunctionHandle; argumentChannels: number[]; frame: FrameSpec<number>; ignoreNulls: boolean }[];
}

/** The window operator's spec of `w`, its functions resolved in this thread. */
export function windowSpecOf(w: ThreadWindow): WindowSpec {
  return {
    partitionChannels: w.partitionChannels,
    orderKeys: w.orderKeys,
    functions: w.functions.map((f) => ({
      function: windowFunctionOf(f.handle),
      argumentChannels: f.argumentChannels,
      frame: f.frame,
      ignoreNulls: f.ignoreNulls,
    })),
  };
}

/** The window over the partitions this thread owns: rows of every thread's `input` whose partition keys hash here. */
export function partitionedWindow(
  ctx: OperatorContext,
  input: PageStream,
  w: ThreadWindow,
  exchange: PartitionExchange,
  hooks: ExchangeHooks,
): PageStream {
  return window(ctx, exchangeByHash(ctx, input, w.partitionChannels, exchange, hooks), w.types, windowSpecOf(w));
}
