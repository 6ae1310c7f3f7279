// Cluster DNS for the process kubelet's pods (CoreDNS's job): the names of Services and of pods
// under headless Services, as a file of name -> IP that the pods' Node processes read through
// lookup-hook.ts. Names, as the kubernetes plugin serves them (without the cluster.local suffix,
// which the hook strips):
//   - SERVICE.NAMESPACE.svc -> the Service's cluster IP;
//   - HOSTNAME.SUBDOMAIN.NAMESPACE.svc -> the pod's IP, for a pod with spec.subdomain naming a
//     headless Service that selects it (HOSTNAME: spec.hostname, else the pod's name); a pod that is
//     not ready or is terminating only when the Service has publishNotReadyAddresses.
// There is no search path: a name is resolved only as a whole .svc name.
import fs from 'node:fs';
import path from 'node:path';
import type { KubeObject } from '../apiserver/types.js';
import { kinds, type Objects } from '../cluster/objects.js';
import { isReady } from '../controllers/pods.js';

/** The environment variable naming the file, in every container's environment. */
export const clusterDnsVariable = 'KUBE_TEST_CLUSTER_DNS';

/** The file of a cluster whose state is in `stateDir`. */
export function clusterDnsFile(stateDir: string): string {
  return path.join(stateDir, 'cluster-dns.json');
}

interface ServiceSpec {
  clusterIP?: string;
  selector?: Record<string, string>;
  publishNotReadyAddresses?: boolean;
  type?: string;
}

/** The records of the cluster's objects. */
export function dnsRecords(services: KubeObject[], pods: KubeObject[]): Record<string, string> {
  const records: Record<string, string> = {};
  for (const svc of services) {
    const spec = (svc.spec ?? {}) as ServiceSpec;
    const ns = svc.metadata.namespace!;
    const name = svc.metadata.name!;
    if (spec.clusterIP && spec.clusterIP !== 'None') records[`${name}.${ns}.svc`] = spec.clusterIP;
    if (spec.clusterIP !== 'None' || !spec.selector) continue;
    for (const pod of pods) {
      const podSpec = (pod.spec ?? {}) as { subdomain?: string; hostname?: string };
      const ip = (pod.status as { podIP?: string } | undefined)?.podIP;
      if (pod.metadata.namespace !== ns || podSpec.subdomain !== name || !ip) continue;
      if (!Object.entries(spec.selector).every(([k, v]) => pod.metadata.labels?.[k] === v)) continue;
      if (!spec.publishNotReadyAddresses && (!isReady(pod) || pod.metadata.deletionTimestamp)) continue;
      records[`${podSpec.hostname ?? pod.metadata.name}.${name}.${ns}.svc`] = ip;
    }
  }
  return records;
}

export class ClusterDns {
  readonly file: string;
  private readonly unsubscribe: (() => void)[] = [];
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly objects: Objects,
    stateDir: string,
  ) {
    this.file = clusterDnsFile(stateDir);
  }

  start(): void {
    for (const kind of [kinds.services, kinds.pods]) this.unsubscribe.push(this.objects.watch(kind, () => this.schedule()));
    this.write();
  }

  stop(): void {
    this.stopped = true;
    for (const u of this.unsubscribe) u();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.write();
    });
  }

  /** Replaces the file at once (a rename), so that a reader never sees half of it. */
  private write(): void {
    const text = JSON.stringify(dnsRecords(this.objects.list(kinds.services), this.objects.list(kinds.pods)));
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, this.file);
  }
}
