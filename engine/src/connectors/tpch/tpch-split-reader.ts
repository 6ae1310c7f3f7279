// Reads tpch splits in a worker: its own connector instance per catalog (pages are a pure function
// of the split and the columns), over the text pool adopted from the main thread.

import type { Page } from '../../columnar/page.js';
import type { Session } from '../../spi/session.js';
import type { SplitReader } from '../../spi/worker-split.js';
import { adoptSharedTextPool } from './text-pool.js';
import type { TpchWorkerSplit } from './tpch-split-data.js';
import { TpchConnector } from './tpch-connector.js';

/** This worker's connector instances, by catalog. */
const connectors = new Map<string, TpchConnector>();

export const tpchSplitReader: SplitReader = {
  open(data: unknown, columns: readonly string[], session: Session): AsyncIterable<Page> {
    const { split, state } = data as TpchWorkerSplit;
    if (state !== undefined) adoptSharedTextPool(state);
    let connector = connectors.get(split.catalog);
    if (connector === undefined) {
      connector = new TpchConnector(split.catalog);
      connectors.set(split.catalog, connector);
    }
    return connector.createPageSource(session, split, columns);
  },
};
