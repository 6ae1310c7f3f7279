// The as-of join of NEAREST: the build side is hashed on the equality keys as for any join, so each
// probe row's candidates are the build rows of its key. When the filter is the MATCH comparison
// alone, each key's rows are sorted by the match key once (on first use) and a probe row's nearest
// is found by binary search; otherwise each probe row walks its key's rows, keeps those passing the
// filter, and takes the largest or smallest key. A LEFT join outputs NULLs for a row without one.
// Among candidates with equal keys any one is kept (Trino keeps an arbitrary one).

import type { JoinNode } from '../../sql/planner/plan.js';
import { extractConjuncts } from '../../sql/planner/plan-factory.js';
import type { SqlType } from '../../types/types.js';
import type { Column, Page } from '../../columnar/page.js';
import { buildSide, firstCandidates, type BuildSide } from './join-build-side.js';
import { joinFilterOf, joinOutputTypes, type HashJoinSpec } from './hash-join.js';
import type { JoinFilter } from './join-filter.js';
import { outputPage, PairBatches } from './join-pairs.js';
import type { OperatorContext, PageStream } from './operator.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { MemoryReservation, PageCompactor, throwIfCanceled } from './operator-support.js';
import { prepareColumn, valueCompareFor, type PreparedValues, type ValueCompare } from '../../functions/scalar/value-ordering.js';

export interface NearestJoinSpec extends HashJoinSpec {
  type: 'inner' | 'left';
  /** The build channel of the match key, and the probe channel of the value it is compared with. */
  nearestKey: number;
  nearestValue: number;
  operator: '<' | '<=' | '>' | '>=';
  /** Whether the filter is the MATCH comparison alone (then each key's rows are searched sorted). */
  matchOnly: boolean;
}

/** The spec of a NEAREST join node, given its hash join spec. */
export function nearestJoinSpec(node: JoinNode, spec: HashJoinSpec): NearestJoinSpec {
  const nearest = node.nearest!;
  if (spec.type !== 'inner' && spec.type !== 'left') throw new Error(`A NEAREST join is inner or left, not ${spec.type}`);
  return {
    ...spec,
    type: spec.type,
    nearestKey: node.right.outputs.findIndex((s) => s.id === nearest.key.id),
    nearestValue: node.left.outputs.findIndex((s) => s.id === nearest.value.id),
    operator: nearest.operator,
    matchOnly: extractConjuncts(node.filter).length === 1 && searchable(nearest.key.type),
  };
}

/** Types whose ordering agrees with their SQL comparison on every non-NULL value but NaN (containers compare NULL fields differently). */
function searchable(type: SqlType): boolean {
  return type.kind !== 'row' && type.kind !== 'array' && type.kind !== 'map' && type.kind !== 'unknown';
}

export async function* nearestJoin(ctx: OperatorContext, probe: PageStream, build: PageStream, spec: NearestJoinSpec): PageStream {
  const reservation = new MemoryReservation(ctx.memory);
  try {
    const side = await buildSide(ctx, build, spec, reservation);
    const choose = spec.matchOnly ? sortedSearch(side, spec, reservation) : filteredScan(side, spec, joinFilterOf(spec));
    const compactor = new PageCompactor(joinOutputTypes(spec));
    for await (const page of probe) {
      throwIfCanceled(ctx);
      const n = page.rowCount;
      if (n === 0) continue;
      const best = choose(page, firstCandidates(page, side, spec));
      const probeRows = new Int32Array(n);
      const buildRows = new Int32Array(n);
      let count = 0;
      for (let row = 0; row < n; row++) {
        if (best[row] === -1 && spec.type === 'inner') continue;
        probeRows[count] = row;
        buildRows[count] = best[row];
        count++;
      }
      if (count > 0) for (const ready of compactor.add(outputPage(page, side.page, probeRows, buildRows, count, spec))) yield ready;
    }
    yield* compactor.finish();
  } finally {
    reservation.release();
  }
}

