// Aggregations whose partial step was found not to pay (see adaptive-partial), remembered for a
// while: the same query over the same table then runs in the main thread at once instead of
// probing on the workers first. Entries expire, so a table that changed gets probed again.

import type { TableMetadata } from '../../spi/connector.js';
import type { ScanPipeline } from './scan-pipeline.js';

const RETENTION_MILLIS = 5 * 60 * 1000;
const MAX_ENTRIES = 256;

/** Expiry time by fragment key, oldest first. */
const verdicts = new Map<string, number>();

/** Names an aggregating fragment over a table: equal for the same query shape and constants. */
export function pipelineKey(table: TableMetadata, fragment: ScanPipeline): string {
  const text = JSON.stringify(fragment, (_, v: unknown) =>
    typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
  );
  return `${table.catalog}.${table.schema}.${table.name}:${text}`;
}

export function rememberPoorReduction(key: string, now = Date.now()): void {
  verdicts.delete(key);
  verdicts.set(key, now + RETENTION_MILLIS);
  for (const oldest of verdicts.keys()) {
    if (verdicts.size <= MAX_ENTRIES) break;
    verdicts.delete(oldest);
  }
}

export function knownPoorReduction(key: string, now = Date.now()): boolean {
  const expiry = verdicts.get(key);
  if (expiry === undefined) return false;
  if (expiry > now) return true;
  verdicts.delete(key);
  return false;
}
