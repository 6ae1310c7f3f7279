// The meta.k8s.io/v1 Table kubectl get asks for (Accept: ...;as=Table;v=v1;g=meta.k8s.io): a NAME
// column, the kind's printer columns (additionalPrinterColumns for custom resources), dates as ages.
import { jsonPathGet } from './jsonpath.js';
import type { PrinterColumn, ResourceType } from './registry.js';
import type { JsonObject, KubeObject } from './types.js';
import { hpaCells } from './hpa.js';

const ageColumn: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/** apimachinery's duration.HumanDuration, which the real server's AGE cells use. */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const d = Math.floor(h / 24);
  if (s < 120) return `${s}s`;
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (h < 192) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

interface ContainerStatusView {
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string }; running?: object; terminated?: { reason?: string; exitCode?: number; signal?: number } };
  lastState?: { terminated?: { finishedAt?: string } };
}

function terminatedText(t: { reason?: string; exitCode?: number; signal?: number }, prefix = ''): string {
  if (t.reason) return prefix + t.reason;
  return prefix + (t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode ?? 0}`);
}

/** READY, STATUS and RESTARTS as kubectl's printPod computes them (the server-side printer). */
function podCells(pod: KubeObject): unknown[] {
  const spec = (pod.spec ?? {}) as { containers?: unknown[]; initContainers?: unknown[] };
  const status = (pod.status ?? {}) as {
    phase?: string;
    reason?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: ContainerStatusView[];
    initContainerStatuses?: ContainerStatusView[];
  };
  let reason = status.reason || status.phase || '';
  let restarts = 0;
  let lastRestart = 0;
  let ready = 0;
  const noteRestart = (c: ContainerStatusView) => {
    restarts += c.restartCount ?? 0;
    const finished = c.lastState?.terminated?.finishedAt;
    if (finished) lastRestart = Math.max(lastRestart, Date.parse(finished));
  };
  let initializing = false;
  const inits = status.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    noteRestart(c);
    const term = c.state?.terminated;
    if (term && term.exitCode === 0) continue;
    if (term) reason = terminatedText(term, 'Init:');
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') reason = 'Init:' + c.state.waiting.reason;
    else reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    initializing = true;
    break;
  }
  if (!initializing) {
    restarts = 0;
    lastRestart = 0;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      noteRestart(c);
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated) reason = terminatedText(c.state.terminated);
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning)
      reason = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
  }
  if (pod.metadata.deletionTimestamp) reason = 'Terminating';
  const restartText = lastRestart ? `${restarts} (${humanDuration(Date.now() - lastRestart)} ago)` : restarts;
  return [`${ready}/${(spec.containers ?? []).length}`, reason, restartText];
}

function podWideCells(pod: KubeObject): unknown[] {
  const spec = (pod.spec ?? {}) as { nodeName?: string; readinessGates?: { conditionType: string }[] };
  const status = (pod.status ?? {}) as { podIP?: string; nominatedNodeName?: string; conditions?: { type: string; status: string }[] };
  const gates = spec.readinessGates ?? [];
  const gatesText = gates.length
    ? `${gates.filter((g) => (status.conditions ?? []).some((c) => c.type === g.conditionType && c.status === 'True')).length}/${gates.length}`
    : '<none>';
  return [status.podIP || '<none>', spec.nodeName || '<none>', status.nominatedNodeName || '<none>', gatesText];
}

function servicePorts(svc: KubeObject): string {
  const ports = ((svc.spec as JsonObject | undefined)?.ports as { port: number; nodePort?: number; protocol?: string }[] | undefined) ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`)).join(',');
}

function serviceCells(svc: KubeObject): unknown[] {
  const spec = (svc.spec ?? {}) as {
    type?: string;
    clusterIP?: string;
    externalIPs?: string[];
    externalName?: string;
    selector?: Record<string, string>;
  };
  let external = '<none>';
  if (spec.type === 'ExternalName') external = spec.externalName ?? '<none>';
  else if (spec.type === 'LoadBalancer') external = '<pending>';
  else if (spec.externalIPs?.length) external = spec.externalIPs.join(',');
  return [spec.type ?? 'ClusterIP', spec.clusterIP || '<none>', external, servicePorts(svc)];
}

function serviceSelector(svc: KubeObject): string {
  const selector = (svc.spec as { selector?: Record<string, string> } | undefined)?.selector ?? {};
  const parts = Object.entries(selector).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(',') : '<none>';
}

