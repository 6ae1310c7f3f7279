// JSON for plans, expressions and syntax trees, which nest as deep as statements do (1,000 levels,
// each several JSON levels). JSON.stringify recurses in C++ and, with a replacer, calls into JS at
// every level: a thousand-level expression overflows the stack. JSON.parse itself does not recurse,
// but with a reviver it does. These do the same without recursion.

import { isStackOverflow } from '../../errors/engine-error.js';

export type Replacer = (key: string, value: unknown) => unknown;

/** More open arrays and objects than this is a cycle, not a plan. */
const MAX_DEPTH = 1_000_000;

/** JSON.stringify(value, replacer), falling back to a loop where the native one runs out of stack. */
export function stringifyDeep(value: unknown, replacer?: Replacer): string {
  try {
    return JSON.stringify(value, replacer);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return stringifyInLoop(value, replacer);
  }
}

/** JSON.parse(text, reviver) where `reviver` replaces a value without looking at its parent, bottom-up. */
export function parseDeep(text: string, reviver: (value: unknown) => unknown): unknown {
  const root: Record<string, unknown> = { '': JSON.parse(text) };
  // Containers are revived after their contents: each goes on `order` after its parent, and `order` runs backwards.
  const order: Array<[holder: Record<string, unknown> | unknown[], key: string | number]> = [];
  const pending: Array<[holder: Record<string, unknown> | unknown[], key: string | number]> = [[root, '']];
  while (pending.length > 0) {
    const entry = pending.pop()!;
    order.push(entry);
    const [holder, key] = entry;
    const value = (holder as Record<string | number, unknown>)[key];
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) pending.push([value, i]);
    else if (value !== null && typeof value === 'object')
      for (const k of Object.keys(value)) pending.push([value as Record<string, unknown>, k]);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const [holder, key] = order[i];
    const slots = holder as Record<string | number, unknown>;
    slots[key] = reviver(slots[key]);
  }
  return root[''];
}

interface OpenContainer {
  holder: unknown[] | Record<string, unknown>;
  /** The keys of an object; undefined for an array. */
  keys: string[] | undefined;
  next: number;
  written: boolean;
}

/** JSON.stringify's output (own enumerable keys in order, toJSON, the replacer, undefined dropped) built in a loop. */
function stringifyInLoop(root: unknown, replacer?: Replacer): string {
  const out: string[] = [];
  const open: OpenContainer[] = [];
  const prepare = (key: string, value: unknown): unknown => {
    let result = value;
    if (result !== null && typeof result === 'object' && typeof (result as { toJSON?: unknown }).toJSON === 'function') {
      result = (result as { toJSON: (key: string) => unknown }).toJSON(key);
    }
    return replacer ? replacer(key, result) : result;
  };
  /** Writes a primitive or opens a container; false for what JSON leaves out (undefined, functions, symbols). */
  const write = (value: unknown): boolean => {
    if (value === null) out.push('null');
    else if (typeof value === 'string' || typeof value === 'boolean') out.push(JSON.stringify(value));
    else if (typeof value === 'number') out.push(Number.isFinite(value) ? String(value) : 'null');
    else if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    else if (typeof value === 'object') {
      if (open.length >= MAX_DEPTH) throw new TypeError('Converting circular structure to JSON');
      const array = Array.isArray(value);
      out.push(array ? '[' : '{');
      open.push({
        holder: value as unknown[] | Record<string, unknown>,
        keys: array ? undefined : Object.keys(value),
        next: 0,
        written: false,
      });
    } else return false;
    return true;
  };
  if (!write(prepare('', root))) return undefined as unknown as string;
  while (open.length > 0) {
    const container = open[open.length - 1];
    const { holder, keys } = container;
    if (keys === undefined) {
      const items = holder as unknown[];
      if (container.next === items.length) {
        out.push(']');
        open.pop();
        continue;
      }
      const index = container.next++;
      if (index > 0) out.push(',');
      if (!write(prepare(String(index), items[index]))) out.push('null');
      continue;
    }
    if (container.next === keys.length) {
      out.push('}');
      open.pop();
      continue;
    }
    const key = keys[container.next++];
    const value = prepare(key, (holder as Record<string, unknown>)[key]);
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    out.push(`${container.written ? ',' : ''}${JSON.stringify(key)}:`);
    container.written = true;
    write(value);
  }
  return out.join('');
}
