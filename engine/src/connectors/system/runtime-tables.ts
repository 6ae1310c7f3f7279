// system.runtime.{nodes, queries, tasks}: Trino's columns as far as the SystemRuntime provides them,
// in Trino's column order.

import type { Scalar } from '../../types/scalar.js';
import { BIGINT, BOOLEAN, VARCHAR, timestamp, type SqlType } from '../../types/types.js';
import type { ColumnMetadata } from '../../spi/connector.js';
import type { RowTable } from '../row-table.js';
import type { SystemRuntime } from './runtime.js';

const TIMESTAMP_MILLIS = timestamp(3);

function columns(spec: [string, SqlType][]): ColumnMetadata[] {
  return spec.map(([name, type]) => ({ name, type }));
}

/** Epoch milliseconds as a timestamp(3) value (microseconds since the epoch). */
function timestampValue(millis: number | null): Scalar {
  return millis === null ? null : millis * 1000;
}

export function runtimeTables(runtime: SystemRuntime): RowTable[] {
  return [
    {
      name: 'nodes',
      columns: columns([
        ['node_id', VARCHAR],
        ['http_uri', VARCHAR],
        ['node_version', VARCHAR],
        ['coordinator', BOOLEAN],
        ['state', VARCHAR],
      ]),
      rows: () => runtime.nodes().map((n) => [n.nodeId, n.httpUri, n.nodeVersion, n.coordinator, n.state]),
    },
    {
      name: 'queries',
      columns: columns([
        ['query_id', VARCHAR],
        ['state', VARCHAR],
        ['user', VARCHAR],
        ['source', VARCHAR],
        ['query', VARCHAR],
        ['created', TIMESTAMP_MILLIS],
        ['started', TIMESTAMP_MILLIS],
        ['end', TIMESTAMP_MILLIS],
        ['error_code', VARCHAR],
      ]),
      rows: (session) =>
        runtime
          .queries(session.user)
          .map((q) => [
            q.queryId,
            q.state,
            q.user,
            q.source,
            q.query,
            timestampValue(q.created),
            timestampValue(q.started),
            timestampValue(q.end),
            q.errorCode,
          ]),
    },
    {
      name: 'tasks',
      columns: columns([
        ['node_id', VARCHAR],
        ['task_id', VARCHAR],
        ['stage_id', VARCHAR],
        ['query_id', VARCHAR],
        ['state', VARCHAR],
        ['splits', BIGINT],
        ['completed_splits', BIGINT],
        ['raw_input_rows', BIGINT],
        ['output_rows', BIGINT],
        ['created', TIMESTAMP_MILLIS],
        ['end', TIMESTAMP_MILLIS],
      ]),
      rows: (session) =>
        runtime
          .tasks(session.user)
          .map((t) => [
            t.nodeId,
            t.taskId,
            t.stageId,
            t.queryId,
            t.state,
            BigInt(t.splits),
            BigInt(t.completedSplits),
            BigInt(t.rawInputRows),
            BigInt(t.outputRows),
            timestampValue(t.created),
            timestampValue(t.end),
          ]),
    },
  ];
}
