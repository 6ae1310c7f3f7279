// Helpers of the Deployment controller (k8s.io/kubernetes/pkg/controller/deployment/util): the
// pod-template-hash, maxSurge / maxUnavailable resolution, revisions, and template equality
// ignoring the hash label.
import type { JsonObject, KubeObject } from '../apiserver/types.js';

export const templateHashLabel = 'pod-template-hash';
export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const desiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const maxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';

/**
 * JSON with object keys sorted and null fields left out, so templates equal as Go structs compare
 * equal whatever order clients wrote them in (kubectl sends metadata.creationTimestamp: null).
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== null)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-32a of the template (and collision count), spelled with rand.SafeEncodeString's alphabet. */
export function templateHash(template: unknown, collisionCount = 0): string {
  let h = 0x811c9dc5;
  const text = canonical(template) + (collisionCount ? String(collisionCount) : '');
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return [...String(h)].map((c) => safeAlphabet[c.charCodeAt(0) % safeAlphabet.length]).join('');
}

function withoutHash(template: unknown): string {
  const t = structuredClone((template ?? {}) as JsonObject);
  const labels = (t.metadata as JsonObject | undefined)?.labels as Record<string, string> | undefined;
  if (labels) delete labels[templateHashLabel];
  return canonical(t);
}

export function equalIgnoreHash(a: unknown, b: unknown): boolean {
  return withoutHash(a) === withoutHash(b);
}

/** An int-or-percent of `total` (percentages round up for surge, down for unavailable). */
export function scaledValue(value: number | string | undefined, total: number, roundUp: boolean, fallback: string): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number(v) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export interface RollingParams {
  maxSurge: number;
  maxUnavailable: number;
}

/** ResolveFenceposts: both zero would never progress, so maxUnavailable becomes 1. */
export function rollingParams(deployment: KubeObject): RollingParams {
  const spec = deployment.spec as {
    replicas?: number;
    strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
  };
  const replicas = spec.replicas ?? 1;
  if (spec.strategy?.type === 'Recreate') return { maxSurge: 0, maxUnavailable: 0 };
  const ru = spec.strategy?.rollingUpdate;
  const maxSurge = scaledValue(ru?.maxSurge, replicas, true, '25%');
  let maxUnavailable = scaledValue(ru?.maxUnavailable, replicas, false, '25%');
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable: Math.min(maxUnavailable, replicas) };
}

export function revisionOf(obj: KubeObject): number {
  return Number(obj.metadata.annotations?.[revisionAnnotation] ?? 0) || 0;
}
