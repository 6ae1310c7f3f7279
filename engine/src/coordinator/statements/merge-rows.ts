// The rows of a MERGE: which source row each target row matches, which WHEN clause each match or
// unmatched source row takes (the first whose condition holds), and the table's rows afterwards.
// Expressions are compiled over one layout: the target's columns, then the source's (NULL target
// columns for an unmatched source row). Matching pairs the rows whose `target = source` keys of the ON
// condition are equal (through an index of the source's rows by key) and checks each pair with the
// whole condition; an ON condition without such keys is checked for every pair of rows.

import { EngineError } from '../../errors/engine-error.js';
import { concatPages, constantColumn, getScalar, takeColumn, takePage, type Page } from '../../columnar/page.js';
import type { MergedRows } from '../../spi/connector.js';
import type { SqlType } from '../../types/types.js';

/** A compiled WHEN clause: `condition` selects rows of a combined page; `project` makes the target rows it writes (absent: DELETE). */
export interface MergeClause {
  matched: boolean;
  condition?: (page: Page) => Uint8Array;
  project?: (page: Page) => Page;
}

export interface CompiledMerge {
  targetTypes: readonly SqlType[];
  sourceTypes: readonly SqlType[];
  on: (page: Page) => Uint8Array;
  /**
   * The `target = source` keys of the ON condition, when it has some: a page of the target's (or
   * the source's) columns to its key columns. Rows pair up only where all keys are equal (and not
   * NULL); the whole ON condition still decides each such pair. Absent: every pair is tried.
   */
  keys?: { target: (page: Page) => Page; source: (page: Page) => Page };
  clauses: readonly MergeClause[];
}

/** The table's rows after the merge, and how many rows were deleted, updated or inserted. */
export function mergeRows(merge: CompiledMerge, target: readonly Page[], sourcePages: readonly Page[]): { rows: Page[]; changed: number } {
  const rows: Page[] = [];
  const changes = mergeChanges(merge, target, sourcePages, rows);
  return { rows: [...rows, ...changes.inserted], changed: changes.changed };
}

/**
 * What the merge does to single rows (for a connector that changes rows by key); `rows` receives the
 * target's rows afterwards, page by page (those left as they were, then those updated).
 */
export function mergeChanges(merge: CompiledMerge, target: readonly Page[], sourcePages: readonly Page[], rows: Page[] = []): MergedRows {
  const source = concatPages(merge.sourceTypes, sourcePages);
  const sourceMatched = new Uint8Array(source.rowCount);
  const sourceByKey = indexSource(merge, source);
  const result: MergedRows = { deleted: [], updated: [], inserted: [], changed: 0 };
  for (const page of target) {
    const matches = matchPage(merge, page, source, sourceMatched, sourceByKey);
    applyMatched(merge, page, source, matches, result, rows);
  }
  result.inserted = applyNotMatched(merge, source, sourceMatched);
  result.changed += result.inserted.reduce((n, p) => n + p.rowCount, 0);
  return result;
}

/** For each row of the target page, the source row it matches (-1: none); marks matched source rows. */
function matchPage(
  merge: CompiledMerge,
  page: Page,
  source: Page,
  sourceMatched: Uint8Array,
  sourceByKey: Map<string, number[]> | undefined,
): Int32Array {
  const matches = new Int32Array(page.rowCount).fill(-1);
  if (page.rowCount === 0) return matches;
  const match = (row: number, s: number) => {
    if (matches[row] !== -1)
      throw new EngineError('MERGE_TARGET_ROW_MULTIPLE_MATCHES', 'One MERGE target table row matched more than one source row');
    matches[row] = s;
    sourceMatched[s] = 1;
  };
  if (merge.keys !== undefined && sourceByKey !== undefined) {
    // The pairs whose keys are equal, checked by the whole ON condition at once.
    const keys = merge.keys.target(page);
    const targetRows: number[] = [];
    const sourceRows: number[] = [];
    for (let row = 0; row < page.rowCount; row++) {
      const key = rowKey(keys, row);
      for (const s of (key === undefined ? undefined : sourceByKey.get(key)) ?? []) {
        targetRows.push(row);
        sourceRows.push(s);
      }
    }
    const pairs = pairPage(page, Int32Array.from(targetRows), source, Int32Array.from(sourceRows));
    const selected = merge.on(pairs);
    for (let pair = 0; pair < pairs.rowCount; pair++) if (selected[pair] === 1) match(targetRows[pair], sourceRows[pair]);
    return matches;
  }
  for (let s = 0; s < source.rowCount; s++) {
    const sourceRow = source.columns.map((column, i) => constantColumn(merge.sourceTypes[i], getScalar(column, s), page.rowCount));
    const selected = merge.on({ rowCount: page.rowCount, columns: [...page.columns, ...sourceRow] });
    for (let row = 0; row < page.rowCount; row++) if (selected[row] === 1) match(row, s);
  }
  return matches;
}

