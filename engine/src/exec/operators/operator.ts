// What every operator shares: pages flow as async streams; an operator consumes its input
// stream(s) and yields output pages. A consumer that stops early calls `return()` on the
// iterator, which closes the operator chain (so LIMIT stops the scan).

import type { MemoryContext } from '../memory.js';
import type { OperatorRecorder } from '../stats/operator-recorder.js';
import type { Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';

export type PageStream = AsyncIterable<Page>;

export interface OperatorContext {
  /** Every retained byte is reserved here and freed when released. */
  memory: MemoryContext;
  /** Aborted when the query is cancelled or fails; long loops check `signal.aborted`. */
  signal: AbortSignal;
  /** Session time zone, for functions that need it. */
  timeZone: string;
  /**
   * The operator's counts and times, for what only the operator sees: the rows a source reads, the
   * waits it announces (blockedOn), the CPU of its worker threads.
   */
  stats?: OperatorRecorder;
}

/** Column types of a stream, by channel. */
export type Layout = readonly SqlType[];
