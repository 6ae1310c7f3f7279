// The dynamic filters of one plan's execution (one task, or one query on a single node): each
// join that has some publishes its build keys' domains once its build input is complete, and a
// scan under it reads them as it opens each split (table-scan.ts, parallel-source.ts). In this
// pull-based executor a join reads its build side before it first asks its probe side for a page,
// so the probe scan opens its splits with the filter in hand; a filter not complete yet (a probe
// read ahead of its build, a join in another task) filters nothing. A remote filter (its join and
// scan in different fragments) crosses through the coordinator: the join's task publishes its
// domain (its task info shows a new dynamic filters version, and the coordinator fetches the domain),
// the scan's task is given the union over the join's tasks (task update).

import type { DynamicFilterDomain } from '../../internode/dynamic-filter-domains.js';
import type { TableConstraint } from '../../spi/connector.js';
import type { Page } from '../../columnar/page.js';
import type { ScanDynamicFilter } from '../../sql/planner/plan.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import { PROBE_FIRST_MAX_ROWS } from '../../sql/planner/physical/adaptive-thresholds.js';
import { yieldIfDue } from '../../columnar/cooperative.js';
import { SLICE_ROWS } from '../operators/bounded-pages.js';
import type { PropertyMetadata } from '../../spi/properties.js';
import type { Session } from '../../spi/session.js';
import { forOtherNodes, KeyDomainCollector, MAX_DYNAMIC_FILTER_VALUES, unionDomains, type KeyDomain } from './key-domain.js';
import { MAX_KEY_BITMAP_SPAN, sharedKeyBitmap } from './key-bitmap.js';
import { parseDataSize } from '../../config/data-size.js';

/** The metric a scan counts the splits it opened with a dynamic filter under (Trino's name). */
export const DYNAMIC_FILTER_SPLITS_METRIC = 'dynamicFilterSplitsProcessed';

export class DynamicFilters {
  /** By filter id: the builds (or parts of one build) still running, and the union of the domains of those complete. */
  private readonly filters = new Map<string, { running: number; domain: KeyDomain | undefined }>();
  /** The ids of this execution's joins whose filters are remote, and the domains of those complete. */
  private readonly remoteIds = new Set<string>();
  private readonly published: DynamicFilterDomain[] = [];
  /** Scans waiting for remote domains: woken at each one received. */
  private readonly waiters = new Set<() => void>();

  /** `onPublished`: a remote filter's build completed (its task shows the domain in a new version). */
  constructor(private readonly onPublished: () => void = () => undefined) {}

  /**
   * The remote filters of this execution's scans: pending until the coordinator sends their domains
   * (receive), so that a scan knows to wait for them; and the remote ones of its joins, to publish.
   */
  expectRemote(scanIds: readonly string[], joinIds: readonly string[]): void {
    for (const id of scanIds) if (!this.filters.has(id)) this.filters.set(id, { running: 1, domain: undefined });
    for (const id of joinIds) this.remoteIds.add(id);
  }

