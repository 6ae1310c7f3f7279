// Reads a table through its connector, split by split, counting splits, rows and bytes as it goes.

import { scanSplits } from './scan-splits.js';
import { countConnectorRead } from '../spi/connector-io.js';
import type { Connector, ConnectorMetrics, PageSource, Split, TableConstraint } from '../spi/connector.js';
import { DYNAMIC_FILTER_SPLITS_METRIC } from './dynamic-filters/dynamic-filters.js';
import type { OperatorRecorder } from './stats/operator-recorder.js';
import { EngineError } from '../errors/engine-error.js';
import type { TableScanNode } from '../sql/planner/plan.js';
import { yieldIfDue } from '../columnar/cooperative.js';
import { blockedWhileWaiting } from './stats/blocked-while-waiting.js';
import type { ExecutionEnvironment } from './local-execution-planner.js';
import type { PageStream } from './operators/operator.js';
import { estimatedPageBytes } from '../columnar/page.js';
import { waitForRemoteFilters } from './dynamic-filters/remote-filter-wait.js';

/** `splits`: the table's splits when the caller already has them (made once per scan: they fix its snapshot). */
export async function* tableScan(env: ExecutionEnvironment, node: TableScanNode, splits?: readonly Split[]): PageStream {
  const connector = scanConnector(env, node);
  const columns = node.columns.map((c) => c.name);
  const open = (split: Split) => () => {
    const dynamicFilter = scanDynamicFilter(env, node);
    if (dynamicFilter !== undefined) env.operator.stats?.connectorMetrics({ [DYNAMIC_FILTER_SPLITS_METRIC]: 1 });
    return connector.createPageSource(env.session, split, columns, env.operator.signal, dynamicFilter);
  };
  await waitForRemoteFilters(env, node);
  const assigned = splits === undefined ? env.assignedSplits?.(node) : undefined;
  if (assigned !== undefined) {
    yield* readSplits(env, counted(env, mapSplits(assigned, open)));
    return;
  }
  if (splits === undefined) {
    yield* readSplits(env, counted(env, mapSplits(scanSplits(connector, env.session, node), open)));
    return;
  }
  env.progress.totalSplits += splits.length;
  env.progress.queuedSplits += splits.length;
  yield* readSplits(env, splits.map(open));
}

/** Splits as they come, counted as queued on arrival. */
async function* counted<T>(env: Pick<ExecutionEnvironment, 'progress'>, splits: AsyncIterable<T>): AsyncIterable<T> {
  for await (const split of splits) {
    env.progress.totalSplits++;
    env.progress.queuedSplits++;
    yield split;
  }
}

export async function* mapSplits<T>(splits: AsyncIterable<Split>, map: (split: Split) => T): AsyncIterable<T> {
  for await (const split of splits) yield map(split);
}

/**
 * Reads splits (already counted as queued) one after the other, counting each, its rows and bytes
 * (the operator's CPU time is its recorder's). Waiting for a split to arrive is the operator's
 * blocked time. Gives the event loop its turn between pages itself: a scan may be consumed by
 * operators outside the planner's recorded edges (the main-thread fallback of a parallel aggregation).
 */
export async function* readSplits(
  env: Pick<ExecutionEnvironment, 'operator' | 'progress'>,
  splits: Iterable<() => PageSource> | AsyncIterable<() => PageSource>,
): PageStream {
  const progress = env.progress;
  const stats = env.operator.stats;
  for await (const split of blockedWhileWaiting(splits, stats)) {
    progress.queuedSplits--;
    progress.runningSplits++;
    const source = split();
    const metrics = new MetricsSampler(source);
    try {
      for await (const page of source) {
        metrics.sample(stats);
        await yieldIfDue(env.operator.signal, stats);
        const bytes = estimatedPageBytes(page);
        progress.processedRows += page.rowCount;
        progress.processedBytes += bytes;
        stats?.input(page.rowCount, bytes);
        yield page;
      }
    } finally {
      progress.runningSplits--;
    }
    metrics.sample(stats);
    progress.completedSplits++;
  }
}

/** A page source's metrics as they grow, added to the operator's as they do (so that they show while it reads). */
class MetricsSampler {
  private last: ConnectorMetrics = {};

  constructor(private readonly source: PageSource) {}

  sample(stats: OperatorRecorder | undefined): void {
    const now = this.source.metrics?.();
    if (now === undefined) return;
    const delta: Record<string, number> = {};
    for (const [name, value] of Object.entries(now)) delta[name] = value - (this.last[name] ?? 0);
    countConnectorRead(delta);
    stats?.connectorMetrics(delta);
    this.last = now;
  }
}

/** The scan's dynamic filters complete so far (asked as it opens a split). */
export function scanDynamicFilter(env: Pick<ExecutionEnvironment, 'dynamicFilters'>, node: TableScanNode): TableConstraint | undefined {
  return env.dynamicFilters?.constraint(node.dynamicFilters);
}

export function scanConnector(env: Pick<ExecutionEnvironment, 'catalogs'>, node: TableScanNode): Connector {
  const connector = env.catalogs.get(node.table.catalog);
  if (!connector) throw new EngineError('CATALOG_NOT_FOUND', `Catalog '${node.table.catalog}' not found`);
  return connector;
}
