// The system session properties: the settings a session may give without a catalog prefix (SET
// SESSION name = value, or the Session header). Each one changes what the engine does, as its
// description says; catalogs declare their own (catalog.name) through the connector SPI.

import { formatDataSize, parseDataSize } from '../config/data-size.js';
import { parseDuration } from '../config/duration.js';
import type { PropertyMetadata } from '../spi/properties.js';
import { INTEGER_SESSION_DEFAULTS } from '../spi/session-properties.js';
import { DEFAULT_QUERY_MAX_EXECUTION_TIME } from '../config/query-time-limit.js';
import { TIME_ZONE_PROPERTY_METADATA } from './statements/time-zone-statement.js';
import { PARALLEL_JOIN_PROBE_PROPERTY } from '../sql/planner/optimizer/parallel-probes.js';
import { JOIN_CHAIN_FEWER_ROWS_NEXT_PROPERTY } from '../sql/planner/optimizer/join-chain-next.js';
import { JOIN_CHAIN_FAR_START_PROPERTY } from '../sql/planner/optimizer/join-chain-start.js';
import { DISTINCT_AGGREGATIONS_STRATEGY_PROPERTY } from '../sql/planner/optimizer/distinct-aggregations.js';
import {
  ENABLE_DYNAMIC_FILTERING_PROPERTY,
  ENABLE_SEMI_JOIN_PROBE_KEY_FILTERING_PROPERTY,
} from '../sql/planner/optimizer/dynamic-filters.js';
import { DYNAMIC_FILTERING_WAIT_TIMEOUT_PROPERTY } from '../exec/dynamic-filters/remote-filter-wait.js';
import {
  DYNAMIC_FILTER_KEY_BITMAP_PROPERTY,
  DYNAMIC_FILTER_REMOTE_KEY_BITMAP_MAX_SIZE_PROPERTY,
} from '../exec/dynamic-filters/dynamic-filters.js';
import { DISABLED_OPTIMIZER_RULES_PROPERTY } from '../sql/planner/optimizer/disabled-rules.js';
import { JOIN_MAX_BROADCAST_TABLE_SIZE_PROPERTY } from '../sql/planner/distributed/join-distribution.js';
import { TINY_BUILD_SIDE_IN_PROBE_STAGE_PROPERTY } from '../sql/planner/distributed/tiny-build-side.js';
import { SOURCE_PLACEMENT_BY_SPLITS_PROPERTY } from './scheduler/source-placement.js';
import { GLOBAL_AGGREGATION_IN_PROBE_STAGE_PROPERTY } from '../sql/planner/distributed/global-aggregation-in-probe-stage.js';
import { DISTRIBUTED_MARK_JOIN_PROPERTY } from '../sql/planner/distributed/probe-replicated-mark-join.js';
import { PARTITIONED_AGGREGATION_PROPERTY } from '../sql/planner/physical/partitioned-aggregation.js';
import { SINGLE_NODE_AGGREGATION_PROPERTY } from '../sql/planner/distributed/single-node-aggregation.js';
import { PUSH_PARTIAL_AGGREGATION_THROUGH_JOIN_PROPERTY } from '../sql/planner/optimizer/push-partial-aggregation.js';
import { DISTRIBUTED_SORT_PROPERTY } from '../sql/planner/distributed/distributed-sort.js';
import { PREFERRED_AGGREGATION_PARTITIONING_PROPERTY } from '../sql/planner/distributed/preferred-partitioning.js';
import { PARALLEL_MARK_JOIN_PROPERTY } from '../sql/planner/physical/parallel-mark-join.js';
import { PARALLEL_SORT_PROPERTY } from '../sql/planner/physical/parallel-sort.js';
import { MATERIALIZE_COMMON_TABLE_EXPRESSIONS_PROPERTY } from '../sql/planner/physical/common-subplans.js';
import { SHARE_IDENTICAL_STAGES_PROPERTY } from '../sql/planner/distributed/shared-stages.js';
import { PARALLEL_WINDOW_PROPERTY } from '../sql/planner/physical/parallel-window.js';
import { PARALLEL_HASH_BUILD_PROPERTY } from '../sql/planner/physical/parallel-hash-build.js';

/** What a node's configuration sets as the default of a session property. */
export interface NodeSessionDefaults {
  /** memory.queryMaxMemory: the default (and the most) of query_max_memory. */
  queryMaxMemoryBytes: number;
}

/** Trino's default of query.max-execution-time. */

const JOIN_DISTRIBUTION_TYPES = ['AUTOMATIC', 'PARTITIONED', 'BROADCAST'];