  /** A remote filter's domain, unioned over its join's tasks; sent again (a retried update), it changes nothing. */
  receive(domains: readonly DynamicFilterDomain[]): void {
    for (const { id, domain } of domains) {
      const filter = this.filters.get(id);
      // A key bitmap from another node goes into shared memory once, for the scan's threads to read.
      const received = domain.keys === undefined ? domain : { ...domain, keys: sharedKeyBitmap(domain.keys) };
      if (filter === undefined || filter.running > 0) this.filters.set(id, { running: 0, domain: received });
    }
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves once none of `ids` is pending, after `maxWaitMillis`, or when `signal` aborts, whichever is first. */
  async whenComplete(ids: readonly string[], maxWaitMillis: number, signal: AbortSignal): Promise<void> {
    const done = () => signal.aborted || ids.every((id) => !this.pending(id));
    if (done() || maxWaitMillis <= 0) return;
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', finish);
        this.waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const timer = setTimeout(finish, maxWaitMillis);
      signal.addEventListener('abort', finish);
      this.waiters.add(check);
    });
  }

  /** The domains of the remote filters this execution's joins completed. */
  publishedDomains(): readonly DynamicFilterDomain[] {
    return this.published;
  }

  /** Whether a scan's filter is still waiting for a build (here or, remote, in another stage). */
  pending(id: string): boolean {
    return (this.filters.get(id)?.running ?? 0) > 0;
  }

  /**
   * A join instance with these filters is made: until its build completes they filter nothing (not
   * an earlier instance's values). Made again while one runs, it is another part of the same build
   * (a build split among operators): the filter waits for every part and takes all their keys.
   */
  begin(ids: readonly string[]): void {
    for (const id of ids) {
      const filter = this.filters.get(id);
      if (filter !== undefined && filter.running > 0) filter.running++;
      else this.filters.set(id, { running: 1, domain: undefined });
    }
  }

  /** `remoteKeyBitmapBytes`: the largest key bitmap a remote filter's domain is published with (forOtherNodes). */
  complete(id: string, domain: KeyDomain, remoteKeyBitmapBytes = 0): void {
    const filter = this.filters.get(id)!;
    filter.domain = filter.domain === undefined ? domain : unionDomains(filter.domain, domain);
    filter.running--;
    // A join made again later (a new build) does not publish twice: the coordinator took the first.
    if (filter.running > 0 || !this.remoteIds.has(id) || this.published.some((p) => p.id === id)) return;
    // Sent to the coordinator and on to other tasks, with its key bitmap when that is small enough.
    this.published.push({ id, domain: forOtherNodes(filter.domain, remoteKeyBitmapBytes) });
    this.onPublished();
  }

  /** The complete filters of a scan, as domains of its columns; undefined when none is complete. */
  constraint(filters: readonly ScanDynamicFilter[] | undefined): TableConstraint | undefined {
    if (filters === undefined) return undefined;
    const domains = [];
    for (const { id, column } of filters) {
      const filter = this.filters.get(id);
      if (filter !== undefined && filter.running === 0 && filter.domain !== undefined) domains.push({ column, ...filter.domain });
    }
    return domains.length === 0 ? undefined : domains;
  }
}

/** Whether a build with more keys than a filter lists keeps them as a bitmap (key-bitmap.ts): read as the join is made. */
export const DYNAMIC_FILTER_KEY_BITMAP_PROPERTY: PropertyMetadata = {
  name: 'dynamic_filter_key_bitmap',
  type: { kind: 'boolean' },
  defaultValue: true,
  description: `Whether a join's dynamic filter with more than ${MAX_DYNAMIC_FILTER_VALUES} integer build keys (or a semi join's probe keys, its probe side read first) spanning at most ${MAX_KEY_BITMAP_SPAN} integers keeps them as a bitmap, which the probe's scan tests its rows against (on other nodes too, within dynamic_filter_remote_key_bitmap_max_size)`,
};

/**
 * The largest key bitmap a dynamic filter crossing stages carries (its join and scan in different
 * tasks: through the coordinator, base64 in JSON); a larger one keeps only the keys' range.
 * DEFAULT_REMOTE_KEY_BITMAP_MAX_SIZE says why its default.
 */
export const DYNAMIC_FILTER_REMOTE_KEY_BITMAP_MAX_SIZE_PROPERTY: PropertyMetadata = {
  name: 'dynamic_filter_remote_key_bitmap_max_size',
  type: { kind: 'varchar' },
  defaultValue: '1MB',
  description: `Largest key bitmap (dynamic_filter_key_bitmap) a dynamic filter sent to other nodes carries; a larger one keeps only the keys' range, and 0B sends none`,
  validate: (v) => {
    if (parseDataSize(String(v)) === undefined) throw new Error(`'${String(v)}' is not a data size such as '1MB' or '0B'`);
  },
};

/** DYNAMIC_FILTER_REMOTE_KEY_BITMAP_MAX_SIZE_PROPERTY's value in bytes. */
export function remoteKeyBitmapMaxBytes(session: Session): number {
  const property = DYNAMIC_FILTER_REMOTE_KEY_BITMAP_MAX_SIZE_PROPERTY;
  return parseDataSize(session.properties.get(property.name) ?? String(property.defaultValue)) ?? 0;
}

/** The metric a join counts the filters it completed with a key bitmap under. */
export const KEY_BITMAPS_METRIC = 'dynamicFilterKeyBitmaps';

