// The autoscaling/v1 Scale subresource of a workload or a custom resource with a scale
// subresource: what `kubectl scale`, the HTTP API and the HPA controller read and write.
import type { Api } from './api.js';
import type { ResourceType } from './registry.js';
import { ApiError } from './status.js';
import { jsonPathGet, jsonPathSet } from './jsonpath.js';
import { appsSelector } from './defaults.js';
import type { KubeObject } from './types.js';

export function scaleOf(type: ResourceType, obj: KubeObject): KubeObject {
  const s = type.scale!;
  // Built-in workloads report their spec.selector; custom resources the path their CRD names.
  const selector = !type.crdName ? appsSelector(obj) : s.labelSelectorPath ? jsonPathGet(obj, s.labelSelectorPath) : undefined;
  const m = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: (jsonPathGet(obj, s.specReplicasPath) as number | undefined) ?? 0 },
    status: {
      replicas: (jsonPathGet(obj, s.statusReplicasPath) as number | undefined) ?? 0,
      ...(typeof selector === 'string' ? { selector } : {}),
    },
  };
}

export function readScale(api: Api, type: ResourceType, namespace: string | undefined, name: string): KubeObject {
  return scaleOf(type, api.get(type, namespace, name));
}

/** Writes spec.replicas through the scale subresource, honouring the Scale's resourceVersion. */
export function writeScale(
  api: Api,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  scale: KubeObject,
  dryRun = false,
): KubeObject {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    throw new ApiError(
      422,
      'Invalid',
      `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
    );
  const obj = api.get(type, namespace, name);
  jsonPathSet(obj as unknown as Record<string, unknown>, type.scale!.specReplicasPath, replicas);
  obj.metadata.resourceVersion = scale.metadata?.resourceVersion || obj.metadata.resourceVersion;
  return scaleOf(type, api.update(type, namespace, name, obj, undefined, dryRun));
}
