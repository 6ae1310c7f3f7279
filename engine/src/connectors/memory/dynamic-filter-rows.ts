// A query's dynamic filters (the build keys of joins above the scan) applied to the rows of a
// memory table, as the lake's reader applies them to a file's: a row whose key no build row holds
// is dropped before any operator sees it. The engine still evaluates the join on every row it
// gets, so the test only has to be conservative (the row test the lake's reader uses too,
// spi/domain/exclude-rows.ts, keeps what it cannot decide). Only numeric keys are tested (TPC-H's
// and most joins' keys); other columns pass.

import type { ColumnDomain, TableConstraint } from '../../spi/connector.js';
import { type Page, takePage } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { excludeRows } from '../../spi/domain/exclude-rows.js';
import { prepareDomain, type PreparedDomain } from '../../spi/domain/prepared-domain.js';

const NUMERIC_KEY_KINDS = new Set<SqlType['kind']>(['tinyint', 'smallint', 'integer', 'bigint', 'date', 'decimal']);

/** A domain of the filter, on the channel of the page that holds its column. */
interface ChannelDomain {
  channel: number;
  test: DomainTest;
}

/** A prepared domain and what it did so far in this thread: a domain that drops almost nothing is no longer tested. */
interface DomainTest {
  domain: PreparedDomain;
  rowsTested: number;
  rowsDropped: number;
}

/** Rows a domain is tested on before its share of dropped rows decides whether testing it pays. */
const TRIAL_ROWS = 200_000;
/** Below this share of dropped rows, a domain is left to the join (testing costs more than it saves). */
const MIN_DROPPED_SHARE = 0.05;

/**
 * The rows of each page of a scan of `columns` (names, in page order) that may satisfy the dynamic
 * filter, or undefined when the filter can drop nothing here.
 */
export function dynamicFilterRows(
  columns: readonly string[],
  types: readonly SqlType[],
  dynamicFilter: TableConstraint | undefined,
): ((page: Page) => Page) | undefined {
  const domains: ChannelDomain[] = [];
  for (const d of dynamicFilter ?? []) {
    const channel = columns.indexOf(d.column);
    // No type: a split without pages (an empty table's), which has nothing to filter.
    if (channel < 0 || types[channel] === undefined || !NUMERIC_KEY_KINDS.has(types[channel].kind)) continue;
    const test = domainTest(d);
    if (test !== undefined) domains.push({ channel, test });
  }
  if (domains.length === 0) return undefined;
  return (page) => keptRows(page, domains);
}

/**
 * Domains prepared once per filter, not once per split: a filter's value list (up to 50,000 keys,
 * sorted and made a set or bitmap when prepared) is one array for every split of a scan in this thread.
 */
const tests = new WeakMap<object, DomainTest | undefined>();

function domainTest(d: ColumnDomain): DomainTest | undefined {
  const key = d.values ?? d;
  if (!tests.has(key)) {
    const domain = prepareDomain(d, false);
    tests.set(key, domain === undefined ? undefined : { domain, rowsTested: 0, rowsDropped: 0 });
  }
  return tests.get(key);
}

function worthTesting(test: DomainTest): boolean {
  return test.rowsTested < TRIAL_ROWS || test.rowsDropped >= test.rowsTested * MIN_DROPPED_SHARE;
}

/** Per-row scratch reused page after page (a scan's pages are filtered one at a time, and takePage copies out of them). */
let keepScratch = new Uint8Array(0);
let positionsScratch = new Int32Array(0);

function keptRows(page: Page, domains: readonly ChannelDomain[]): Page {
  const n = page.rowCount;
  const tested = domains.filter((d) => worthTesting(d.test));
  if (tested.length === 0) return page;
  if (keepScratch.length < n) {
    keepScratch = new Uint8Array(n);
    positionsScratch = new Int32Array(n);
  }
  const keep = keepScratch.subarray(0, n).fill(1);
  const positions = positionsScratch;
  let kept = n;
  for (let d = 0; d < tested.length; d++) {
    const { channel, test } = tested[d];
    excludeRows(page.columns[channel], test.domain, keep);
    const before = kept;
    // The last domain's pass over `keep` also lists the kept rows (one pass fewer over the page).
    kept = d === tested.length - 1 ? keptPositions(keep, n, positions) : countKept(keep, n);
    // Counted on the rows the domains before it left: a domain that drops nothing more is turned off.
    test.rowsTested += before;
    test.rowsDropped += before - kept;
  }
  return kept === n ? page : takePage(page, positions, kept);
}

function countKept(keep: Uint8Array, n: number): number {
  let kept = 0;
  for (let i = 0; i < n; i++) kept += keep[i];
  return kept;
}

/** Writes the rows kept into `positions` and returns how many. */
function keptPositions(keep: Uint8Array, n: number, positions: Int32Array): number {
  let count = 0;
  for (let i = 0; i < n; i++) {
    positions[count] = i;
    count += keep[i];
  }
  return count;
}

/** The pages of `pages` with the rows the filter drops left out (`filter` undefined: unchanged); empty pages are skipped. */
export async function* filteredPages(pages: AsyncIterable<Page>, filter: ((page: Page) => Page) | undefined): AsyncIterable<Page> {
  if (filter === undefined) {
    yield* pages;
    return;
  }
  for await (const page of pages) {
    const kept = filter(page);
    if (kept.rowCount > 0) yield kept;
  }
}
