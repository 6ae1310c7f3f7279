// The meta.k8s.io/v1 Table kubectl get asks for (Accept: ...;as=Table;v=v1;g=meta.k8s.io): a NAME
// column, the kind's printer columns (additionalPrinterColumns for custom resources), dates as ages.
import { jsonPathGet } from "./jsonpath.js";
import type { PrinterColumn, ResourceType } from "./registry.js";
import type { JsonObject, KubeObject } from "./types.js";

const ageColumn: PrinterColumn = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };

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

function podCells(pod: KubeObject): unknown[] {
  const spec = (pod.spec ?? {}) as { containers?: unknown[] };
  const status = (pod.status ?? {}) as { phase?: string; reason?: string; containerStatuses?: { ready?: boolean; restartCount?: number; state?: { waiting?: { reason?: string }; terminated?: { reason?: string } } }[] };
  const statuses = status.containerStatuses ?? [];
  let reason = status.reason ?? status.phase ?? "Unknown";
  for (const c of statuses) reason = c.state?.waiting?.reason ?? c.state?.terminated?.reason ?? reason;
  if (pod.metadata.deletionTimestamp) reason = "Terminating";
  return [`${statuses.filter((c) => c.ready).length}/${(spec.containers ?? []).length}`, reason, statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0)];
}

function deploymentReady(obj: KubeObject): string {
  const spec = obj.spec as JsonObject;
  const status = (obj.status ?? {}) as JsonObject;
  return `${status.readyReplicas ?? 0}/${spec.replicas ?? 0}`;
}

interface Layout {
  columns: PrinterColumn[];
  cells: (obj: KubeObject) => unknown[];
}

function byPaths(columns: PrinterColumn[]): Layout["cells"] {
  return (obj) =>
    columns.map((c) => {
      const value = jsonPathGet(obj, c.jsonPath);
      if (c.type === "date" && typeof value === "string") return humanDuration(Date.now() - Date.parse(value));
      return value ?? (c.type === "date" ? "<unknown>" : null);
    });
}

function layoutFor(t: ResourceType): Layout {
  if (t.kind === "Pod" && !t.crdName) {
    const age = byPaths([ageColumn]);
    return {
      columns: [{ name: "Ready", type: "string", jsonPath: "" }, { name: "Status", type: "string", jsonPath: "" }, { name: "Restarts", type: "string", jsonPath: "" }, ageColumn],
      cells: (obj) => [...podCells(obj), ...age(obj)],
    };
  }
  if (t.kind === "Deployment" && !t.crdName) {
    const rest = byPaths(t.printerColumns!);
    return { columns: [{ name: "Ready", type: "string", jsonPath: "" }, ...t.printerColumns!], cells: (obj) => [deploymentReady(obj), ...rest(obj)] };
  }
  const columns = t.printerColumns ?? [ageColumn];
  return { columns, cells: byPaths(columns) };
}

export type IncludeObject = "None" | "Metadata" | "Object";

export function toTable(t: ResourceType, objects: KubeObject[], listMeta: JsonObject, include: IncludeObject): JsonObject {
  const layout = layoutFor(t);
  const columnDefinitions = [{ name: "Name", type: "string", format: "name", description: "Name must be unique within a namespace.", priority: 0 }].concat(
    layout.columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? "", description: c.description ?? c.name, priority: c.priority ?? 0 })),
  );
  const rows = objects.map((obj) => {
    const row: JsonObject = { cells: [obj.metadata.name!, ...layout.cells(obj)] as JsonObject[] };
    if (include === "Object") row.object = obj as unknown as JsonObject;
    else if (include === "Metadata") row.object = { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: obj.metadata } as unknown as JsonObject;
    return row;
  });
  return { kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: listMeta, columnDefinitions, rows } as unknown as JsonObject;
}
