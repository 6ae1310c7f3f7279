// Creates or updates the objects a cluster owns so they match what the operator wants: each carries
// the hash of its desired form, and is written again only when that changes (the API server's
// defaults never make it look different). A conflict is retried on a fresh read.
import type * as k8s from '@kubernetes/client-node';
import { annotations } from '../api/names.js';
import { hashOf } from '../resources/spec-hash.js';
import { isConflict, isNotFound, type Kube } from './clients.js';

interface ObjectWithMeta {
  metadata?: k8s.V1ObjectMeta;
}

export interface KindApi<T extends ObjectWithMeta> {
  kind: string;
  read(namespace: string, name: string): Promise<T>;
  create(namespace: string, body: T): Promise<T>;
  replace(namespace: string, name: string, body: T): Promise<T>;
  /** Fields the server set that must be kept on a replace (a Service's clusterIP). */
  carry?(existing: T, desired: T): T;
}

export type EnsureResult<T> = { object: T; action: 'created' | 'updated' | 'unchanged' };

const attempts = 4;

export async function ensure<T extends ObjectWithMeta>(api: KindApi<T>, desired: T): Promise<EnsureResult<T>> {
  const meta = desired.metadata!;
  const namespace = meta.namespace!;
  const name = meta.name!;
  const hash = hashOf(desired);
  const wanted: T = { ...desired, metadata: { ...meta, annotations: { ...meta.annotations, [annotations.specHash]: hash } } };
  for (let attempt = 1; ; attempt++) {
    let existing: T;
    try {
      existing = await api.read(namespace, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        return { object: await api.create(namespace, wanted), action: 'created' };
      } catch (createErr) {
        if (isConflict(createErr) && attempt < attempts) continue;
        throw createErr;
      }
    }
    if (existing.metadata?.annotations?.[annotations.specHash] === hash) return { object: existing, action: 'unchanged' };
    const body = api.carry ? api.carry(existing, wanted) : wanted;
    body.metadata = {
      ...body.metadata,
      resourceVersion: existing.metadata!.resourceVersion,
      annotations: { ...existing.metadata?.annotations, ...body.metadata?.annotations },
    };
    try {
      return { object: await api.replace(namespace, name, body), action: 'updated' };
    } catch (err) {
      if (isConflict(err) && attempt < attempts) continue;
      throw err;
    }
  }
}

export function kindApis(kube: Kube) {
  const configMaps: KindApi<k8s.V1ConfigMap> = {
    kind: 'ConfigMap',
    read: (namespace, name) => kube.core.readNamespacedConfigMap({ namespace, name }),
    create: (namespace, body) => kube.core.createNamespacedConfigMap({ namespace, body }),
    replace: (namespace, name, body) => kube.core.replaceNamespacedConfigMap({ namespace, name, body }),
  };
  const services: KindApi<k8s.V1Service> = {
    kind: 'Service',
    read: (namespace, name) => kube.core.readNamespacedService({ namespace, name }),
    create: (namespace, body) => kube.core.createNamespacedService({ namespace, body }),
    replace: (namespace, name, body) => kube.core.replaceNamespacedService({ namespace, name, body }),
    carry: (existing, desired) => {
      const ports = (desired.spec?.ports ?? []).map((p) => {
        const before = existing.spec?.ports?.find((e) => e.name === p.name);
        return p.nodePort === undefined && before?.nodePort !== undefined && desired.spec?.type !== 'ClusterIP'
          ? { ...p, nodePort: before.nodePort }
          : p;
      });
      return { ...desired, spec: { ...desired.spec, clusterIP: existing.spec?.clusterIP, clusterIPs: existing.spec?.clusterIPs, ports } };
    },
  };
  const deployments: KindApi<k8s.V1Deployment> = {
    kind: 'Deployment',
    read: (namespace, name) => kube.apps.readNamespacedDeployment({ namespace, name }),
    create: (namespace, body) => kube.apps.createNamespacedDeployment({ namespace, body }),
    replace: (namespace, name, body) => kube.apps.replaceNamespacedDeployment({ namespace, name, body }),
  };
  const disruptionBudgets: KindApi<k8s.V1PodDisruptionBudget> = {
    kind: 'PodDisruptionBudget',
    read: (namespace, name) => kube.policy.readNamespacedPodDisruptionBudget({ namespace, name }),
    create: (namespace, body) => kube.policy.createNamespacedPodDisruptionBudget({ namespace, body }),
    replace: (namespace, name, body) => kube.policy.replaceNamespacedPodDisruptionBudget({ namespace, name, body }),
  };
  return { configMaps, services, deployments, disruptionBudgets };
}
