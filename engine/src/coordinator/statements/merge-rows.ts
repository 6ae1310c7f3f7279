// The rows of a MERGE: which source row each target row matches, which WHEN clause each match or
// unmatched source row takes (the first whose condition holds), and the table's rows afterwards.
// Expressions are compiled over one layout: the target's columns, then the source's (NULL target
// columns for an unmatched source row). Matching evaluates the ON condition of each source row
// against every page of the target, on the coordinator.

import { EngineError } from '../../errors/engine-error.js';
import { concatPages, constantColumn, getScalar, takeColumn, takePage, type Page } from '../../spi/page.js';
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
  clauses: readonly MergeClause[];
}

/** The table's rows after the merge, and how many rows were deleted, updated or inserted. */
export function mergeRows(merge: CompiledMerge, target: readonly Page[], sourcePages: readonly Page[]): { rows: Page[]; changed: number } {
  const source = concatPages(merge.sourceTypes, sourcePages);
  const sourceMatched = new Uint8Array(source.rowCount);
  const rows: Page[] = [];
  let changed = 0;
  for (const page of target) {
    const matches = matchPage(merge, page, source, sourceMatched);
    const result = applyMatched(merge, page, source, matches);
    rows.push(...result.rows);
    changed += result.changed;
  }
  const inserted = applyNotMatched(merge, source, sourceMatched);
  rows.push(...inserted);
  changed += inserted.reduce((n, p) => n + p.rowCount, 0);
  return { rows, changed };
}

/** For each row of the target page, the source row it matches (-1: none); marks matched source rows. */
function matchPage(merge: CompiledMerge, page: Page, source: Page, sourceMatched: Uint8Array): Int32Array {
  const matches = new Int32Array(page.rowCount).fill(-1);
  if (page.rowCount === 0) return matches;
  for (let s = 0; s < source.rowCount; s++) {
    const sourceRow = source.columns.map((column, i) => constantColumn(merge.sourceTypes[i], getScalar(column, s), page.rowCount));
    const selected = merge.on({ rowCount: page.rowCount, columns: [...page.columns, ...sourceRow] });
    for (let row = 0; row < page.rowCount; row++) {
      if (selected[row] !== 1) continue;
      if (matches[row] !== -1) throw new EngineError('MERGE_TARGET_ROW_MULTIPLE_MATCHES', 'One MERGE target table row matched more than one source row');
      matches[row] = s;
      sourceMatched[s] = 1;
    }
  }
  return matches;
}

/** The page's rows after its matches took their WHEN MATCHED clauses: unchanged rows, then updated ones. */
function applyMatched(merge: CompiledMerge, page: Page, source: Page, matches: Int32Array): { rows: Page[]; changed: number } {
  const matchedRows: number[] = [];
  const keep: number[] = [];
  matches.forEach((s, row) => (s === -1 ? keep : matchedRows).push(row));
  if (matchedRows.length === 0) return { rows: [page], changed: 0 };
  const pairs: Page = {
    rowCount: matchedRows.length,
    columns: [...takePage(page, Int32Array.from(matchedRows)).columns, ...source.columns.map((c) => takeColumn(c, Int32Array.from(matchedRows, (row) => matches[row])))],
  };
  const clauseOf = chooseClauses(merge.clauses, true, pairs);
  const rows: Page[] = [];
  let changed = 0;
  clauseOf.forEach((clause, pair) => {
    if (clause === -1) keep.push(matchedRows[pair]);
  });
  rows.push(takePage(page, Int32Array.from(keep.sort((a, b) => a - b))));
  merge.clauses.forEach((clause, index) => {
    const chosen = positions(clauseOf, index);
    if (clause.matched && chosen.length > 0) {
      changed += chosen.length;
      if (clause.project !== undefined) rows.push(clause.project(takePage(pairs, chosen)));
    }
  });
  return { rows, changed };
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

