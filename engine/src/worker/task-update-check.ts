// What the schema of a task request (task-request-schema.ts) cannot say, checked before the task
// is created or changed, so that a bad request is refused (400, naming what is wrong) instead of
// failing the task later with an internal error: the task belongs to the session's query; the
// first request has a fragment, its physical plan (whose nodes are the fragment's, of the kinds
// their places need) and output buffers; the fragment's node ids are unique, its scans
// read catalogs this node has, its output's partition channels exist; splits go to scans of the
// fragment, name the scan's table, come in increasing sequence order, at most
// MAX_SPLITS_PER_TASK_UPDATE at once, and are what the scan's connector makes (Connector.checkSplit);
// locations go to remote sources of the fragment and are http(s) addresses. Linear in the size of
// the request and the fragment.

import type { CatalogManager } from '../connectors/catalog-manager.js';
import { EngineError } from '../errors/engine-error.js';
import { PhysicalPlanMismatch, physicalFromJson } from '../sql/planner/physical/physical-plan-json.js';
import type { PhysicalNode } from '../sql/planner/physical/physical-plan.js';
import { sources, type PlanNode, type RemoteSourceNode, type TableScanNode, type TableWriterNode } from '../sql/planner/plan.js';
import {
  MAX_SPLITS_PER_TASK_UPDATE,
  type OutputBuffersSpec,
  type ScanSplits,
  type TaskUpdateRequest,
} from '../internode/task-update-request.js';

/** The nodes of a fragment that requests address by id. */
interface FragmentTargets {
  scans: Map<number, TableScanNode>;
  remoteSources: Map<number, RemoteSourceNode>;
  writers: TableWriterNode[];
}

/**
 * Throws GENERIC_USER_ERROR (the caller's mistake: 400) for a request task `taskId` must not take.
 * `fragment`: the task's, when it exists already (a later request's own fragment is ignored).
 * A creating request's physical plan, read: the task runs it as is.
 */
export function checkTaskUpdate(
  taskId: string,
  request: TaskUpdateRequest,
  fragment: PlanNode | undefined,
  catalogs: CatalogManager,
): PhysicalNode | undefined {
  const queryId = taskId.slice(0, taskId.indexOf('.'));
  if (request.session.queryId !== queryId)
    refuse(`task ${taskId} is of query ${queryId}, but the session is of query ${request.session.queryId}`);
  const creating = fragment === undefined;
  const plan = fragment ?? request.fragment;
  if (plan === undefined || (creating && request.outputBuffers === undefined)) {
    refuse(`task ${taskId} does not exist yet: its first request needs a fragment and output buffers`);
  }
  const targets = fragmentTargets(plan);
  if (creating) {
    for (const scan of targets.scans.values()) {
      if (catalogs.get(scan.table.catalog) === undefined)
        refuse(`/fragment: scan ${scan.id} reads catalog '${scan.table.catalog}', which this node does not have`);
    }
    for (const writer of targets.writers) checkWriter(writer, catalogs);
    checkOutputBuffers(request.outputBuffers!, plan.outputs.length);
  }
  checkSources(request.sources, targets.scans, catalogs);
  request.remoteSources.forEach((remote, i) => {
    if (!targets.remoteSources.has(remote.planNodeId))
      refuse(`/remoteSources/${i}/planNodeId: ${remote.planNodeId} is not a remote source of the fragment`);
    remote.locations.forEach((location, j) => {
      if (!isHttpUri(location.uri)) refuse(`/remoteSources/${i}/locations/${j}/uri: '${location.uri}' is not an http(s) address`);
    });
  });
  return creating ? checkPhysicalPlan(request, plan) : undefined;
}

