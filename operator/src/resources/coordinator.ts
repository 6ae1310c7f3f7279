// The coordinator: a Deployment of one pod (Recreate: two coordinators at once would split the
// workers between them) and the Service clients and workers reach it through.
import type { V1Deployment, V1Service } from '@kubernetes/client-node';
import type { EngineCluster } from '../api/engine-cluster.js';
import { annotations, clusterLabels, clusterNames, roleLabels, roleSelector } from '../api/names.js';
import { enginePodSpec } from './engine-pod.js';
import { servingPort } from './node-addresses.js';
import { ownedMetadata } from './owner.js';

export function coordinatorDeployment(cluster: EngineCluster, configHash: string): V1Deployment {
  const names = clusterNames(cluster.metadata.name!);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: ownedMetadata(cluster, names.coordinator, roleLabels(cluster, 'coordinator')),
    spec: {
      replicas: 1,
      strategy: { type: 'Recreate' },
      selector: { matchLabels: roleSelector(cluster, 'coordinator') },
      template: {
        metadata: { labels: roleLabels(cluster, 'coordinator'), annotations: { [annotations.configHash]: configHash } },
        spec: enginePodSpec(cluster, 'coordinator'),
      },
    },
  };
}

export function coordinatorService(cluster: EngineCluster): V1Service {
  const names = clusterNames(cluster.metadata.name!);
  const service = cluster.spec.coordinator.service;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: ownedMetadata(cluster, names.service, clusterLabels(cluster)),
    spec: {
      type: service.type,
      selector: roleSelector(cluster, 'coordinator'),
      ports: [
        {
          name: servingPort(cluster).name,
          port: service.port,
          targetPort: servingPort(cluster).name,
          protocol: 'TCP',
          ...(service.nodePort && service.type !== 'ClusterIP' ? { nodePort: service.nodePort } : {}),
        },
      ],
    },
  };
}