function nodeCells(node: KubeObject): unknown[] {
  const status = (node.status ?? {}) as { conditions?: { type: string; status: string }[]; nodeInfo?: { kubeletVersion?: string } };
  const ready = (status.conditions ?? []).find((c) => c.type === 'Ready');
  let text = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  if ((node.spec as { unschedulable?: boolean } | undefined)?.unschedulable) text += ',SchedulingDisabled';
  const roles = Object.keys(node.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  return [text, roles.length ? roles.join(',') : '<none>'];
}

/** ENDPOINTS: the first three ip:port pairs and "+ N more...", as the real printer shows them. */
function endpointsCell(ep: KubeObject): string {
  const pairs: string[] = [];
  for (const subset of (ep.subsets as { addresses?: { ip: string }[]; ports?: { port: number }[] }[] | undefined) ?? [])
    for (const a of subset.addresses ?? [])
      for (const p of subset.ports?.length ? subset.ports : [undefined]) pairs.push(p ? `${a.ip}:${p.port}` : a.ip);
  if (pairs.length === 0) return '<none>';
  return pairs.length > 3 ? `${pairs.slice(0, 3).join(',')} + ${pairs.length - 3} more...` : pairs.join(',');
}

function deploymentReady(obj: KubeObject): string {
  const spec = obj.spec as JsonObject;
  const status = (obj.status ?? {}) as JsonObject;
  return `${status.readyReplicas ?? 0}/${spec.replicas ?? 0}`;
}

interface Layout {
  columns: PrinterColumn[];
  cells: (obj: KubeObject) => unknown[];
  /** The layout has its own Name column (events show it only with -o wide). */
  ownName?: boolean;
}

function byPaths(columns: PrinterColumn[]): Layout['cells'] {
  return (obj) =>
    columns.map((c) => {
      const value = jsonPathGet(obj, c.jsonPath);
      if (c.type === 'date' && typeof value === 'string') return humanDuration(Date.now() - Date.parse(value));
      return value ?? (c.type === 'date' ? '<unknown>' : null);
    });
}

function custom(
  columns: string[],
  cells: (obj: KubeObject) => unknown[],
  after: PrinterColumn[] = [ageColumn],
  wide: PrinterColumn[] = [],
  wideCells?: (obj: KubeObject) => unknown[],
): Layout {
  const rest = byPaths(after);
  return {
    columns: [...columns.map((name) => ({ name, type: 'string', jsonPath: '' })), ...after, ...wide.map((c) => ({ ...c, priority: 1 }))],
    cells: (obj) => [...cells(obj), ...rest(obj), ...(wideCells ? wideCells(obj) : [])],
  };
}

const wideColumn = (name: string): PrinterColumn => ({ name, type: 'string', jsonPath: '' });

function since(time: unknown): string {
  return typeof time === 'string' ? humanDuration(Date.now() - Date.parse(time)) : '<unknown>';
}

/** LAST SEEN, TYPE, REASON, OBJECT, MESSAGE (and with -o wide the rest), as the real server prints events. */
const eventLayout: Layout = {
  ownName: true,
  columns: [
    { name: 'Last Seen', type: 'string', jsonPath: '' },
    { name: 'Type', type: 'string', jsonPath: '' },
    { name: 'Reason', type: 'string', jsonPath: '' },
    { name: 'Object', type: 'string', jsonPath: '' },
    { name: 'Subobject', type: 'string', jsonPath: '', priority: 1 },
    { name: 'Source', type: 'string', jsonPath: '', priority: 1 },
    { name: 'Message', type: 'string', jsonPath: '' },
    { name: 'First Seen', type: 'string', jsonPath: '', priority: 1 },
    { name: 'Count', type: 'string', jsonPath: '', priority: 1 },
    { name: 'Name', type: 'string', jsonPath: '', priority: 1 },
  ],
  cells: (e) => {
    const io = (e.involvedObject ?? {}) as { kind?: string; name?: string; fieldPath?: string };
    const source = (e.source ?? {}) as { component?: string; host?: string };
    return [
      since(e.lastTimestamp ?? e.eventTime),
      e.type ?? '',
      e.reason ?? '',
      `${(io.kind ?? '').toLowerCase()}/${io.name ?? ''}`,
      io.fieldPath ?? '',
      [source.component, source.host].filter(Boolean).join(', '),
      e.message ?? '',
      since(e.firstTimestamp ?? e.eventTime),
      e.count ?? 1,
      e.metadata.name,
    ];
  },
};

function layoutFor(t: ResourceType): Layout {
  if (!t.crdName && t.group === '') {
    if (t.kind === 'Pod')
      return custom(
        ['Ready', 'Status', 'Restarts'],
        podCells,
        [ageColumn],
        ['IP', 'Node', 'Nominated Node', 'Readiness Gates'].map(wideColumn),
        podWideCells,
      );
    if (t.kind === 'Service')
      return custom(['Type', 'Cluster-IP', 'External-IP', 'Port(s)'], serviceCells, [ageColumn], [wideColumn('Selector')], (obj) => [
        serviceSelector(obj),
      ]);
    if (t.kind === 'Node')
      return custom(['Status', 'Roles'], nodeCells, [
        ageColumn,
        { name: 'Version', type: 'string', jsonPath: '.status.nodeInfo.kubeletVersion' },
      ]);
    if (t.kind === 'Endpoints') return custom(['Endpoints'], (obj) => [endpointsCell(obj)]);
    if (t.kind === 'Event') return eventLayout;
  }
  if (t.kind === 'HorizontalPodAutoscaler' && !t.crdName)
    return custom(['Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas'], hpaCells);
  if (t.kind === 'Deployment' && !t.crdName) {
    const rest = byPaths(t.printerColumns!);
    return {
      columns: [{ name: 'Ready', type: 'string', jsonPath: '' }, ...t.printerColumns!],
      cells: (obj) => [deploymentReady(obj), ...rest(obj)],
    };
  }
  const columns = t.printerColumns ?? [ageColumn];
  return { columns, cells: byPaths(columns) };
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** `outward` gives a row's object in the version asked for (cells read the stored shape). */
export function toTable(
  t: ResourceType,
  objects: KubeObject[],
  listMeta: JsonObject,
  include: IncludeObject,
  outward: (obj: KubeObject) => KubeObject = (obj) => obj,
): JsonObject {
  const layout = layoutFor(t);
  const nameColumn = layout.ownName
    ? []
    : [{ name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 }];
  const columnDefinitions = nameColumn.concat(
    layout.columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description ?? c.name,
      priority: c.priority ?? 0,
    })),
  );
  const rows = objects.map((obj) => {
    const row: JsonObject = { cells: [...(layout.ownName ? [] : [obj.metadata.name!]), ...layout.cells(obj)] as JsonObject[] };
    if (include === 'Object') row.object = outward(obj) as unknown as JsonObject;
    else if (include === 'Metadata')
      row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata } as unknown as JsonObject;
    return row;
  });
  return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: listMeta, columnDefinitions, rows } as unknown as JsonObject;
}
