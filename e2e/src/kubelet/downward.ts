// The downward API: pod fields a container can read through env (fieldRef) or files
// (downwardAPI volumes), with the formats the real kubelet writes.
import type { KubeObject } from '../apiserver/types.js';

export interface PodAddresses {
  podIp: string;
  hostIp: string;
}

function mapText(map: Record<string, string> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(map![k])}`)
    .join('\n');
}

/** The value of a fieldRef, or undefined for a path the downward API does not offer. */
export function fieldRefValue(pod: KubeObject, fieldPath: string, addresses: PodAddresses): string | undefined {
  const meta = pod.metadata;
  const spec = (pod.spec ?? {}) as { nodeName?: string; serviceAccountName?: string };
  const keyed = /^metadata\.(labels|annotations)\['([^']+)'\]$/.exec(fieldPath);
  if (keyed) return (keyed[1] === 'labels' ? meta.labels : meta.annotations)?.[keyed[2]] ?? '';
  switch (fieldPath) {
    case 'metadata.name':
      return meta.name;
    case 'metadata.namespace':
      return meta.namespace;
    case 'metadata.uid':
      return meta.uid;
    case 'metadata.labels':
      return mapText(meta.labels);
    case 'metadata.annotations':
      return mapText(meta.annotations);
    case 'spec.nodeName':
      return spec.nodeName ?? '';
    case 'spec.serviceAccountName':
      return spec.serviceAccountName ?? 'default';
    case 'status.podIP':
    case 'status.podIPs':
      return addresses.podIp;
    case 'status.hostIP':
    case 'status.hostIPs':
      return addresses.hostIp;
    default:
      return undefined;
  }
}
