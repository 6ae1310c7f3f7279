// A plan (or a fragment of one) as JSON, and back: plans are plain data (functions are named, see
// function-handles.ts), so only the values JSON cannot spell need a tag: bigints (bigint and
// decimal constants, frame offsets), byte arrays (varbinary), and the numbers JSON has no literal
// for (NaN, ±Infinity such as a LIMIT-less OFFSET's count, and -0).

import { EngineError } from '../../errors/engine-error.js';
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
  return JSON.stringify(value, (_key, v: unknown) => encodeValue(v));
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
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') } satisfies Tagged;
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) return { $number: Object.is(value, -0) ? '-0' : String(value) } satisfies Tagged;
  return value;
}

/** `value` with every tagged object in it replaced by its value (arrays and objects are changed in place). */
function decodeTree(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = decodeTree(value[i]);
    return value;
  }
  const object = value as Record<string, unknown>;
  const decoded = decodeTag(object);
  if (decoded !== object) return decoded;
  for (const key of Object.keys(object)) {
    // Written only where a tag was decoded: most of a document is left as parsed.
    const child = object[key];
    const decodedChild = decodeTree(child);
    if (decodedChild !== child) object[key] = decodedChild;
  }
  return object;
}

/** The value a tagged object stands for, or the object itself (its keys are listed only when it may be a tag). */
function decodeTag(object: Record<string, unknown>): unknown {
  if (object.$bigint === undefined && object.$bytes === undefined && object.$number === undefined) return object;
  if (Object.keys(object).length !== 1) return object;
  if (typeof object.$bigint === 'string') return BigInt(object.$bigint);
  if (typeof object.$bytes === 'string') return new Uint8Array(Buffer.from(object.$bytes, 'base64'));
  if (typeof object.$number === 'string') return Number(object.$number);
  return object;
}
