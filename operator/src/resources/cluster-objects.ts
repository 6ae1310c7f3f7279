// The cluster's ConfigMap (each role's configuration file), its Secret (the shared secret between
// the nodes, generated once) and the workers' PodDisruptionBudget.
import { randomBytes } from 'node:crypto';
import type { V1ConfigMap, V1PodDisruptionBudget, V1Secret } from '@kubernetes/client-node';
import type { EngineCluster } from '../api/engine-cluster.js';
import { clusterLabels, clusterNames, roleLabels, roleSelector } from '../api/names.js';
import { configFileName, configFileText } from './engine-config.js';
import { sharedSecretKey } from './engine-pod.js';
import { ownedMetadata } from './owner.js';

export function configMap(cluster: EngineCluster): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: ownedMetadata(cluster, clusterNames(cluster.metadata.name!).configMap, clusterLabels(cluster)),
    data: {
      [configFileName('coordinator')]: configFileText(cluster, 'coordinator'),
      [configFileName('worker')]: configFileText(cluster, 'worker'),
    },
  };
}

/** A new shared secret: 32 random bytes. Made once; the operator never changes an existing one. */
export function sharedSecret(cluster: EngineCluster): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: ownedMetadata(cluster, clusterNames(cluster.metadata.name!).secret, clusterLabels(cluster)),
    data: { [sharedSecretKey]: Buffer.from(randomBytes(32).toString('base64url')).toString('base64') },
  };
}

/** At most one worker away at a time by voluntary disruption (a node drain of the machine). */
export function workersDisruptionBudget(cluster: EngineCluster): V1PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: ownedMetadata(cluster, clusterNames(cluster.metadata.name!).pdb, roleLabels(cluster, 'worker')),
    spec: { maxUnavailable: 1, selector: { matchLabels: roleSelector(cluster, 'worker') } },
  };
}