/** The coordinator plans the fragment's physical plan: a worker maps it (as read here, once) and never plans one itself. */
function checkPhysicalPlan(request: TaskUpdateRequest, fragment: PlanNode): PhysicalNode {
  if (request.physicalPlan === undefined) refuse('/physicalPlan: the first request of a task needs the physical plan of its fragment');
  try {
    return physicalFromJson(request.physicalPlan, fragment);
  } catch (e) {
    if (e instanceof PhysicalPlanMismatch) refuse(`/physicalPlan: ${e.message}`);
    throw e;
  }
}

function checkOutputBuffers(buffers: OutputBuffersSpec, channels: number): void {
  if (buffers.type !== 'PARTITIONED') return;
  buffers.partitionChannels.forEach((channel, i) => {
    if (channel >= channels)
      refuse(`/outputBuffers/partitionChannels/${i}: channel ${channel} is out of range: the fragment outputs ${channels} channels`);
  });
}

function checkSources(scanSplits: readonly ScanSplits[], scans: ReadonlyMap<number, TableScanNode>, catalogs: CatalogManager): void {
  let count = 0;
  scanSplits.forEach((source, i) => {
    const scan = scans.get(source.planNodeId);
    if (scan === undefined) refuse(`/sources/${i}/planNodeId: ${source.planNodeId} is not a table scan of the fragment`);
    count += source.splits.length;
    if (count > MAX_SPLITS_PER_TASK_UPDATE) refuse(`/sources: more than ${MAX_SPLITS_PER_TASK_UPDATE} splits in one update`);
    const { catalog, schema, name } = scan.table;
    const connector = catalogs.get(catalog);
    let previous = -1;
    source.splits.forEach(({ sequenceId, split }, j) => {
      const at = `/sources/${i}/splits/${j}`;
      if (sequenceId <= previous)
        refuse(`${at}/sequenceId: ${sequenceId} does not follow ${previous}: a scan's splits come in increasing sequence order`);
      previous = sequenceId;
      if (split.catalog !== catalog || split.schema !== schema || split.table !== name) {
        refuse(
          `${at}/split: a split of '${split.catalog}.${split.schema}.${split.table}' for scan ${scan.id} of '${catalog}.${schema}.${name}'`,
        );
      }
      const problem = connector?.checkSplit?.(split);
      if (problem !== undefined) refuse(`${at}/split: ${problem}`);
    });
  });
}

/** The fragment's table scans and remote sources by id; node ids must be unique. */
function fragmentTargets(root: PlanNode): FragmentTargets {
  const targets: FragmentTargets = { scans: new Map(), remoteSources: new Map(), writers: [] };
  const ids = new Set<number>();
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (ids.has(node.id)) refuse(`/fragment: plan node id ${node.id} is used twice`);
    ids.add(node.id);
    if (node.kind === 'TableScan') targets.scans.set(node.id, node);
    else if (node.kind === 'RemoteSource') targets.remoteSources.set(node.id, node);
    else if (node.kind === 'TableWriter') targets.writers.push(node);
    stack.push(...sources(node));
  }
  return targets;
}

/** A writer writes with a catalog this node has, which writes from any node, with a handle it made. */
function checkWriter(writer: TableWriterNode, catalogs: CatalogManager): void {
  const { catalog, schema, table, handle } = writer.target;
  const at = `/fragment: writer ${writer.id}`;
  const connector = catalogs.get(catalog);
  if (connector === undefined) refuse(`${at} writes to catalog '${catalog}', which this node does not have`);
  if (connector.createPageSink === undefined) refuse(`${at} writes to catalog '${catalog}', which does not support writes`);
  if (writer.columnNames.length !== writer.columns.length)
    refuse(`${at} names ${writer.columnNames.length} columns for ${writer.columns.length} symbols`);
  const problem = connector.checkWriteHandle?.(handle);
  if (problem !== undefined) refuse(`${at}: handle of a write to '${catalog}.${schema}.${table}': ${problem}`);
}

function isHttpUri(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function refuse(problem: string): never {
  throw new EngineError('GENERIC_USER_ERROR', `Invalid task request: ${problem}`);
}
