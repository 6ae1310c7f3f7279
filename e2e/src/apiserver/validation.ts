// Update rules of the built-in kinds that controllers and the kubelet depend on: a pod's spec is
// fixed once created (but for images and a few fields), as are a workload's selector and a
// Service's type-independent identity fields.
import type { ResourceType } from './registry.js';
import type { FieldError } from './status.js';
import { clone, type JsonObject, type KubeObject } from './types.js';

const podUpdateMessage =
  'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** The pod spec without the fields an update may change. */
function fixedPodSpec(spec: JsonObject | undefined): string {
  const s = clone(spec ?? {});
  for (const list of ['containers', 'initContainers'] as const) for (const c of (s[list] as JsonObject[] | undefined) ?? []) delete c.image;
  delete s.activeDeadlineSeconds;
  delete s.tolerations;
  delete s.terminationGracePeriodSeconds;
  return JSON.stringify(s);
}

export function immutableFieldErrors(t: ResourceType, old: KubeObject, next: KubeObject): FieldError[] {
  if (t.crdName) return [];
  const spec = (o: KubeObject) => o.spec as JsonObject | undefined;
  if (t.kind === 'Pod' && fixedPodSpec(spec(old)) !== fixedPodSpec(spec(next)))
    return [{ field: 'spec', reason: 'FieldValueForbidden', message: podUpdateMessage }];
  if (
    (t.kind === 'Deployment' || t.kind === 'ReplicaSet' || t.kind === 'StatefulSet') &&
    JSON.stringify(spec(old)?.selector) !== JSON.stringify(spec(next)?.selector)
  )
    return [
      {
        field: 'spec.selector',
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(spec(next)?.selector ?? null)}: field is immutable`,
      },
    ];
  return [];
}
