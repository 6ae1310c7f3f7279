// The three patch formats kubectl and helm send: JSON merge patch (RFC 7386), JSON patch
// (RFC 6902) and strategic merge patch (lists merged by their key, with the $patch,
// $setElementOrder and $deleteFromPrimitiveList directives kubectl apply emits).
import { badRequest, ApiError } from './status.js';
import { clone, isPlainObject } from './types.js';

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return clone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? clone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/'))
    throw badRequest(`the server rejected our request due to an error in our request: invalid JSON pointer ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: unknown, parts: string[], path: string): { parent: Record<string, unknown> | unknown[]; key: string } {
  let node: unknown = doc;
  for (const part of parts.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(part)] : isPlainObject(node) ? node[part] : undefined;
    if (node === undefined)
      throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: doc is missing path: "${path}"`);
  }
  if (!Array.isArray(node) && !isPlainObject(node)) throw new ApiError(422, 'Invalid', `doc is missing path: "${path}"`);
  return { parent: node, key: parts[parts.length - 1] };
}

function getAt(doc: unknown, path: string): unknown {
  let node = doc;
  for (const part of pointer(path)) {
    node = Array.isArray(node) ? node[Number(part)] : isPlainObject(node) ? node[part] : undefined;
    if (node === undefined) throw new ApiError(422, 'Invalid', `doc is missing path: "${path}"`);
  }
  return node;
}

function removeAt(doc: unknown, path: string): unknown {
  const { parent, key } = parentOf(doc, pointer(path), path);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!(i >= 0 && i < parent.length)) throw new ApiError(422, 'Invalid', `doc is missing path: "${path}"`);
    return parent.splice(i, 1)[0];
  }
  if (!(key in parent)) throw new ApiError(422, 'Invalid', `doc is missing path: "${path}": missing value`);
  const old = parent[key];
  delete parent[key];
  return old;
}

function addAt(doc: unknown, path: string, value: unknown): unknown {
  const parts = pointer(path);
  if (parts.length === 0) return value;
  const { parent, key } = parentOf(doc, parts, path);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!(i >= 0 && i <= parent.length)) throw new ApiError(422, 'Invalid', `index out of bounds in path: "${path}"`);
    parent.splice(i, 0, value);
  } else parent[key] = value;
  return doc;
}

export function jsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops))
    throw badRequest('the server rejected our request due to an error in our request: a JSON patch must be an array of operations');
  let doc = clone(target);
  for (const op of ops as JsonPatchOp[]) {
    switch (op.op) {
      case 'add':
        doc = addAt(doc, op.path, clone(op.value));
        break;
      case 'remove':
        removeAt(doc, op.path);
        break;
      case 'replace':
        removeAt(doc, op.path);
        doc = addAt(doc, op.path, clone(op.value));
        break;
      case 'move':
        doc = addAt(doc, op.path, removeAt(doc, op.from ?? ''));
        break;
      case 'copy':
        doc = addAt(doc, op.path, clone(getAt(doc, op.from ?? '')));
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value))
          throw new ApiError(
            422,
            'Invalid',
            `the server rejected our request due to an error in our request: testing value ${op.path} failed: test failed`,
          );
        break;
      default:
        throw badRequest(
          `the server rejected our request due to an error in our request: Unexpected kind: ${String((op as { op: unknown }).op)}`,
        );
    }
  }
  return doc;
}

/**
 * The merge keys of the built-in kinds' lists (their Go struct tags patchMergeKey /
 * patchStrategy=merge). `ports` depends on its parent: a container's ports merge by
 * containerPort, a Service's by port. Lists not named here are replaced whole.
 */
