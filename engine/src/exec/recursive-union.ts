// WITH RECURSIVE, level by level: the anchor's rows, then, while the last level has rows, the
// step's rows over that level (its work table), at most maxDepth times. Trino unrolls the same
// recursion into maxDepth copies of the step; the rows are the same, each level computed once.
// A level beyond maxDepth with rows fails the query with Trino's NOT_SUPPORTED error.

import { EngineError } from '../errors/engine-error.js';
import { pageSizeInBytes, type Page } from '../columnar/page.js';
import { MemoryReservation, throwIfCanceled } from './operators/operator-support.js';
import type { RecursiveUnionNode, ValuesNode } from '../sql/planner/plan.js';
import type { Bindings, LocalExecutionPlanner } from './local-execution-planner.js';
import type { OperatorContext, PageStream } from './operators/operator.js';
import type { OperatorRecorder } from './stats/operator-recorder.js';

/** The previous level's pages of each running recursion, by the id of its RecursiveUnion. */
export type WorkTables = Map<number, readonly Page[]>;

/** `ctx.memory` holds the levels kept (the previous one while the next is made). */
export async function* recursiveUnion(
  planner: LocalExecutionPlanner,
  node: RecursiveUnionNode,
  bindings: Bindings,
  ctx: OperatorContext & { stats: OperatorRecorder },
): PageStream {
  const reservation = new MemoryReservation(ctx.memory);
  const held = (...levels: Page[][]) => reservation.set(levels.flat().reduce((sum, page) => sum + pageSizeInBytes(page), 0));
  let level = await collect(planner.plan(node.anchor, bindings, ctx.stats));
  held(level);
  yield* level;
  try {
    for (let depth = 1; hasRows(level); depth++) {
      throwIfCanceled(ctx);
      planner.workTables.set(node.id, level);
      const next = await collect(planner.plan(node.step, bindings, ctx.stats));
      held(level, next);
      if (depth > node.maxDepth && hasRows(next)) {
        throw new EngineError(
          'NOT_SUPPORTED',
          `Recursion depth limit exceeded (${node.maxDepth}). Use 'max_recursion_depth' session property to modify the limit.`,
        );
      }
      if (depth <= node.maxDepth) yield* next;
      level = next;
    }
  } finally {
    planner.workTables.delete(node.id);
    reservation.release();
  }
}

/** The work table of a recursion: the pages of its previous level. */
export async function* workTable(tables: WorkTables, node: ValuesNode): PageStream {
  const pages = tables.get(node.workTable as number);
  if (pages === undefined)
    throw new EngineError('GENERIC_INTERNAL_ERROR', `Work table of recursion ${node.workTable} read outside its recursion`);
  yield* pages;
}

function hasRows(pages: readonly Page[]): boolean {
  return pages.some((p) => p.rowCount > 0);
}

async function collect(stream: PageStream): Promise<Page[]> {
  const pages: Page[] = [];
  for await (const page of stream) if (page.rowCount > 0) pages.push(page);
  return pages;
}
