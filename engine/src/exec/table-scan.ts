// Reads a table through its connector, split by split, counting splits, rows and bytes as it goes.

import { EngineError } from '../errors/engine-error.js';
import type { TableScanNode } from '../sql/planner/plan.js';
import type { ExecutionEnvironment } from './local-execution-planner.js';
import type { PageStream } from './operators/operator.js';
import { pageSizeInBytes } from './page.js';

export async function* tableScan(env: ExecutionEnvironment, node: TableScanNode): PageStream {
  const { table } = node;
  const connector = env.catalogs.get(table.catalog);
  if (!connector) throw new EngineError('CATALOG_NOT_FOUND', `Catalog '${table.catalog}' not found`);
  const splits = connector.getSplits(env.session, table);
  const progress = env.progress;
  progress.totalSplits += splits.length;
  progress.queuedSplits += splits.length;
  const columns = node.columns.map((c) => c.name);
  for (const split of splits) {
    progress.queuedSplits--;
    progress.runningSplits++;
    const started = process.cpuUsage();
    try {
      for await (const page of connector.createPageSource(env.session, split, columns)) {
        if (env.operator.signal.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
        progress.processedRows += page.rowCount;
        progress.processedBytes += pageSizeInBytes(page);
        yield page;
      }
    } finally {
      const used = process.cpuUsage(started);
      progress.cpuTimeMillis += (used.user + used.system) / 1000;
      progress.runningSplits--;
    }
    progress.completedSplits++;
  }
}
