// The resource metrics API (metrics.k8s.io/v1beta1) as metrics-server serves it through the
// aggregator: NodeMetrics and PodMetrics, read-only (get and list, with label and field selectors;
// no watch), from the in-process MetricsServer's windowed samples. Registered only when a cluster
// runs pods, as the group only exists where metrics-server is installed.
import type { ResourceType } from './registry.js';
import { bucketOf } from './api.js';
import type { Store } from './storage.js';
import { fieldMatcher, labelMatcher } from './selectors.js';
import { methodNotAllowed, notFound } from './status.js';
import { formatKibibytes, formatNanocores } from './quantity.js';
import type { MetricsServer, WindowedUsage } from './metrics-server.js';
import type { JsonObject, KubeObject } from './types.js';

export const metricsGroup = 'metrics.k8s.io';

const readOnly = ['get', 'list'];

export const metricsTypes: ResourceType[] = [
  {
    group: metricsGroup,
    version: 'v1beta1',
    resource: 'nodes',
    singular: '',
    kind: 'NodeMetrics',
    namespaced: false,
    statusSubresource: false,
    verbs: readOnly,
  },
  {
    group: metricsGroup,
    version: 'v1beta1',
    resource: 'pods',
    singular: '',
    kind: 'PodMetrics',
    namespaced: true,
    statusSubresource: false,
    verbs: readOnly,
  },
];

const apiVersion = `${metricsGroup}/v1beta1`;

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A Go duration as metrics-server prints the window: "1.002s". */
function goDuration(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}

function usageOf(u: WindowedUsage): JsonObject {
  return { cpu: formatNanocores(u.cpuCores), memory: formatKibibytes(u.memoryBytes) };
}

export class MetricsApi {
  constructor(
    private readonly metrics: MetricsServer,
    private readonly store: Store,
  ) {}

  /** GET of a list or of one object; anything else is 405 as on the aggregated API. */
  serve(
    method: string | undefined,
    type: ResourceType,
    namespace: string | undefined,
    name: string | undefined,
    q: URLSearchParams,
    watch: boolean,
  ): JsonObject {
    if (method !== 'GET' || watch) throw methodNotAllowed();
    const objects = type.kind === 'PodMetrics' ? this.podMetrics(namespace) : this.nodeMetrics();
    if (name) {
      const found = objects.find((o) => o.metadata.name === name);
      if (!found) throw notFound({ group: metricsGroup, resource: type.kind === 'PodMetrics' ? 'podmetrics' : 'nodemetrics' }, name);
      return found as unknown as JsonObject;
    }
    const byLabel = labelMatcher(q.get('labelSelector') ?? undefined);
    const byField = fieldMatcher(q.get('fieldSelector') ?? undefined, type.kind);
    const items = objects.filter((o) => byLabel(o) && byField(o));
    return { kind: `${type.kind}List`, apiVersion, metadata: {}, items } as unknown as JsonObject;
  }

  private podMetrics(namespace: string | undefined): KubeObject[] {
    const pods = new Map(
      this.store.list(bucketOf({ group: '', resource: 'pods' }), namespace).map(({ object }) => [object.metadata.uid, object]),
    );
    return this.metrics
      .pods()
      .filter((p) => pods.has(p.podUid))
      .map((p) => {
        const pod = pods.get(p.podUid)!;
        return {
          kind: 'PodMetrics',
          apiVersion,
          metadata: { name: p.pod, namespace: p.namespace, creationTimestamp: iso(Date.now()), labels: pod.metadata.labels ?? {} },
          timestamp: iso(p.timestampMs),
          window: goDuration(p.windowMs),
          containers: p.containers.map((c) => ({ name: c.name, usage: usageOf(c.usage) })),
        };
      });
  }

  private nodeMetrics(): KubeObject[] {
    const usage = this.metrics.nodeUsage();
    if (!usage) return [];
    const node = this.store.get(bucketOf({ group: '', resource: 'nodes' }), undefined, this.metrics.nodeName);
    return [
      {
        kind: 'NodeMetrics',
        apiVersion,
        metadata: { name: this.metrics.nodeName, creationTimestamp: iso(Date.now()), labels: node?.metadata.labels ?? {} },
        timestamp: iso(usage.timestampMs),
        window: goDuration(usage.windowMs),
        usage: usageOf(usage),
      },
    ];
  }
}
