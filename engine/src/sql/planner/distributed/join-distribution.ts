// Join distribution: whether a join that may go either way replicates its build side to every probe
// task (broadcast) or repartitions both sides on the join keys (partitioned). As Trino's
// join_distribution_type AUTOMATIC: never broadcast a build side estimated bigger than
// join_max_broadcast_table_size (bytes); below that, weigh what each way costs. On one node nothing
// crosses a network, and a broadcast join keeps its probe in the scan's fragment, where its worker
// threads probe one build side shared with them (see optimizer/parallel-probes.ts): there every
// build side that fits is broadcast. On a cluster, replicating makes every node take and hash all
// build rows; partitioning handles the build rows once and the probe rows once more (unless they are
// partitioned on the join keys already), in the main threads of two tasks (the one that hashes and
// sends them, the join's that receives and probes them) instead of the scan's worker threads. Our
// operators' cost goes by rows far more than by bytes, so the cluster compares rows. Measured on TPC-H
// sf1 Parquet with two workers (one build, session settings taking turns, medians of 3, on a loaded
// machine): every join partitioned took q9, q3 and q5 1.8, 2.8 and 6.1 times as long as every join
// replicated; weighing bytes at par partitioned q5's orders-customer join (build rows carrying
// strings), 1.3 times as long as replicated.

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
  description:
    'Largest estimated build side (a data size) that join_distribution_type AUTOMATIC replicates to every probe task rather than partitioning both sides',
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
export function automaticJoinDistribution(
  node: JoinNode,
  context: PlannerContext,
  nodes: number,
  probeMoves: boolean,
): 'broadcast' | 'partitioned' {
  if (estimateBytes(node.right, context) > maxBroadcastBytes(context)) return 'partitioned';
  if (nodes <= 1) return 'broadcast';
  const build = estimateRows(node.right, context);
  const probe = probeMoves ? estimateRows(node.left, context) : 0;
  return build * nodes <= build + probe ? 'broadcast' : 'partitioned';
}

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
    case 'color':
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
    case 'number':
    case 'sketch':
    case 'variant':
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
