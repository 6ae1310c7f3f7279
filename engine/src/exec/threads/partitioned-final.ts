// The final step of a grouped aggregation, spread over the workers of a task: each worker's partial
// aggregation output (or, for an aggregation in one step, its stages' rows) goes through a HASH
// exchange on the group keys (hash-exchange.ts), and each worker aggregates the groups it owns. Each
// group thus ends up whole in exactly one worker, and the main thread only collects final rows (those
// the aggregation's HAVING keeps, when the worker applies it).

import { hashAggregation } from '../operators/hash-aggregation.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import { resolveAggregateRef } from '../../functions/aggregate/aggregate-ref.js';
import { exchangeByHash, type ExchangeHooks, type PartitionExchange } from './hash-exchange.js';
import { havingOver, type FinalAggregation } from './scan-pipeline.js';

export function partitionedFinal(
  ctx: OperatorContext,
  partial: PageStream,
  final: FinalAggregation,
  exchange: PartitionExchange,
  hooks: ExchangeHooks,
): PageStream {
  const groups = hashAggregation(ctx, exchangeByHash(ctx, partial, final.groupChannels, exchange, hooks), {
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
  return havingOver(ctx, groups, final.having);
}
