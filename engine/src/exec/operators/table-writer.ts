// TableWriter: writes its input with one page sink of the target's connector (this task's writer)
// and emits one row: the rows it wrote and its fragments (a JSON array), for the TableFinish above.
// A writer that fails or is stopped (its task aborted, its query cancelled) aborts its sink, so that
// what it wrote goes away; what it wrote only becomes visible when the coordinator commits.

import { EngineError } from '../../errors/engine-error.js';
import { columnFromScalars, type Page } from '../../columnar/page.js';
import type { ConnectorPageSink } from '../../spi/table-write.js';
import { BIGINT, VARCHAR } from '../../types/types.js';
import type { OperatorContext, PageStream } from './operator.js';

export interface TableWriterSpec {
  /** Per table column (in table order), the input channel written to it. */
  channels: number[];
  /** Input channels that must hold no NULL, with their column's name. */
  notNull: { channel: number; column: string }[];
}

/** The writer's output: rows written (bigint) and fragments (varchar, a JSON array). */
export const TABLE_WRITER_TYPES = [BIGINT, VARCHAR];

export async function* tableWriter(
  ctx: OperatorContext,
  input: PageStream,
  createSink: () => ConnectorPageSink,
  spec: TableWriterSpec,
): PageStream {
  const sink = createSink();
  let rows = 0;
  let reserved = 0;
  let finished = false;
  try {
    for await (const page of input) {
      if (page.rowCount === 0) continue;
      checkNotNull(page, spec.notNull);
      await sink.appendPage({ rowCount: page.rowCount, columns: spec.channels.map((c) => page.columns[c]) });
      rows += page.rowCount;
      // What the sink holds (a row group being filled, rows staged in memory) counts as the query's.
      const retained = sink.retainedBytes?.() ?? 0;
      if (retained > reserved) ctx.memory.reserve(retained - reserved);
      else ctx.memory.free(reserved - retained);
      reserved = retained;
    }
    const fragments = await sink.finish();
    finished = true;
    yield { rowCount: 1, columns: [columnFromScalars(BIGINT, [BigInt(rows)]), columnFromScalars(VARCHAR, [JSON.stringify(fragments)])] };
  } finally {
    ctx.memory.free(reserved);
    // An abort that fails leaves files no commit names: invisible, and the coordinator's abort removes them.
    if (!finished) await sink.abort().catch(() => undefined);
  }
}

function checkNotNull(page: Page, notNull: TableWriterSpec['notNull']): void {
  for (const { channel, column } of notNull) {
    if (page.columns[channel].nulls?.includes(1))
      throw new EngineError('CONSTRAINT_VIOLATION', `NULL value not allowed for NOT NULL column: ${column}`);
  }
}
