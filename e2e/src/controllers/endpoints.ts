// The Endpoints and EndpointSlice controllers: for every Service with a selector, the pods it
// selects that have an IP, with each Service port's targetPort resolved (a number, or a container
// port's name). Endpoints list ready pods in addresses and unready ones in notReadyAddresses
// (terminating pods are left out); the EndpointSlice lists every one of them with its
// ready / serving / terminating conditions, which is what the Service proxy routes by.
import type { JsonObject, KubeObject } from '../apiserver/types.js';
import { keyOf, kinds, splitKey, type Objects } from '../cluster/objects.js';
import { controllerRef } from './owners.js';
import { isReady } from './pods.js';
import { WorkQueue } from './work-queue.js';

export const serviceNameLabel = 'kubernetes.io/service-name';
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
const managedBy = 'endpointslice-controller.k8s.io';

interface ServicePort {
  name?: string;
  port: number;
  protocol?: string;
  targetPort?: number | string;
  appProtocol?: string;
}

interface ServiceSpec {
  selector?: Record<string, string>;
  ports?: ServicePort[];
  publishNotReadyAddresses?: boolean;
  type?: string;
}

interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
}

function resolvePorts(svc: ServiceSpec, pod: KubeObject): EndpointPort[] {
  const containerPorts = (
    (pod.spec as { containers?: { ports?: { name?: string; containerPort: number; protocol?: string }[] }[] }).containers ?? []
  ).flatMap((c) => c.ports ?? []);
  const out: EndpointPort[] = [];
  for (const p of svc.ports ?? []) {
    const target = p.targetPort ?? p.port;
    const port =
      typeof target === 'number'
        ? target
        : /^\d+$/.test(target)
          ? Number(target)
          : containerPorts.find((c) => c.name === target && (c.protocol ?? 'TCP') === (p.protocol ?? 'TCP'))?.containerPort;
    if (port === undefined) continue;
    out.push({ ...(p.name ? { name: p.name } : {}), port, protocol: p.protocol ?? 'TCP' });
  }
  return out;
}

