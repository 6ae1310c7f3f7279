// A posted message is a structured clone: typed arrays and bigints survive it, class instances do
// not. A map constant (a MapValue) in a scan pipeline arrives as a plain { keys, values } object;
// this walk makes every constant of a map type (also inside arrays and maps) a MapValue again.

import type { Scalar } from '../../types/scalar.js';
import { MapValue } from '../../types/map-value.js';
import type { SqlType } from '../../types/types.js';

function revive(value: Scalar, type: SqlType): Scalar {
  if (value === null) return null;
  if (type.kind === 'array') return (value as readonly Scalar[]).map((v) => revive(v, type.element));
  if (type.kind !== 'map') return value;
  const { keys, values } = value as { keys: readonly Scalar[]; values: readonly Scalar[] };
  return new MapValue(
    keys.map((k) => revive(k, type.key)),
    values.map((v) => revive(v, type.value)),
  );
}

function hasMap(type: SqlType): boolean {
  return type.kind === 'map' || (type.kind === 'array' && hasMap(type.element));
}

/** Revives the map constants anywhere in `tree` (a posted fragment), in place. */
export function reviveMapConstants(tree: unknown): void {
  const pending: unknown[] = [tree];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) continue;
    if (Array.isArray(node)) {
      for (const child of node) pending.push(child);
      continue;
    }
    const record = node as Record<string, unknown>;
    if (record.kind === 'constant' && typeof record.type === 'object' && hasMap(record.type as SqlType)) {
      record.value = revive(record.value as Scalar, record.type as SqlType);
      continue;
    }
    for (const child of Object.values(record)) pending.push(child);
  }
}
