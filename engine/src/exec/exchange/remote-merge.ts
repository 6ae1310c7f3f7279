// The consumer's half of a merging exchange (a RemoteSource with an order, Trino's RemoteMerge and
// MergeOperator): one stream per task of the fragment below, each sorted by its task, merged into
// one sorted stream by the k-way merge of a parallel sort's runs (MergeSorted), so the rows compare
// as the sort operators compare them. It streams: the merge holds one page per task.

import type { SqlType } from '../../types/types.js';
import type { SortKey } from '../../functions/scalar/value-ordering.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import type { OperatorRecorder } from '../stats/operator-recorder.js';
import { mergeSortedRuns } from '../threads/merge-sorted-runs.js';
import type { ThreadRuns } from '../threads/parallel-source.js';

/** The sorted streams of a merging remote source, one per source task. */
export interface SortedStreams {
  /** The streams, once every source task is known (run i: task i's pages, in the order it made them). */
  streams(): Promise<ThreadRuns>;
  /** Stops reading them all (the consumer stopped early). */
  close(): void;
}

/** The rows of `sources` in the order of `keys`. */
export async function* remoteMerge(
  ctx: OperatorContext & { stats: OperatorRecorder },
  sources: SortedStreams,
  types: readonly SqlType[],
  keys: readonly SortKey[],
): PageStream {
  let ended = false;
  try {
    const runs = await ctx.stats.blockedOn(sources.streams());
    yield* mergeSortedRuns(ctx, runs, types, keys);
    ended = true;
  } finally {
    // Read to the end, every stream ended (and released its buffer) of its own accord.
    if (!ended) sources.close();
  }
}
