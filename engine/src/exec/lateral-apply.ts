// A correlated LATERAL (subquery): runs the subquery for each input row's binding of its
// correlation symbols and joins the row with every row it gives (LEFT: a row with NULLs when it
// gives none). Consecutive rows with the same binding reuse the last run's rows; nothing more is
// kept, so the memory it holds (reserved in the query's) is one run's result.

import type { LateralApplyNode } from '../sql/planner/plan.js';
import type { Bindings, LocalExecutionPlanner } from './local-execution-planner.js';
import type { OperatorContext, PageStream } from './operators/operator.js';
import { MemoryReservation, throwIfCanceled } from './operators/operator-support.js';
import { columnFromScalars, getScalar, pageSizeInBytes, takeColumn, type Page } from '../columnar/page.js';
import type { Scalar } from '../types/scalar.js';
import type { OperatorRecorder } from './stats/operator-recorder.js';
import { correlationBinder } from './apply.js';

/** Output rows per page, at most (one input row with a large subquery result spreads over pages). */
const PAGE_ROWS = 4096;

export async function* lateralApplyOperator(
  planner: LocalExecutionPlanner,
  node: LateralApplyNode,
  outerBindings: Bindings,
  ctx: OperatorContext & { stats: OperatorRecorder },
): PageStream {
  const stats = ctx.stats;
  const reservation = new MemoryReservation(ctx.memory);
  const bind = correlationBinder(node, outerBindings);
  const subqueryTypes = node.subquery.outputs.map((s) => s.type);
  const noMatch: Scalar[][] = node.outer ? [subqueryTypes.map(() => null)] : [];
  let lastKey: string | undefined;
  let lastRows: Scalar[][] = [];
  try {
    for await (const page of planner.plan(node.input, outerBindings, stats)) {
      const positions: number[] = [];
      const joined: Scalar[][] = subqueryTypes.map(() => []);
      const flush = (): Page => {
        const taken = Int32Array.from(positions);
        const out = {
          rowCount: positions.length,
          columns: [
            ...page.columns.map((c) => takeColumn(c, taken)),
            ...joined.map((values, i) => columnFromScalars(subqueryTypes[i], values)),
          ],
        };
        positions.length = 0;
        for (const values of joined) values.length = 0;
        return out;
      };
      for (let row = 0; row < page.rowCount; row++) {
        const { bindings, key } = bind(page, row);
        if (key !== lastKey) {
          throwIfCanceled(ctx);
          const pages = await collectPages(planner.plan(node.subquery, bindings, stats));
          reservation.set(pages.reduce((sum, p) => sum + pageSizeInBytes(p), 0));
          lastRows = pages.flatMap((p) => Array.from({ length: p.rowCount }, (_, r) => p.columns.map((c) => getScalar(c, r))));
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
  } finally {
    reservation.release();
  }
}

async function collectPages(stream: PageStream): Promise<Page[]> {
  const pages: Page[] = [];
  for await (const page of stream) if (page.rowCount > 0) pages.push(page);
  return pages;
}
