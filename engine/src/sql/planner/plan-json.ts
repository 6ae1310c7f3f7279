// A plan (or a fragment of one) as JSON, and back: plans are plain data (functions are named, see
// function-handles.ts), so only the values JSON cannot spell need a tag: bigints (bigint and
// decimal constants, frame offsets), byte arrays (varbinary), and the numbers JSON has no literal
// for (NaN, ±Infinity such as a LIMIT-less OFFSET's count, and -0).

import { EngineError } from '../../errors/engine-error.js';
import { stringifyDeep } from './deep-json.js';
import { MapValue } from '../../types/map-value.js';
import type { Scalar } from '../../types/scalar.js';
import type { PlanNode } from './plan.js';

type Tagged = { $bigint: string } | { $bytes: string } | { $number: string } | { $int64s: string };

/**
 * A list of at least this many bigints, all safe integers, goes as one tag of their decimal digits
 * joined by commas: a dynamic filter's 50,000 keys as tagged bigints took a worker's loop some 40 ms
 * to parse and decode (an object and a BigInt parsed from a string per key), and the coordinator as
 * long to write (a call of the replacer per key, which a list of numbers would still make).
 */
const MIN_PACKED_INT64S = 16;

/** The JSON Schema of a packed list of bigints, for a message checked before its tags are decoded. */
export const PACKED_INT64S_SCHEMA = {
  type: 'object',
  required: ['$int64s'],
  additionalProperties: false,
  properties: { $int64s: { type: 'string' } },
};

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
  if (Array.isArray(value) && value.length >= MIN_PACKED_INT64S && typeof value[0] === 'bigint') return packedInt64s(value);
  if (typeof value === 'bigint') return { $bigint: value.toString() } satisfies Tagged;
  if (value instanceof Uint8Array)
    return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') } satisfies Tagged;
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0)))
    return { $number: Object.is(value, -0) ? '-0' : String(value) } satisfies Tagged;
  return value;
}

/** A list of bigints as one tag of their digits when every one is a safe integer, else as it is (each bigint then tagged). */
function packedInt64s(values: readonly unknown[]): unknown {
  const numbers = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'bigint' || v > MAX_SAFE || v < -MAX_SAFE) return values;
    numbers[i] = Number(v);
  }
  return { $int64s: numbers.join(',') } satisfies Tagged;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The bigints of a packed list; undefined when it is not one of safe integers (the object then stays as it is). */
function unpackedInt64s(text: unknown): bigint[] | undefined {
  if (typeof text !== 'string') return undefined;
  // Numbers parse natively; a BigInt made from a number is cheap, one parsed from a string is not.
  let numbers: unknown[];
  try {
    numbers = JSON.parse(`[${text}]`) as unknown[];
  } catch {
    return undefined;
  }
  const values = new Array<bigint>(numbers.length);
  for (let i = 0; i < numbers.length; i++) {
    const n: unknown = numbers[i];
    if (!Number.isSafeInteger(n)) return undefined;
    values[i] = BigInt(n as number);
  }
  return values;
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
  if (
    object.$bigint === undefined &&
    object.$bytes === undefined &&
    object.$number === undefined &&
    object.$map === undefined &&
    object.$int64s === undefined
  )
    return object;
  if (Object.keys(object).length !== 1) return object;
  if (typeof object.$bigint === 'string') return BigInt(object.$bigint);
  if (typeof object.$bytes === 'string') return new Uint8Array(Buffer.from(object.$bytes, 'base64'));
  if (typeof object.$number === 'string') return Number(object.$number);
  if (object.$int64s !== undefined) return unpackedInt64s(object.$int64s) ?? object;
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
