// Reading a split away from its connector instance (in a worker thread): the connector turns each
// split into a descriptor of plain data, named by the reader that opens it there. What a connector
// can do here is asked through `Connector.workerSplitSource`, never by testing its class.

import type { Session } from './session.js';
import type { PageSource, Split, TableConstraint } from './connector.js';

/** A split in the form a worker reads without the connector instance. */
export interface WorkerSplit {
  /** The SplitReader that opens it, by name. */
  reader: string;
  /** Reader-defined; structured-clonable (shared memory travels as SharedArrayBuffers, uncopied). */
  data: unknown;
}

/** A split fixed for reading: by a worker (its worker form, once `ready`), or by this thread after all. */
export interface PreparedSplit {
  /** Resolves once `worker` can be made without holding the event loop. */
  ready(): Promise<void>;
  readonly worker: WorkerSplit;
  /** `dynamicFilter`: as Connector.createPageSource's. */
  local(dynamicFilter?: TableConstraint): PageSource;
}

/** How a connector hands out a table's splits for workers to read. */
export interface WorkerSplitSource {
  /** Whether making the pages is work of its own (generated data), worth a worker even for a bare scan. */
  generatesPages: boolean;
  /** A split of the table, reading `columns`. */
  prepare(split: Split, columns: readonly string[], session: Session): PreparedSplit;
}

/** Opens the worker splits of one reader name into pages, in the worker. */
export interface SplitReader {
  /** `dynamicFilter`: as Connector.createPageSource's. */
  open(data: unknown, columns: readonly string[], session: Session, dynamicFilter?: TableConstraint): PageSource;
}
