// What a worker gets to read a tpch split: the split itself and the text pool this thread shares.

import type { Split } from '../../spi/connector.js';

export const TPCH_SPLIT_READER = 'tpch';

export interface TpchWorkerSplit {
  split: Split;
  /** The shared text pool, when the columns read need it. */
  state?: SharedArrayBuffer;
}