export class EndpointsController {
  private readonly queue: WorkQueue;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly objects: Objects) {
    this.queue = new WorkQueue(
      (key) => this.sync(key),
      () => undefined,
    );
  }

  start(): void {
    this.unsubscribe.push(this.objects.watch(kinds.services, (e) => this.queue.add(keyOf(e.object))));
    this.unsubscribe.push(
      this.objects.watch(kinds.pods, (e) => {
        for (const svc of this.objects.list(kinds.services, e.object.metadata.namespace)) this.queue.add(keyOf(svc));
      }),
    );
    for (const svc of this.objects.list(kinds.services)) this.queue.add(keyOf(svc));
  }

  private sync(key: string): void {
    const { namespace, name } = splitKey(key);
    const svc = this.objects.get(kinds.services, namespace, name);
    const slices = this.objects
      .list(kinds.endpointSlices, namespace)
      .filter((s) => s.metadata.labels?.[serviceNameLabel] === name && s.metadata.labels?.[managedByLabel] === managedBy);
    if (!svc || svc.metadata.deletionTimestamp) {
      this.objects.delete(kinds.endpoints, namespace, name);
      for (const s of slices) this.objects.delete(kinds.endpointSlices, namespace, s.metadata.name!);
      return;
    }
    const spec = svc.spec as ServiceSpec;
    if (!spec.selector || Object.keys(spec.selector).length === 0 || spec.type === 'ExternalName') return;
    const pods = this.objects
      .list(kinds.pods, namespace)
      .filter((p) => Object.entries(spec.selector!).every(([k, v]) => p.metadata.labels?.[k] === v))
      .filter(
        (p) =>
          (p.status as { podIP?: string } | undefined)?.podIP &&
          !['Succeeded', 'Failed'].includes((p.status as { phase?: string }).phase ?? ''),
      );
    this.writeEndpoints(svc, spec, pods);
    this.writeSlice(svc, spec, pods, slices);
  }

  private address(pod: KubeObject): JsonObject {
    return {
      ip: (pod.status as { podIP: string }).podIP,
      nodeName: (pod.spec as { nodeName?: string }).nodeName ?? null,
      targetRef: { kind: 'Pod', namespace: pod.metadata.namespace!, name: pod.metadata.name!, uid: pod.metadata.uid! },
    };
  }

  private writeEndpoints(svc: KubeObject, spec: ServiceSpec, pods: KubeObject[]): void {
    const subsets = new Map<string, { addresses: JsonObject[]; notReadyAddresses: JsonObject[]; ports: EndpointPort[] }>();
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp && !spec.publishNotReadyAddresses) continue;
      const ports = resolvePorts(spec, pod);
      const key = JSON.stringify(ports);
      const subset = subsets.get(key) ?? { addresses: [], notReadyAddresses: [], ports };
      subsets.set(key, subset);
      (isReady(pod) || spec.publishNotReadyAddresses ? subset.addresses : subset.notReadyAddresses).push(this.address(pod));
    }
    const list = [...subsets.values()].map((s) => {
      const out: JsonObject = {};
      if (s.addresses.length) out.addresses = s.addresses;
      if (s.notReadyAddresses.length) out.notReadyAddresses = s.notReadyAddresses;
      if (s.ports.length) out.ports = s.ports as unknown as JsonObject[];
      return out;
    });
    const { namespace, name } = svc.metadata;
    const existing = this.objects.get(kinds.endpoints, namespace, name!);
    const labels = { ...svc.metadata.labels, 'endpointslice.kubernetes.io/skip-mirror': 'true' };
    if (existing) {
      if (
        JSON.stringify(existing.subsets ?? []) === JSON.stringify(list) &&
        JSON.stringify(existing.metadata.labels) === JSON.stringify(labels)
      )
        return;
      existing.subsets = list;
      existing.metadata.labels = labels;
      this.objects.update(kinds.endpoints, existing);
    } else this.objects.create(kinds.endpoints, namespace, { metadata: { name, labels }, subsets: list });
  }

  private writeSlice(svc: KubeObject, spec: ServiceSpec, pods: KubeObject[], slices: KubeObject[]): void {
    const endpoints = pods.map((pod) => {
      const terminating = !!pod.metadata.deletionTimestamp;
      const serving = isReady(pod) || !!spec.publishNotReadyAddresses;
      const a = this.address(pod);
      return {
        addresses: [a.ip],
        conditions: { ready: serving && !terminating, serving, terminating },
        nodeName: a.nodeName,
        targetRef: a.targetRef,
      };
    });
    const ports = pods.length
      ? resolvePorts(spec, pods[0])
      : (spec.ports ?? []).map((p) => ({
          ...(p.name ? { name: p.name } : {}),
          port: typeof p.targetPort === 'number' ? p.targetPort : p.port,
          protocol: p.protocol ?? 'TCP',
        }));
    const { namespace, name } = svc.metadata;
    const labels = { ...svc.metadata.labels, [serviceNameLabel]: name!, [managedByLabel]: managedBy };
    const [slice, ...extra] = slices;
    for (const s of extra) this.objects.delete(kinds.endpointSlices, namespace, s.metadata.name!);
    const body = { addressType: 'IPv4', endpoints: endpoints as unknown as JsonObject[], ports: ports as unknown as JsonObject[] };
    if (slice) {
      if (
        JSON.stringify({ addressType: slice.addressType, endpoints: slice.endpoints, ports: slice.ports }) === JSON.stringify(body) &&
        JSON.stringify(slice.metadata.labels) === JSON.stringify(labels)
      )
        return;
      Object.assign(slice, body);
      slice.metadata.labels = labels;
      this.objects.update(kinds.endpointSlices, slice);
    } else
      this.objects.create(kinds.endpointSlices, namespace, {
        metadata: { generateName: `${name}-`, labels, ownerReferences: [controllerRef(svc)] },
        ...body,
      });
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.queue.stop();
  }
}
