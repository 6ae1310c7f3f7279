// A plan (or a fragment of one) as JSON, and back: plans are plain data (functions are named, see
// function-handles.ts), so only the values JSON cannot spell need a tag: bigints (bigint and
// decimal constants, frame offsets), byte arrays (varbinary), and the numbers JSON has no literal
// for (NaN, ±Infinity such as a LIMIT-less OFFSET's count, and -0).

import { EngineError } from '../../errors/engine-error.js';
import { stringifyDeep } from './deep-json.js';
import { MapValue } from '../../types/map-value.js';
import type { Scalar } from '../../types/scalar.js';
import type { PlanNode } from './plan.js';

type Tagged = { $bigint: string } | { $bytes: string } | { $number: string };

export function planToJson(plan: PlanNode): string {
  return toTaggedJson(plan);
}

export function planFromJson(json: string): PlanNode {
  return fromTaggedJson(json, 'plan') as PlanNode;
}

/** Any plain value holding plan data (a task request: fragment, splits, constants) as tagged JSON. */
export function toTaggedJson(value: unknown): string {
  return stringifyDeep(value, (_key, v: unknown) => encodeValue(v));
}

export function fromTaggedJson(json: string, what: string): unknown {
  try {
    // A walk over the parsed tree decodes the tags in a third of the time a JSON.parse reviver takes.
    return decodeTree(JSON.parse(json));
  } catch (e) {
    throw new EngineError('GENERIC_INTERNAL_ERROR', `Malformed ${what} JSON: ${(e as Error).message}`);
  }
}

function encodeValue(value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() } satisfies Tagged;
  if (value instanceof Uint8Array)
    return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') } satisfies Tagged;
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0)))
    return { $number: Object.is(value, -0) ? '-0' : String(value) } satisfies Tagged;
  return value;
}

/**
 * `value` with every tagged object in it replaced by its value (arrays and objects are changed in
 * place), walked with a stack of its own: a plan may nest deeper than the call stack goes.
 */
function decodeTree(value: unknown): unknown {
  const root: Record<string, unknown> = { value };
  const pending: Array<[holder: Record<string | number, unknown>, key: string | number]> = [[root, 'value']];
  while (pending.length > 0) {
    const [holder, key] = pending.pop()!;
    const child = holder[key];
    if (child === null || typeof child !== 'object') continue;
    if (Array.isArray(child)) {
      for (let i = 0; i < child.length; i++) pending.push([child as unknown as Record<number, unknown>, i]);
      continue;
    }
    const object = child as Record<string, unknown>;
    const decoded = decodeTag(object);
    // Written only where a tag was decoded: most of a document is left as parsed.
    if (decoded !== object) holder[key] = decoded;
    else for (const name of Object.keys(object)) pending.push([object, name]);
  }
  return root.value;
}

/** The value a tagged object stands for, or the object itself (its keys are listed only when it may be a tag). */
function decodeTag(object: Record<string, unknown>): unknown {
  if (object.$bigint === undefined && object.$bytes === undefined && object.$number === undefined && object.$map === undefined)
    return object;
  if (Object.keys(object).length !== 1) return object;
  if (typeof object.$bigint === 'string') return BigInt(object.$bigint);
  if (typeof object.$bytes === 'string') return new Uint8Array(Buffer.from(object.$bytes, 'base64'));
  if (typeof object.$number === 'string') return Number(object.$number);
  if (Array.isArray(object.$map)) return new MapValue(decodeTree(object.$map[0]) as Scalar[], decodeTree(object.$map[1]) as Scalar[]);
  return object;
}

/** `value` as plain JSON data with its tags (for a field of a message otherwise written without them). */
export function toTaggedValue(value: unknown): unknown {
  return JSON.parse(toTaggedJson(value));
}

/** The inverse of toTaggedValue: `value`'s tags decoded (in place). */
export function fromTaggedValue(value: unknown): unknown {
  return decodeTree(value);
}
