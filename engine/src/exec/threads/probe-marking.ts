// A worker thread's part of a parallel mark join (parallel-mark-join.ts): the build rows of the
// splits it reads stream past the join's probe side, hashed once in the main thread and shared,
// and mark the probe rows they match in the marks every thread shares. What the main thread needs
// besides the marks (how many build rows went by, whether one had a NULL key: an IN's unmatched rows
// are NULL then) comes back as one summary row per thread.

import { BIGINT, BOOLEAN } from '../../types/types.js';
import type { Page } from '../../columnar/page.js';
import { EngineError } from '../../errors/engine-error.js';
import { joinFilterOf } from '../operators/hash-join.js';
import type { BuildSide } from '../operators/join-build-side.js';
import { markByBuildPage, newBuildPassage, type BuildPassage } from '../operators/mark-join-probe-first.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import { throwIfCanceled } from '../operators/operator-support.js';
import type { ProbeMarking } from './scan-pipeline.js';

/** Marks the shared probe side by every page of `build`; then its summary row. */
export async function* markProbeSide(ctx: OperatorContext, build: PageStream, side: BuildSide, marking: ProbeMarking): PageStream {
  if (side.hash === null) throw new EngineError('GENERIC_INTERNAL_ERROR', 'A mark join streamed past its probe side needs keys');
  const hashed = { page: side.page, lookup: side.hash };
  const filter = joinFilterOf(marking.spec);
  const passage = newBuildPassage();
  for await (const page of build) {
    throwIfCanceled(ctx);
    markByBuildPage(ctx, hashed, page, marking.spec, filter, marking.matched, passage);
  }
  yield summaryPage(passage);
}

/** A thread's summary: its build rows (bigint) and whether one had a NULL key (boolean). */
export function summaryPage(passage: BuildPassage): Page {
  return {
    rowCount: 1,
    columns: [
      { type: BIGINT, length: 1, values: BigInt64Array.of(BigInt(passage.rows)), nulls: null },
      { type: BOOLEAN, length: 1, values: Uint8Array.of(passage.nullKey ? 1 : 0), nulls: null },
    ],
  };
}

/** Adds the summary rows of `page` to `passage`. */
export function addSummary(page: Page, passage: BuildPassage): void {
  const [rows, nullKey] = page.columns;
  for (let r = 0; r < page.rowCount; r++) {
    passage.rows += Number((rows.values as BigInt64Array)[r]);
    if ((nullKey.values as Uint8Array)[r] === 1) passage.nullKey = true;
  }
}
