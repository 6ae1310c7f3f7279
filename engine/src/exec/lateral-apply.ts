// A correlated LATERAL (subquery): runs the subquery for each input row's binding of its
// correlation symbols and joins the row with every row it gives (LEFT: a row with NULLs when it
// gives none). Consecutive rows with the same binding reuse the last run's rows; nothing more is
// kept, so memory stays bounded by one run's result.

import type { LateralApplyNode } from '../sql/planner/plan.js';
import type { Bindings, LocalExecutionPlanner } from './local-execution-planner.js';
import type { PageStream } from './operators/operator.js';
import { columnFromScalars, getScalar, takeColumn, type Page, type Scalar } from '../spi/page.js';
import type { OperatorRecorder } from './stats/operator-recorder.js';
import { correlationBinder } from './apply.js';

/** Output rows per page, at most (one input row with a large subquery result spreads over pages). */
const PAGE_ROWS = 4096;

export async function* lateralApplyOperator(planner: LocalExecutionPlanner, node: LateralApplyNode, outerBindings: Bindings, stats: OperatorRecorder): PageStream {
  const bind = correlationBinder(node, outerBindings);
  const subqueryTypes = node.subquery.outputs.map((s) => s.type);
  const noMatch: Scalar[][] = node.outer ? [subqueryTypes.map(() => null)] : [];
  let lastKey: string | undefined;
  let lastRows: Scalar[][] = [];
  for await (const page of planner.plan(node.input, outerBindings, stats)) {
    const positions: number[] = [];
    const joined: Scalar[][] = subqueryTypes.map(() => []);
    const flush = (): Page => {
      const taken = Int32Array.from(positions);
      const page0 = { rowCount: positions.length, columns: [...page.columns.map((c) => takeColumn(c, taken)), ...joined.map((values, i) => columnFromScalars(subqueryTypes[i], values))] };
      positions.length = 0;
      for (const values of joined) values.length = 0;
      return page0;
    };
    for (let row = 0; row < page.rowCount; row++) {
      const { bindings, key } = bind(page, row);
      if (key !== lastKey) {
        lastRows = await collectRows(planner.plan(node.subquery, bindings, stats));
        lastKey = key;
      }
      for (const subqueryRow of lastRows.length > 0 ? lastRows : noMatch) {
        positions.push(row);
        subqueryRow.forEach((value, i) => joined[i].push(value));
        if (positions.length >= PAGE_ROWS) yield flush();
      }
    }
    if (positions.length > 0) yield flush();
  }
}

async function collectRows(stream: PageStream): Promise<Scalar[][]> {
  const rows: Scalar[][] = [];
  for await (const page of stream) {
    for (let row = 0; row < page.rowCount; row++) rows.push(page.columns.map((c) => getScalar(c, row)));
  }
  return rows;
}
