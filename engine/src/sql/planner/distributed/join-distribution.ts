// Join distribution: whether a join that may go either way replicates its build side to every probe
// task (broadcast) or repartitions both sides on the join keys (partitioned). As Trino's
// join_distribution_type AUTOMATIC: never broadcast a build side estimated bigger than
// join_max_broadcast_table_size; below that, weigh the bytes each way handles. Replicating sends the
// build side to every node; partitioning sends the build side once and the probe side once (unless
// its rows are already partitioned on the join keys), the probe side's bytes weighing more (see
// PROBE_REPARTITION_WEIGHT). On one node nothing crosses a network, and a
// broadcast join keeps its probe in the scan's fragment, where its worker threads probe one build
// side shared with them (see optimizer/parallel-probes.ts): there every build side that fits is
// broadcast.

import { formatDataSize, parseDataSize } from '../../../config/data-size.js';
import type { PropertyMetadata } from '../../../spi/properties.js';
import { SHORT_DECIMAL_PRECISION, type SqlType } from '../../../types/types.js';
import type { PlannerContext } from '../planner-context.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { estimateRows } from '../optimizer/estimate-rows.js';

/** Trino's default of join_max_broadcast_table_size. */
const DEFAULT_MAX_BROADCAST_BYTES = 100 * 1024 * 1024;

export const JOIN_MAX_BROADCAST_TABLE_SIZE_PROPERTY: PropertyMetadata = {
  name: 'join_max_broadcast_table_size',
  type: { kind: 'varchar' },
  defaultValue: formatDataSize(DEFAULT_MAX_BROADCAST_BYTES),
  description: 'Largest estimated build side (a data size) that join_distribution_type AUTOMATIC replicates to every probe task rather than partitioning both sides',
  validate: (v) => {
    if (parseDataSize(String(v)) === undefined) throw new Error(`'${String(v)}' is not a data size such as '100MB' or '1GB'`);
  },
};

/**
 * Bytes assumed per value of a variable-width column (strings, binaries, nested values) without a
 * declared length: no connector gives average value sizes to the planner yet.
 */
const VARIABLE_WIDTH_BYTES = 32;

/**
 * AUTOMATIC's choice for a join that may be broadcast or partitioned. `nodes`: the nodes that take
 * the join's tasks; `probeMoves`: whether partitioning would repartition the probe side (false when
 * its rows are hash-partitioned on the join keys already).
 */
export function automaticJoinDistribution(node: JoinNode, context: PlannerContext, nodes: number, probeMoves: boolean): 'broadcast' | 'partitioned' {
  const build = estimateBytes(node.right, context);
  if (build > maxBroadcastBytes(context)) return 'partitioned';
  if (nodes <= 1) return 'broadcast';
  const probe = probeMoves ? estimateBytes(node.left, context) : 0;
  return build * nodes <= build + PROBE_REPARTITION_WEIGHT * probe ? 'broadcast' : 'partitioned';
}

/**
 * What a byte of the probe side weighs against one of the build side when partitioning: replicated,
 * a build row is hashed once on each node; partitioned, a probe row is handled in two main threads
 * (hashed and sent by its scan's task, received and probed by the join's) rather than probed in the
 * scan's worker threads. On TPC-H sf1 Parquet with two workers, q5 (its orders-customer join
 * estimated at 13.5MB of build rows against 7.5MB of probe rows) took 1.65 times as long with that
 * join partitioned as replicated (medians of 3, run after one another on a loaded machine).
 */
const PROBE_REPARTITION_WEIGHT = 2;

function maxBroadcastBytes(context: PlannerContext): number {
  const requested = context.session.properties.get(JOIN_MAX_BROADCAST_TABLE_SIZE_PROPERTY.name);
  return (requested === undefined ? undefined : parseDataSize(requested)) ?? DEFAULT_MAX_BROADCAST_BYTES;
}

/** The estimated size of a node's rows: estimated rows times the estimated width of its outputs. */
export function estimateBytes(node: PlanNode, context: PlannerContext): number {
  return estimateRows(node, context) * node.outputs.reduce((width, s) => width + valueBytes(s.type), 0);
}

/** The estimated bytes of one value of the type. */
function valueBytes(type: SqlType): number {
  switch (type.kind) {
    case 'boolean':
    case 'tinyint':
      return 1;
    case 'smallint':
      return 2;
    case 'integer':
    case 'real':
    case 'date':
    case 'interval year to month':
      return 4;
    case 'decimal':
      return type.precision <= SHORT_DECIMAL_PRECISION ? 8 : 16;
    case 'varchar':
      return type.length === undefined ? VARIABLE_WIDTH_BYTES : Math.min(type.length, VARIABLE_WIDTH_BYTES);
    case 'char':
      return type.length;
    case 'array':
    case 'map':
    case 'varbinary':
    case 'json':
    case 'sketch':
    case 'unknown':
    case 'unsupported':
    case 'function':
      return VARIABLE_WIDTH_BYTES;
    case 'row':
      return type.fields.reduce((width, f) => width + valueBytes(f.type), 0);
    case 'uuid':
    case 'ipaddress':
      return 16;
    default:
      // bigint, double, times, timestamps (with or without a zone), day-to-second intervals.
      return 8;
  }
}