function mergeKeyFor(field: string, parentField: string | undefined): string | undefined {
  switch (field) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'volumes':
    case 'env':
    case 'imagePullSecrets':
    case 'resourceClaims':
      return 'name';
    case 'volumeMounts':
      return 'mountPath';
    case 'volumeDevices':
      return 'devicePath';
    case 'conditions':
      return 'type';
    case 'ownerReferences':
      return 'uid';
    case 'hostAliases':
      return 'ip';
    case 'topologySpreadConstraints':
      return 'topologyKey';
    case 'ports':
      return parentField === 'containers' || parentField === 'initContainers' || parentField === 'ephemeralContainers'
        ? 'containerPort'
        : parentField === 'spec'
          ? 'port'
          : undefined;
    default:
      return undefined;
  }
}

/** Primitive lists merged as sets. */
const primitiveSetFields = new Set(['finalizers']);

type Obj = Record<string, unknown>;

function mergeList(original: unknown[], patch: unknown[], key: string, field: string, order: unknown[] | undefined): unknown[] {
  const out = original.map((item) => clone(item));
  for (const item of patch) {
    if (!isPlainObject(item))
      throw badRequest(
        `the server rejected our request due to an error in our request: list ${field} merged by key ${key} holds a non-object`,
      );
    const directive = item.$patch;
    const index = out.findIndex((o) => isPlainObject(o) && o[key] === item[key]);
    if (directive === 'delete') {
      if (index >= 0) out.splice(index, 1);
      continue;
    }
    if (index >= 0) out[index] = strategicMerge(out[index], item, field);
    else out.push(strategicMerge({}, item, field));
  }
  if (!order) return out;
  // $setElementOrder: the patch's order first, then the server's items it does not name.
  const rank = (item: unknown) => {
    const i = order.findIndex((o) => isPlainObject(o) && isPlainObject(item) && o[key] === item[key]);
    return i < 0 ? order.length : i;
  };
  return out
    .map((item, i) => ({ item, i }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.i - b.i)
    .map((x) => x.item);
}

/** Applies a strategic merge patch; `parentField` names the field holding `original`. */
export function strategicMerge(original: unknown, patch: unknown, parentField?: string): unknown {
  if (!isPlainObject(patch)) return clone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _, ...rest } = patch;
    return clone(rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Obj = isPlainObject(original) ? clone(original) : {};
  const retainKeys = Array.isArray(patch.$retainKeys) ? (patch.$retainKeys as string[]) : undefined;
  for (const [rawKey, value] of Object.entries(patch)) {
    if (rawKey === '$patch' || rawKey === '$retainKeys' || rawKey.startsWith('$setElementOrder/')) continue;
    if (rawKey.startsWith('$deleteFromPrimitiveList/')) {
      const field = rawKey.slice('$deleteFromPrimitiveList/'.length);
      if (Array.isArray(out[field]) && Array.isArray(value)) out[field] = (out[field] as unknown[]).filter((v) => !value.includes(v));
      continue;
    }
    if (value === null) {
      delete out[rawKey];
      continue;
    }
    const key = mergeKeyFor(rawKey, parentField);
    const order = patch[`$setElementOrder/${rawKey}`] as unknown[] | undefined;
    if (Array.isArray(value) && key && Array.isArray(out[rawKey] ?? [])) {
      const replace = value.some((v) => isPlainObject(v) && v.$patch === 'replace');
      out[rawKey] = replace
        ? value.filter((v) => !(isPlainObject(v) && v.$patch === 'replace'))
        : mergeList((out[rawKey] as unknown[]) ?? [], value, key, rawKey, order);
    } else if (Array.isArray(value) && primitiveSetFields.has(rawKey)) {
      const merged = [...((out[rawKey] as unknown[]) ?? [])];
      for (const v of value) if (!merged.includes(v)) merged.push(v);
      out[rawKey] = merged;
    } else if (isPlainObject(value)) {
      const merged = strategicMerge(out[rawKey], value, rawKey);
      if (merged === undefined) delete out[rawKey];
      else out[rawKey] = merged;
    } else out[rawKey] = clone(value);
  }
  if (retainKeys) for (const k of Object.keys(out)) if (!retainKeys.includes(k)) delete out[k];
  return out;
}
