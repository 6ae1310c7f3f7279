// How the nodes, their clients and the operator reach an engine container. Without TLS: plain HTTP
// on the pod IP. With spec.security.tls, HTTPS on 8443, at addresses the certificate names:
//  - PodDNS (the default): each pod is NAME.CLUSTER-nodes.NAMESPACE.svc under a headless Service
//    (a worker's host name is its pod name; the coordinator's is "coordinator"), and the workers find
//    the coordinator at CLUSTER.NAMESPACE.svc; a certificate for those two names and the wildcard
//    *.CLUSTER-nodes.NAMESPACE.svc serves every pod, present and future.
//  - PodIP: pod IPs and the Service's cluster IP, for a cluster without DNS for pods (the certificate
//    must then name those IPs).
// A node announces https://ADDRESS:8443, and the operator uses the same string, so that it matches
// the coordinator's list of nodes.
import type { V1HTTPGetAction, V1Service } from '@kubernetes/client-node';
import type { EngineCluster } from '../api/engine-cluster.js';
import { clusterLabels, clusterNames, engineHttpsPort, enginePort, labels, type Role } from '../api/names.js';
import { ownedMetadata } from './owner.js';

/** The coordinator pod's host name under the headless Service (its Deployment's pod names change). */
export const coordinatorHostname = 'coordinator';

export function tlsOn(cluster: EngineCluster): boolean {
  return cluster.spec.security?.tls !== undefined;
}

function usesPodDns(cluster: EngineCluster): boolean {
  return cluster.spec.security?.tls?.nodeAddresses === 'PodDNS';
}

/** The container port clients and nodes use: its name, number and scheme. */
export function servingPort(cluster: EngineCluster): { name: string; port: number; scheme: 'HTTP' | 'HTTPS' } {
  return tlsOn(cluster) ? { name: 'https', port: engineHttpsPort, scheme: 'HTTPS' } : { name: 'http', port: enginePort, scheme: 'HTTP' };
}

/** GET /v1/info on the serving port: it needs no credentials, so it suits the probes with authentication on. */
export function infoProbe(cluster: EngineCluster): V1HTTPGetAction {
  const serving = servingPort(cluster);
  return { path: '/v1/info', port: serving.name, scheme: serving.scheme };
}

function podDnsName(cluster: EngineCluster, hostname: string): string {
  return `${hostname}.${clusterNames(cluster.metadata.name!).nodesService}.${cluster.metadata.namespace}.svc`;
}

/** What the pod spec needs for its DNS name (hostname and subdomain), if anything. */
export function podDnsFields(cluster: EngineCluster, role: Role): { hostname?: string; subdomain?: string } {
  if (!usesPodDns(cluster)) return {};
  return {
    ...(role === 'coordinator' ? { hostname: coordinatorHostname } : {}),
    subdomain: clusterNames(cluster.metadata.name!).nodesService,
  };
}

/**
 * node.internalAddress of a role's pods, as an environment variable's value: the pod IP, or the pod's
 * DNS name (a worker's from its pod name, $(ENGINE_NODE_ID), expanded by the kubelet).
 */
export function internalAddressEnv(
  cluster: EngineCluster,
  role: Role,
): { value: string } | { valueFrom: { fieldRef: { fieldPath: string } } } {
  if (!usesPodDns(cluster)) return { valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } };
  return { value: podDnsName(cluster, role === 'coordinator' ? coordinatorHostname : '$(ENGINE_NODE_ID)') };
}

/** The address a worker announces, as the operator reaches it (undefined before the pod has an IP). */
export function workerUri(cluster: EngineCluster, podName: string, podIp: string | undefined): string | undefined {
  if (!podIp) return undefined;
  const serving = servingPort(cluster);
  const host = usesPodDns(cluster) ? podDnsName(cluster, podName) : podIp;
  return `${serving.scheme.toLowerCase()}://${host}:${serving.port}`;
}

/** The coordinator as workers and the operator reach it: through its Service. */
export function coordinatorUri(cluster: EngineCluster, clusterIp: string): string {
  const port = cluster.spec.coordinator.service.port;
  if (!tlsOn(cluster)) return `http://${clusterIp}:${port}`;
  return usesPodDns(cluster)
    ? `https://${cluster.metadata.name}.${cluster.metadata.namespace}.svc:${port}`
    : `https://${clusterIp}:${port}`;
}

/**
 * The headless Service behind the pods' DNS names. Not-ready pods are published too, and so are
 * terminating ones (Kubernetes keeps them in the endpoints when publishNotReadyAddresses is set): a
 * draining worker, even one deleted with kubectl, is not ready, yet the coordinator still fetches its
 * results.
 */
export function nodesService(cluster: EngineCluster): V1Service {
  const serving = servingPort(cluster);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: ownedMetadata(cluster, clusterNames(cluster.metadata.name!).nodesService, clusterLabels(cluster)),
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { [labels.cluster]: cluster.metadata.name! },
      ports: [{ name: serving.name, port: serving.port, targetPort: serving.name, protocol: 'TCP' }],
    },
  };
}
