// Worker pods, made one by one by the operator (it chooses which one goes, so no ReplicaSet). Each
// carries the hash of its template: a change of image, configuration or anything else in it makes
// the running pods outdated, and they are rolled.
import type { V1Pod } from '@kubernetes/client-node';
import type { EngineCluster } from '../api/engine-cluster.js';
import { annotations, clusterNames, labels, roleLabels } from '../api/names.js';
import { enginePodSpec } from './engine-pod.js';
import { ownedMetadata } from './owner.js';
import { hashOf } from './spec-hash.js';

export interface WorkerTemplate {
  pod: V1Pod;
  hash: string;
}

/** The pod every worker should be now; `configHash` is the hash of worker.json, so its change rolls them. */
export function workerTemplate(cluster: EngineCluster, discoveryUri: string, configHash: string): WorkerTemplate {
  const spec = enginePodSpec(cluster, 'worker', discoveryUri);
  const podAnnotations = { [annotations.configHash]: configHash };
  const hash = hashOf({ spec, podAnnotations });
  const metadata = ownedMetadata(cluster, '', { ...roleLabels(cluster, 'worker'), [labels.templateHash]: hash }, podAnnotations);
  delete metadata.name;
  metadata.generateName = clusterNames(cluster.metadata.name!).workerPrefix;
  return { pod: { apiVersion: 'v1', kind: 'Pod', metadata, spec }, hash };
}
