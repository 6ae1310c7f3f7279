// The split readers a worker has, by the name a WorkerSplit carries: a worker has no catalogs, so
// this is how it turns a split descriptor into pages.

import { EngineError } from '../../errors/engine-error.js';
import type { PageSource, TableConstraint } from '../../spi/connector.js';
import type { Session } from '../../spi/session.js';
import type { SplitReader, WorkerSplit } from '../../spi/worker-split.js';
import { LAKE_SPLIT_READER, lakeSplitReader } from '../../connectors/hive/read/lake-split-reader.js';
import { MEMORY_SPLIT_READER, memorySplitReader } from '../../connectors/memory/memory-split-reader.js';
import { TPCH_SPLIT_READER } from '../../connectors/tpch/tpch-split-data.js';
import { tpchSplitReader } from '../../connectors/tpch/tpch-split-reader.js';
import { SEQUENCE_SPLIT_READER, sequenceSplitReader } from '../../connectors/table-functions/sequence-connector.js';
import { PAGE_SPLIT_READER, pageSplitReader } from './off-thread-routines.js';

const SPLIT_READERS = new Map<string, SplitReader>([
  [MEMORY_SPLIT_READER, memorySplitReader],
  [TPCH_SPLIT_READER, tpchSplitReader],
  [LAKE_SPLIT_READER, lakeSplitReader],
  [SEQUENCE_SPLIT_READER, sequenceSplitReader],
  [PAGE_SPLIT_READER, pageSplitReader],
]);

/** In a worker: the pages of a split, holding `columns`. */
export function openWorkerSplit(
  split: WorkerSplit,
  columns: readonly string[],
  session: Session,
  dynamicFilter?: TableConstraint,
): PageSource {
  const reader = SPLIT_READERS.get(split.reader);
  if (reader === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `No split reader named '${split.reader}'`);
  return reader.open(split.data, columns, session, dynamicFilter);
}
