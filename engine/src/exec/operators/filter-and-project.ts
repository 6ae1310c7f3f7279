// WHERE and SELECT expressions over a stream: the compiled filter selects rows, only the columns the
// projections read are gathered, and the compiled projection computes the output. Plain column
// references pass through without evaluation; small filtered pages are compacted.

import { compileFilter, compileProjection } from '../expression/index.js';
import { takeColumn, type Column, type Page } from '../../columnar/page.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import type { SqlType } from '../../types/types.js';
import { compactInputs } from './input-channels.js';
import type { OperatorContext, PageStream } from './operator.js';
import { PageCompactor, throwIfCanceled } from './operator-support.js';

export async function* filterAndProject(
  ctx: OperatorContext,
  input: PageStream,
  inputTypes: readonly SqlType[],
  filter: RowExpression | undefined,
  projections: RowExpression[],
): PageStream {
  const select = filter === undefined ? null : compileFilter(filter, inputTypes);
  const { expressions, channels } = compactInputs(projections);
  const onlyColumns = expressions.every((e) => e.kind === 'input');
  const project = onlyColumns
    ? null
    : compileProjection(
        expressions,
        channels.map((c) => inputTypes[c]),
      );
  const compactor = new PageCompactor(projections.map((p) => p.type));
  for await (const page of input) {
    throwIfCanceled(ctx);
    if (page.rowCount === 0) continue;
    let rowCount = page.rowCount;
    let columns: Column[] = channels.map((c) => page.columns[c]);
    if (select !== null) {
      const { positions, count } = select(page);
      if (count === 0) continue;
      if (count < rowCount) {
        columns = columns.map((c) => takeColumn(c, positions, count));
        rowCount = count;
      }
    }
    const used: Page = { rowCount, columns };
    const out: Page =
      project === null ? { rowCount, columns: expressions.map((e) => columns[(e as { channel: number }).channel]) } : project(used);
    for (const ready of compactor.add(out)) yield ready;
  }
  yield* compactor.finish();
}
