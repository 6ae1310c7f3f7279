// TableFinish: on the coordinator, takes the rows of every writer of a write (rows written, fragments)
// and commits the write once with all the fragments; then emits the row count the statement answers.

import { EngineError } from '../../errors/engine-error.js';
import { columnFromScalars, getScalar } from '../../columnar/page.js';
import type { WriteFragment } from '../../spi/table-write.js';
import { BIGINT } from '../../types/types.js';
import type { PageStream } from './operator.js';

/** Commits a write with its writers' fragments (the statement's: see ExecutionEnvironment.commitWrite). */
export type WriteCommit = (fragments: readonly WriteFragment[]) => Promise<void>;

export async function* tableFinish(input: PageStream, commit: WriteCommit): PageStream {
  let rows = 0n;
  const fragments: WriteFragment[] = [];
  for await (const page of input) {
    for (let row = 0; row < page.rowCount; row++) {
      rows += BigInt(getScalar(page.columns[0], row) as bigint | number);
      const written: unknown = JSON.parse(getScalar(page.columns[1], row) as string);
      if (!Array.isArray(written)) throw new EngineError('GENERIC_INTERNAL_ERROR', 'A table writer reported fragments that are not a list');
      fragments.push(...(written as WriteFragment[]));
    }
  }
  await commit(fragments);
  yield { rowCount: 1, columns: [columnFromScalars(BIGINT, [rows])] };
}