/** A key channel whose values make a dynamic filter (a build's; a probe's for a semi join's probe key filters). */
export interface BuildKeyFilter {
  id: string;
  channel: number;
}

/**
 * The build input passed on unchanged; once it ends, its keys' domains complete the filters. Made
 * with the join's operator, before anything reads: from then on the filters wait for this build.
 * `keyBitmaps`: DYNAMIC_FILTER_KEY_BITMAP_PROPERTY's and DYNAMIC_FILTER_REMOTE_KEY_BITMAP_MAX_SIZE_PROPERTY's values.
 */
export function collectingDynamicFilters(
  build: PageStream,
  keys: readonly BuildKeyFilter[],
  filters: DynamicFilters,
  reader: Pick<OperatorContext, 'signal' | 'stats'>,
  keyBitmaps: KeyBitmapSettings = NO_KEY_BITMAPS,
): PageStream {
  filters.begin(keys.map((k) => k.id));
  return collected(build, keys, filters, reader, keyBitmaps);
}

/** Whether a build's many keys make a bitmap (DYNAMIC_FILTER_KEY_BITMAP_PROPERTY), and the largest one sent to other nodes. */
export interface KeyBitmapSettings {
  local: boolean;
  remoteMaxBytes: number;
}

const NO_KEY_BITMAPS: KeyBitmapSettings = { local: false, remoteMaxBytes: 0 };

/** `reader`: the operator reading the build, whose turns of the event loop here are counted as blocked time. */
async function* collected(
  build: PageStream,
  keys: readonly BuildKeyFilter[],
  filters: DynamicFilters,
  reader: Pick<OperatorContext, 'signal' | 'stats'>,
  keyBitmaps: KeyBitmapSettings,
): PageStream {
  const collectors = keys.map(() => new KeyDomainCollector(MAX_DYNAMIC_FILTER_VALUES, keyBitmaps.local));
  for await (const page of build) {
    // A build page can be long (a gathered build side): its keys go a slice per turn of the event loop when one is due.
    for (let start = 0; start < page.rowCount; start += SLICE_ROWS) {
      if (start > 0) await yieldIfDue(reader.signal, reader.stats);
      collect(page, keys, collectors, start, Math.min(page.rowCount, start + SLICE_ROWS));
    }
    yield page;
  }
  keys.forEach((k, i) => {
    const domain = collectors[i].domain();
    // EXPLAIN ANALYZE shows it on the join: how many of its filters hold their keys as a bitmap.
    if (domain.keys !== undefined) reader.stats?.connectorMetrics({ [KEY_BITMAPS_METRIC]: 1 });
    filters.complete(k.id, domain, keyBitmaps.remoteMaxBytes);
  });
}

/**
 * A semi or anti join's probe key filters (sql/planner/optimizer/dynamic-filters.ts), begun as the
 * join is made; the function returned completes them with the keys of its whole probe side, read
 * first (all of its distinct keys: a probe side read first is small). Never called (a probe side too
 * big to read first), they stay incomplete and filter nothing.
 */
export function probeKeyFilters(
  keys: readonly BuildKeyFilter[],
  filters: DynamicFilters,
  keyBitmaps: boolean,
): (probe: readonly Page[]) => void {
  filters.begin(keys.map((k) => k.id));
  let completed = false;
  return (probe) => {
    if (completed) return;
    completed = true;
    // Past a build filter's number of values, integer keys go to a bitmap (when it may be made): a list
    // of q21's 75k probe keys cost a Set of them, a bigint each, and a sort of them in every scan thread.
    const collectors = keys.map(() => new KeyDomainCollector(PROBE_FIRST_MAX_ROWS, keyBitmaps, MAX_DYNAMIC_FILTER_VALUES));
    for (const page of probe) collect(page, keys, collectors);
    keys.forEach((k, i) => filters.complete(k.id, collectors[i].domain()));
  };
}

function collect(
  page: Page,
  keys: readonly BuildKeyFilter[],
  collectors: readonly KeyDomainCollector[],
  start = 0,
  end = page.rowCount,
): void {
  for (let i = 0; i < keys.length; i++) collectors[i].add(page.columns[keys[i].channel], start, end);
}