/** The system session properties of a node, by name. */
export function systemSessionProperties(node: NodeSessionDefaults): readonly PropertyMetadata[] {
  return [
    DISABLED_OPTIMIZER_RULES_PROPERTY,
    DISTINCT_AGGREGATIONS_STRATEGY_PROPERTY,
    DISTRIBUTED_MARK_JOIN_PROPERTY,
    GLOBAL_AGGREGATION_IN_PROBE_STAGE_PROPERTY,
    {
      name: 'join_distribution_type',
      type: { kind: 'varchar' },
      defaultValue: 'AUTOMATIC',
      description:
        'How a join spreads its rows over the cluster: AUTOMATIC (replicate the build side when it is estimated no bigger than join_max_broadcast_table_size and, on a cluster, replicating it to every node handles fewer rows than partitioning both sides on the join keys; on one node, whenever it fits), PARTITIONED or BROADCAST',
      validate: (v) => {
        if (!JOIN_DISTRIBUTION_TYPES.includes(String(v).toUpperCase()))
          throw new Error(`must be one of ${JOIN_DISTRIBUTION_TYPES.join(', ')}`);
      },
    },
    JOIN_MAX_BROADCAST_TABLE_SIZE_PROPERTY,
    TINY_BUILD_SIDE_IN_PROBE_STAGE_PROPERTY,
    SOURCE_PLACEMENT_BY_SPLITS_PROPERTY,
    {
      name: 'max_recursion_depth',
      type: { kind: 'integer' },
      defaultValue: INTEGER_SESSION_DEFAULTS.max_recursion_depth,
      description: 'Maximum recursion depth for recursive common table expression',
      validate: (v) => {
        if (Number(v) < 1) throw new Error('must be at least 1');
      },
    },
    {
      name: 'parallel_min_splits',
      type: { kind: 'integer' },
      defaultValue: INTEGER_SESSION_DEFAULTS.parallel_min_splits,
      description:
        "Fewest splits for which a task runs a table scan (with its filter, projection and partial aggregation) on the node's worker threads; 0 keeps every scan on the main thread",
      validate: (v) => {
        if (Number(v) < 0) throw new Error('must not be negative');
      },
    },
    PARALLEL_JOIN_PROBE_PROPERTY,
    JOIN_CHAIN_FAR_START_PROPERTY,
    JOIN_CHAIN_FEWER_ROWS_NEXT_PROPERTY,
    PARTITIONED_AGGREGATION_PROPERTY,
    SINGLE_NODE_AGGREGATION_PROPERTY,
    PUSH_PARTIAL_AGGREGATION_THROUGH_JOIN_PROPERTY,
    PREFERRED_AGGREGATION_PARTITIONING_PROPERTY,
    PARALLEL_MARK_JOIN_PROPERTY,
    PARALLEL_SORT_PROPERTY,
    MATERIALIZE_COMMON_TABLE_EXPRESSIONS_PROPERTY,
    SHARE_IDENTICAL_STAGES_PROPERTY,
    DISTRIBUTED_SORT_PROPERTY,
    PARALLEL_WINDOW_PROPERTY,
    PARALLEL_HASH_BUILD_PROPERTY,
    {
      name: 'parallel_hash_build_min_rows',
      type: { kind: 'integer' },
      defaultValue: INTEGER_SESSION_DEFAULTS.parallel_hash_build_min_rows,
      description:
        "Fewest build rows for which the node's worker threads fill a hash join's lookup table (parallel_hash_build); a smaller table is hashed in the task's main thread",
      validate: (v) => {
        if (Number(v) < 1) throw new Error('must be at least 1');
      },
    },
    ENABLE_DYNAMIC_FILTERING_PROPERTY,
    ENABLE_SEMI_JOIN_PROBE_KEY_FILTERING_PROPERTY,
    DYNAMIC_FILTERING_WAIT_TIMEOUT_PROPERTY,
    DYNAMIC_FILTER_KEY_BITMAP_PROPERTY,
    DYNAMIC_FILTER_REMOTE_KEY_BITMAP_MAX_SIZE_PROPERTY,
    {
      name: 'query_max_execution_time',
      type: { kind: 'varchar' },
      defaultValue: DEFAULT_QUERY_MAX_EXECUTION_TIME,
      description: 'Longest a query may run after it left the queue; then it fails with EXCEEDED_TIME_LIMIT',
      validate: (v) => {
        if (parseDuration(String(v)) === undefined) throw new Error(`'${String(v)}' is not a duration such as '30m' or '2.5h'`);
      },
    },
    {
      name: 'query_max_memory',
      type: { kind: 'varchar' },
      defaultValue: formatDataSize(node.queryMaxMemoryBytes),
      description:
        "Memory a query may use on all nodes together; beyond it the query fails with EXCEEDED_GLOBAL_MEMORY_LIMIT. It lowers the node's memory.queryMaxMemory (the default), never raises it",
      validate: (v) => {
        if (parseDataSize(String(v)) === undefined) throw new Error(`'${String(v)}' is not a data size such as '512MB' or '2GB'`);
      },
    },
    {
      name: 'task_concurrency',
      type: { kind: 'integer' },
      defaultValue: INTEGER_SESSION_DEFAULTS.task_concurrency,
      description: "Worker threads a task's table scans run on, at most the node's cores",
      validate: (v) => {
        if (Number(v) < 1) throw new Error('must be at least 1');
      },
    },
    TIME_ZONE_PROPERTY_METADATA,
  ];
}
