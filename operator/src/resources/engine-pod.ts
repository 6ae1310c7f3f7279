// The pod every engine node runs in, coordinator or worker: the engine container reading its role's
// configuration file, told its identity by the downward API (node id = pod name, address = pod IP),
// the shared secret from the cluster's Secret, and a preStop hook that drains the node, so a pod
// deleted by anyone still lets its work finish. The hook returns once the node is SHUTTING_DOWN (with
// no work left, it exits by itself): waiting inside the container for its own end would be cut short.
// Its memory (request, limit, heap) follows the node's memory settings (memory-plan.ts). Catalog
// properties from Secrets come in as environment variables (catalog-properties.ts); the spec's
// volumes are added beside the configuration's (volumes.ts), and spec.security's files and settings
// too (security-files.ts); with TLS the probes use HTTPS and the pods' addresses are node-addresses.ts's.
import type { V1Container, V1EnvVar, V1PodSpec, V1ResourceRequirements } from '@kubernetes/client-node';
import type { EngineCluster, Quantity, ResourceRequirements } from '../api/engine-cluster.js';
import { secretProperties } from '../api/catalog-properties.js';
import { clusterNames, enginePort, type Role } from '../api/names.js';
import { configMountPath, configVolumeName, roleVolumes } from '../api/volumes.js';
import { configFileName } from './engine-config.js';
import { memoryPlan } from './memory-plan.js';
import { infoProbe, internalAddressEnv, podDnsFields, servingPort, tlsOn } from './node-addresses.js';
import { securityEnv, securityVolumes } from './security-files.js';

export { configMountPath };
export const sharedSecretKey = 'shared-secret';

/** Time the kubelet gives a pod to stop beyond the drain's own timeout (SIGTERM and exit). */
const gracePeriodMarginSeconds = 30;

function env(cluster: EngineCluster, role: Role, discoveryUri: string | undefined): V1EnvVar[] {
  const names = clusterNames(cluster.metadata.name!);
  const vars: V1EnvVar[] = [
    { name: 'ENGINE_ROLE', value: role },
    { name: 'ENGINE_NODE_ID', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    { name: 'ENGINE_NODE_INTERNAL_ADDRESS', ...internalAddressEnv(cluster, role) },
    { name: 'ENGINE_HTTP_PORT', value: String(enginePort) },
    { name: 'ENGINE_SHARED_SECRET', valueFrom: { secretKeyRef: { name: names.secret, key: sharedSecretKey } } },
  ];
  if (discoveryUri) vars.push({ name: 'ENGINE_DISCOVERY_URI', value: discoveryUri });
  vars.push(...securityEnv(cluster));
  for (const p of secretProperties(cluster.spec.catalogs ?? {}))
    vars.push({ name: p.envName, valueFrom: { secretKeyRef: { name: p.secretKeyRef.name, key: p.secretKeyRef.key } } });
  return vars;
}

/** Quantities as the API's strings (the schema also lets a number through: `cpu: 2`). */
function resourceRequirements(r: ResourceRequirements): V1ResourceRequirements {
  const strings = (m: Record<string, Quantity> | undefined) =>
    m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, String(v)])) : undefined;
  return { ...(r.requests ? { requests: strings(r.requests) } : {}), ...(r.limits ? { limits: strings(r.limits) } : {}) };
}

function container(cluster: EngineCluster, role: Role, discoveryUri: string | undefined): V1Container {
  const spec = cluster.spec;
  const drainSeconds = spec.workers.drainTimeoutSeconds;
  const memory = memoryPlan(spec, role);
  const resources = memory.resources;
  return {
    name: 'engine',
    image: spec.image,
    imagePullPolicy: spec.imagePullPolicy,
    args: ['server', '--config', `${configMountPath}/${configFileName(role)}`],
    env: [...env(cluster, role, discoveryUri), ...memory.env],
    ports: [
      { name: 'http', containerPort: enginePort, protocol: 'TCP' },
      ...(tlsOn(cluster) ? [{ name: servingPort(cluster).name, containerPort: servingPort(cluster).port, protocol: 'TCP' }] : []),
    ],
    readinessProbe: { httpGet: infoProbe(cluster), periodSeconds: 2, timeoutSeconds: 2, failureThreshold: 3 },
    livenessProbe: { httpGet: infoProbe(cluster), initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 6 },
    lifecycle: {
      preStop: { exec: { command: ['engine', 'node', 'drain', '--local', '--timeout', `${drainSeconds}s`, '--until-isolated'] } },
    },
    volumeMounts: [
      { name: configVolumeName, mountPath: configMountPath, readOnly: true },
      ...securityVolumes(cluster).volumeMounts,
      ...roleVolumes(spec, role).volumeMounts,
    ],
    securityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
    ...(resources ? { resources: resourceRequirements(resources) } : {}),
  };
}

/**
 * The pod spec of a role. Workers restart in place only when they fail: one that exits 0 was drained
 * (or shut down on purpose) and is not started again.
 */
export function enginePodSpec(cluster: EngineCluster, role: Role, discoveryUri?: string): V1PodSpec {
  const names = clusterNames(cluster.metadata.name!);
  return {
    containers: [container(cluster, role, discoveryUri)],
    volumes: [
      { name: configVolumeName, configMap: { name: names.configMap } },
      ...securityVolumes(cluster).volumes,
      ...roleVolumes(cluster.spec, role).volumes,
    ],
    ...podDnsFields(cluster, role),
    restartPolicy: role === 'worker' ? 'OnFailure' : 'Always',
    terminationGracePeriodSeconds: cluster.spec.workers.drainTimeoutSeconds + gracePeriodMarginSeconds,
    enableServiceLinks: false,
    securityContext: { runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001, fsGroup: 10001 },
  };
}