/** Per probe row of a page (given its first candidates), the build row it keeps, or -1. */
type Chooser = (page: Page, first: Int32Array) => Int32Array;

/** Non-NULL and not NaN (NaN compares false with everything in SQL, but orders above all doubles). */
function comparable(column: Column, row: number): boolean {
  if (column.nulls !== null && column.nulls[row] === 1) return false;
  return !(
    (column.type.kind === 'double' || column.type.kind === 'real') &&
    Number.isNaN((column.values as Float64Array | Float32Array)[row])
  );
}

function sortedSearch(side: BuildSide, spec: NearestJoinSpec, reservation: MemoryReservation): Chooser {
  const keyColumn = side.page.columns[spec.nearestKey];
  const keys = prepareColumn(keyColumn);
  const compare = valueCompareFor(keyColumn.type);
  // Each key's rows with a comparable match key, ascending by it; made when a probe row first needs them.
  const groups = new Map<number, Int32Array>();
  reservation.add(side.page.rowCount * 4);
  const group = (head: number): Int32Array => {
    let rows = groups.get(head);
    if (rows !== undefined) return rows;
    const members: number[] = [];
    for (let r = head; r !== -1; r = side.next[r]) if (comparable(keyColumn, r)) members.push(r);
    rows = Int32Array.from(members).sort((a, b) => compare(keys, a, keys, b));
    groups.set(head, rows);
    return rows;
  };
  return (page, first) => {
    const valueColumn = page.columns[spec.nearestValue];
    const values = prepareColumn(valueColumn);
    const best = new Int32Array(page.rowCount).fill(-1);
    for (let row = 0; row < page.rowCount; row++) {
      if (first[row] === -1 || !comparable(valueColumn, row)) continue;
      best[row] = nearestIn(group(first[row]), keys, values, row, compare, spec.operator);
    }
    return best;
  };
}

/** The row of `sorted` (ascending keys) nearest values[row] on the operator's side, or -1. */
function nearestIn(
  sorted: Int32Array,
  keys: PreparedValues,
  values: PreparedValues,
  row: number,
  compare: ValueCompare,
  operator: NearestJoinSpec['operator'],
): number {
  // The first position whose key is above the value (> for < and >=, >= for <= and >).
  const strictlyAbove = operator === '<=' || operator === '>';
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const c = compare(keys, sorted[mid], values, row);
    if (c < 0 || (c === 0 && strictlyAbove)) low = mid + 1;
    else high = mid;
  }
  if (operator === '<' || operator === '<=') return low > 0 ? sorted[low - 1] : -1;
  return low < sorted.length ? sorted[low] : -1;
}

function filteredScan(side: BuildSide, spec: NearestJoinSpec, filter: JoinFilter | null): Chooser {
  const keyColumn = side.page.columns[spec.nearestKey];
  const keys = prepareColumn(keyColumn);
  const compare = valueCompareFor(keyColumn.type);
  const sign = spec.operator === '<' || spec.operator === '<=' ? 1 : -1;
  const pairs = new PairBatches();
  return (page, first) => {
    const best = new Int32Array(page.rowCount).fill(-1);
    const cursor = pairs.start(first);
    for (;;) {
      const found = pairs.fill(first, side.next, cursor);
      if (found === 0) break;
      const kept =
        filter === null
          ? found
          : pairs.keepPassing(found, (count) => filter.apply(page, side.page, pairs.streamedRows, pairs.hashedRows, count));
      for (let i = 0; i < kept; i++) {
        const candidate = pairs.hashedRows[i];
        if (!comparable(keyColumn, candidate)) continue;
        const row = pairs.streamedRows[i];
        const current = best[row];
        if (current === -1 || sign * compare(keys, candidate, keys, current) > 0) best[row] = candidate;
      }
      if (found < TARGET_PAGE_ROWS) break;
    }
    return best;
  };
}
