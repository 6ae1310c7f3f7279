// The splits a table scan reads, as its connector lists them; under TABLESAMPLE SYSTEM each one is
// kept with the scan's sample ratio (drawn where the splits are listed, once per query).

import type { Connector, Split } from '../spi/connector.js';
import type { Session } from '../spi/session.js';
import type { TableScanNode } from '../sql/planner/plan.js';

export function scanSplits(connector: Connector, session: Session, scan: TableScanNode): AsyncIterable<Split> {
  const splits = connector.getSplits(session, scan.table, scan.constraint, scan.pushed);
  const ratio = scan.splitSampleRatio;
  return ratio === undefined ? splits : sampled(splits, ratio);
}

async function* sampled(splits: AsyncIterable<Split>, ratio: number): AsyncIterable<Split> {
  for await (const split of splits) if (Math.random() < ratio) yield split;
}
