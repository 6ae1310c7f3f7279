// The mark join: each probe row plus a boolean saying whether some build row matches (keys equal
// and filter TRUE). Null-aware (x IN (subquery)): an unmatched row's mark is NULL instead of FALSE
// when a build row might have matched had a NULL been a value — the probe key is NULL (and the
// build side is not empty), a build key is NULL, or the filter was NULL for a key-equal row — and
// that build row's filter is not FALSE. An empty build side always gives FALSE.

import { BOOLEAN } from '../../types/types.js';
import { makeRowEquals, type RowEquals } from '../hash/row-equality.js';
import { anyNullKey } from '../hash/join-lookup.js';
import type { Column, Page } from '../../columnar/page.js';
import type { HashJoinSpec } from './hash-join.js';
import { firstCandidates, type BuildSide } from './join-build-side.js';
import { isNullResult, isTrue, type JoinFilter } from './join-filter.js';
import type { OperatorContext } from './operator.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { throwIfCanceled } from './operator-support.js';

const FALSE = 0;
const UNKNOWN = 1;
const TRUE = 2;

/** Evaluates the filter over candidate pairs in batches, raising each probe row's state. */
class PairBatch {
  private probeRows = new Int32Array(TARGET_PAGE_ROWS);
  private buildRows = new Int32Array(TARGET_PAGE_ROWS);
  private count = 0;

  constructor(
    private readonly ctx: OperatorContext,
    private readonly probe: Page,
    private readonly build: Page,
    private readonly filter: JoinFilter,
    private readonly state: Uint8Array,
    /** Candidates that are only possibly equal (a NULL key): TRUE or NULL filters make them UNKNOWN. */
    private readonly possible: boolean,
  ) {}

  add(probeRow: number, buildRow: number): void {
    this.probeRows[this.count] = probeRow;
    this.buildRows[this.count] = buildRow;
    if (++this.count === TARGET_PAGE_ROWS) this.flush();
  }

  flush(): void {
    if (this.count === 0) return;
    throwIfCanceled(this.ctx);
    const result = this.filter.apply(this.probe, this.build, this.probeRows, this.buildRows, this.count);
    for (let i = 0; i < this.count; i++) {
      const row = this.probeRows[i];
      const outcome = isTrue(result, i) ? (this.possible ? UNKNOWN : TRUE) : isNullResult(result, i) ? UNKNOWN : FALSE;
      if (outcome > this.state[row]) this.state[row] = outcome;
    }
    this.count = 0;
  }
}

export function markProbePage(ctx: OperatorContext, page: Page, side: BuildSide, spec: HashJoinSpec, filter: JoinFilter | null): Page {
  const n = page.rowCount;
  const buildRows = side.page.rowCount;
  const nullAware = spec.markNullAware === true;
  const columns: Column[] = spec.probeOutput.map((c) => page.columns[c]);
  if (filter === null && !nullAware) {
    // EXISTS without a filter: a row is marked when it has a candidate.
    const first = firstCandidates(page, side, spec);
    const values = new Uint8Array(n);
    for (let i = 0; i < n; i++) values[i] = first[i] === -1 ? 0 : 1;
    columns.push({ type: BOOLEAN, length: n, values, nulls: null });
    return { rowCount: n, columns };
  }
  const probeNulls = new Uint8Array(n);
  const first = firstCandidates(page, side, spec, probeNulls);
  const state = new Uint8Array(n);
  if (filter === null) {
    for (let i = 0; i < n; i++) if (first[i] !== -1) state[i] = TRUE;
  } else {
    const batch = new PairBatch(ctx, page, side.page, filter, state, false);
    for (let i = 0; i < n; i++) for (let r = first[i]; r !== -1; r = side.next[r]) batch.add(i, r);
    batch.flush();
  }
  if (!nullAware) {
    // A NULL filter is not a match for EXISTS-style marks.
    for (let i = 0; i < n; i++) if (state[i] === UNKNOWN) state[i] = FALSE;
  } else if (buildRows > 0 && side.hash !== null) {
    markPossibleMatches(ctx, page, side, spec, filter, probeNulls, state);
  }
  const values = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    if (state[i] === TRUE) values[i] = 1;
    else if (state[i] === UNKNOWN) {
      if (nulls === null) nulls = new Uint8Array(n);
      nulls[i] = 1;
    }
  }
  columns.push({ type: BOOLEAN, length: n, values, nulls });
  return { rowCount: n, columns };
}

/**
 * Null-aware marks of unmatched rows: a row with a NULL probe key may equal any build row; every
 * row may equal a build row with a NULL key. Such a possible match whose filter is not FALSE (or
 * that has no filter) makes the mark NULL.
 */
function markPossibleMatches(
  ctx: OperatorContext,
  page: Page,
  side: BuildSide,
  spec: HashJoinSpec,
  filter: JoinFilter | null,
  probeNulls: Uint8Array,
  state: Uint8Array,
): void {
  const n = page.rowCount;
  const build = side.page;
  const nullKeyRows = (side.hash as NonNullable<BuildSide['hash']>).nullKeyRows;
  const maybeEqual = possibleKeyEquality(page, build, spec);
  const batch = filter === null ? null : new PairBatch(ctx, page, build, filter, state, true);
  const consider = (i: number, r: number): boolean => {
    if (!maybeEqual(i, r)) return false;
    if (batch === null) {
      state[i] = UNKNOWN;
      return true;
    }
    batch.add(i, r);
    return false;
  };
  for (let i = 0; i < n; i++) {
    if (state[i] !== FALSE) continue;
    if (probeNulls[i] === 1) {
      for (let r = 0; r < build.rowCount; r++) if (consider(i, r)) break;
    } else {
      for (let k = 0; k < nullKeyRows.length; k++) if (consider(i, nullKeyRows[k])) break;
    }
  }
  batch?.flush();
}

/** Keys that might be equal: every key column is equal, or NULL on either side. */
function possibleKeyEquality(probe: Page, build: Page, spec: HashJoinSpec): RowEquals {
  const probeNull = spec.probeKeys.map((c) => anyNullKey([probe.columns[c]], probe.rowCount));
  const buildNull = spec.buildKeys.map((c) => anyNullKey([build.columns[c]], build.rowCount));
  const equals = spec.probeKeys.map((c, k) => makeRowEquals(spec.probeTypes[c], probe.columns[c], build.columns[spec.buildKeys[k]], false));
  return (i, r) => {
    for (let k = 0; k < equals.length; k++) {
      const pn = probeNull[k];
      const bn = buildNull[k];
      if ((pn !== null && pn[i] === 1) || (bn !== null && bn[r] === 1)) continue;
      if (!equals[k](i, r)) return false;
    }
    return true;
  };
}
