// Bytes this node's connectors read from storage and other systems (a lake's files and objects, a
// database's result streams), as their page sources report them (BYTES_READ_METRIC), counted where
// the reports arrive on the node's main thread: from scans it runs itself and from splits its worker
// threads finish. Table statistics' footer reads add theirs. GET /v1/status and GET /metrics report it.

import { BYTES_READ_METRIC, type ConnectorMetrics } from './connector.js';

export const connectorIo = {
  /** Cumulative bytes since the process started. */
  readBytes: 0,
};

/** Adds what a page source reported having read (since its last report). */
export function countConnectorRead(metrics: ConnectorMetrics | undefined): void {
  const bytes = metrics?.[BYTES_READ_METRIC];
  if (bytes !== undefined && bytes > 0) connectorIo.readBytes += bytes;
}
