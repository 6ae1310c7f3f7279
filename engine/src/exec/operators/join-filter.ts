// The residual filter of a join, evaluated over candidate (probe row, build row) pairs. The filter
// refers to probe channels followed by build channels; only the channels it reads are gathered,
// so wide rows cost nothing for a narrow filter.

import { compileExpression } from '../expression/index.js';
import { takeColumn, type Column, type Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { compactInputs } from './input-channels.js';

export class JoinFilter {
  /** Channels of the combined (probe ++ build) layout the filter reads, in compiled-channel order. */
  private readonly channels: number[];
  private readonly evaluate: (page: Page) => Column;

  constructor(
    filter: RowExpression,
    private readonly probeWidth: number,
    combinedTypes: readonly SqlType[],
  ) {
    const compacted = compactInputs([filter]);
    this.channels = compacted.channels;
    this.evaluate = compileExpression(
      compacted.expressions[0],
      this.channels.map((c) => combinedTypes[c]),
    );
  }

  /** The filter's boolean value for each pair (probe row probeRows[i], build row buildRows[i]). */
  apply(probe: Page, build: Page, probeRows: Int32Array, buildRows: Int32Array, count: number): Column {
    const columns = this.channels.map((c) =>
      c < this.probeWidth
        ? takeColumn(probe.columns[c], probeRows, count)
        : takeColumn(build.columns[c - this.probeWidth], buildRows, count),
    );
    return this.evaluate({ rowCount: count, columns });
  }
}

/** True when the filter is TRUE for the pair at `row` (FALSE and NULL do not pass). */
export function isTrue(result: Column, row: number): boolean {
  return (result.values as Uint8Array)[row] === 1 && (result.nulls === null || result.nulls[row] === 0);
}

export function isNullResult(result: Column, row: number): boolean {
  return result.type.kind === 'unknown' || (result.nulls !== null && result.nulls[row] === 1);
}
