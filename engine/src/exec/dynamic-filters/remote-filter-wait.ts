// A scan whose dynamic filters come from a join in another stage (remote) waits a bounded time
// before it opens its first split (Trino's dynamic_filtering_wait_timeout of its Hive connector):
// with the filter in hand it skips the row groups, pages and rows no build key matches; without
// it (a slow or failed build) it reads unfiltered once the wait is over. Local filters need no
// wait: their join reads its build before it asks its probe side for a page.

import { parseDuration } from '../../config/duration.js';
import type { PropertyMetadata } from '../../spi/properties.js';
import type { TableScanNode } from '../../sql/planner/plan.js';
import type { ExecutionEnvironment } from '../local-execution-planner.js';

/**
 * 1s by measurement (sf1 Parquet, a coordinator and 2 workers, 0s/200ms/1s alternated): q20's and
 * q02's builds often take longer than 200ms under load, and reading unfiltered cost them about twice
 * the CPU; a scan whose filters arrive sooner stops waiting then, and one without remote filters never waits.
 */
export const DYNAMIC_FILTERING_WAIT_TIMEOUT_PROPERTY: PropertyMetadata = {
  name: 'dynamic_filtering_wait_timeout',
  type: { kind: 'varchar' },
  defaultValue: '1s',
  description:
    "Longest a table scan waits, before its first split, for the dynamic filters of joins in other stages (their builds' key domains); 0s reads at once",
  validate: (v) => {
    if (parseDuration(String(v)) === undefined) throw new Error(`'${String(v)}' is not a duration such as '1s' or '500ms'`);
  },
};

/** Waits (see above) for the scan's remote filters, if it has any still pending. */
export async function waitForRemoteFilters(
  env: Pick<ExecutionEnvironment, 'dynamicFilters' | 'session' | 'operator'>,
  node: TableScanNode,
): Promise<void> {
  const ids = (node.dynamicFilters ?? []).filter((f) => f.remote).map((f) => f.id);
  if (ids.length === 0 || env.dynamicFilters === undefined) return;
  const property = DYNAMIC_FILTERING_WAIT_TIMEOUT_PROPERTY;
  const maxWait = parseDuration(env.session.properties.get(property.name) ?? String(property.defaultValue)) ?? 0;
  const waiting = env.dynamicFilters.whenComplete(ids, maxWait, env.operator.signal);
  await (env.operator.stats?.blockedOn(waiting) ?? waiting);
}