/** Source rows by their key (rows with a NULL key match nothing and are left out). */
function indexSource(merge: CompiledMerge, source: Page): Map<string, number[]> | undefined {
  if (merge.keys === undefined) return undefined;
  const keys = merge.keys.source(source);
  const index = new Map<string, number[]>();
  for (let row = 0; row < source.rowCount; row++) {
    const key = rowKey(keys, row);
    if (key === undefined) continue;
    const rows = index.get(key);
    if (rows === undefined) index.set(key, [row]);
    else rows.push(row);
  }
  return index;
}

/**
 * One row's key values as text, undefined when one is NULL. Both sides' keys have the same types (the
 * ON condition's `=` compares values of one type), so equal values give equal text.
 */
function rowKey(keys: Page, row: number): string | undefined {
  const parts: string[] = [];
  for (const column of keys.columns) {
    const value = getScalar(column, row);
    if (value === null) return undefined;
    parts.push(
      typeof value === 'bigint' ? `${value}n` : typeof value === 'number' ? String(value === 0 ? 0 : value) : JSON.stringify(value),
    );
  }
  return parts.join('\u0000');
}

/** Target rows beside the source rows they pair with: a page of the combined layout. */
function pairPage(target: Page, targetRows: Int32Array, source: Page, sourceRows: Int32Array): Page {
  return {
    rowCount: targetRows.length,
    columns: [...takePage(target, targetRows).columns, ...source.columns.map((c) => takeColumn(c, sourceRows))],
  };
}

/** Adds what the page's matches do (their WHEN MATCHED clauses) to `result`, and the page's rows afterwards to `rows`. */
function applyMatched(merge: CompiledMerge, page: Page, source: Page, matches: Int32Array, result: MergedRows, rows: Page[]): void {
  const matchedRows: number[] = [];
  const keep: number[] = [];
  matches.forEach((s, row) => (s === -1 ? keep : matchedRows).push(row));
  if (matchedRows.length === 0) {
    rows.push(page);
    return;
  }
  const pairs = pairPage(
    page,
    Int32Array.from(matchedRows),
    source,
    Int32Array.from(matchedRows, (row) => matches[row]),
  );
  const clauseOf = chooseClauses(merge.clauses, true, pairs);
  clauseOf.forEach((clause, pair) => {
    if (clause === -1) keep.push(matchedRows[pair]);
  });
  rows.push(takePage(page, Int32Array.from(keep.sort((a, b) => a - b))));
  merge.clauses.forEach((clause, index) => {
    const chosen = positions(clauseOf, index);
    if (!clause.matched || chosen.length === 0) return;
    result.changed += chosen.length;
    const before = takePage(
      page,
      Int32Array.from(chosen, (pair) => matchedRows[pair]),
    );
    if (clause.project === undefined) {
      result.deleted.push(before);
      return;
    }
    const after = clause.project(takePage(pairs, chosen));
    result.updated.push({ before, after });
    rows.push(after);
  });
}

/** The rows WHEN NOT MATCHED clauses insert for the source rows that matched no target row. */
function applyNotMatched(merge: CompiledMerge, source: Page, sourceMatched: Uint8Array): Page[] {
  const unmatched = positions(sourceMatched, 0);
  if (unmatched.length === 0 || !merge.clauses.some((c) => !c.matched)) return [];
  const rows: Page = {
    rowCount: unmatched.length,
    columns: [...merge.targetTypes.map((type) => constantColumn(type, null, unmatched.length)), ...takePage(source, unmatched).columns],
  };
  const clauseOf = chooseClauses(merge.clauses, false, rows);
  const inserted: Page[] = [];
  merge.clauses.forEach((clause, index) => {
    const chosen = positions(clauseOf, index);
    if (!clause.matched && chosen.length > 0 && clause.project !== undefined) inserted.push(clause.project(takePage(rows, chosen)));
  });
  return inserted;
}

/** For each row of the combined page, the first clause of its kind whose condition holds (-1: none). */
function chooseClauses(clauses: readonly MergeClause[], matched: boolean, page: Page): Int32Array {
  const chosen = new Int32Array(page.rowCount).fill(-1);
  clauses.forEach((clause, index) => {
    if (clause.matched !== matched) return;
    const holds = clause.condition?.(page);
    for (let row = 0; row < page.rowCount; row++) if (chosen[row] === -1 && (holds === undefined || holds[row] === 1)) chosen[row] = index;
  });
  return chosen;
}

function positions(values: ArrayLike<number>, wanted: number): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i] === wanted) out.push(i);
  return Int32Array.from(out);
}
