// What the operator makes belongs to its EngineCluster: deleting the cluster deletes it all (the
// garbage collector follows ownerReferences), and a watch event on it names its owner.
import type { V1ObjectMeta, V1OwnerReference } from '@kubernetes/client-node';
import type { EngineCluster } from '../api/engine-cluster.js';

export function ownerReference(cluster: EngineCluster): V1OwnerReference {
  return {
    apiVersion: cluster.apiVersion,
    kind: cluster.kind,
    name: cluster.metadata.name!,
    uid: cluster.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Metadata of an owned object: its name and labels in the cluster's namespace, owned by the cluster. */
export function ownedMetadata(
  cluster: EngineCluster,
  name: string,
  labelSet: Record<string, string>,
  annotationSet?: Record<string, string>,
): V1ObjectMeta {
  return {
    name,
    namespace: cluster.metadata.namespace,
    labels: labelSet,
    ...(annotationSet ? { annotations: annotationSet } : {}),
    ownerReferences: [ownerReference(cluster)],
  };
}
