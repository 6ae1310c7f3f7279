// Controller references: which object controls which, and the adopt/release rules of
// ControllerRefManager (an orphan matching the selector is adopted, an owned object that no
// longer matches is released; nothing is adopted while the owner is being deleted).
import type { KubeObject, OwnerReference } from '../apiserver/types.js';
import type { Kind, Objects } from '../cluster/objects.js';

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller);
}

export function controllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The objects `owner` controls after adopting orphans and releasing the ones it no longer selects. */
export function claim(
  objects: Objects,
  kind: Kind,
  owner: KubeObject,
  candidates: KubeObject[],
  selects: (obj: KubeObject) => boolean,
): KubeObject[] {
  const uid = owner.metadata.uid;
  const owned: KubeObject[] = [];
  for (const obj of candidates) {
    const ref = controllerOf(obj);
    if (ref && ref.uid !== uid) continue;
    if (ref) {
      if (selects(obj)) owned.push(obj);
      else if (!obj.metadata.deletionTimestamp) {
        obj.metadata.ownerReferences = obj.metadata.ownerReferences!.filter((r) => r.uid !== uid);
        objects.update(kind, obj);
      }
    } else if (selects(obj) && !owner.metadata.deletionTimestamp && !obj.metadata.deletionTimestamp) {
      obj.metadata.ownerReferences = [...(obj.metadata.ownerReferences ?? []), controllerRef(owner)];
      owned.push(objects.update(kind, obj));
    }
  }
  return owned;
}
