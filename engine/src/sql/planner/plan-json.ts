// A plan (or a fragment of one) as JSON, and back: plans are plain data (functions are named, see
// function-handles.ts), so only the values JSON cannot spell need a tag: bigints (bigint and
// decimal constants, frame offsets), byte arrays (varbinary), and the numbers JSON has no literal
// for (NaN, ±Infinity such as a LIMIT-less OFFSET's count, and -0).

import { EngineError } from '../../errors/engine-error.js';
import { parseDeep, stringifyDeep } from './deep-json.js';
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
    return parseDeep(json, decodeValue);
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

function decodeValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1) return value;
  const tagged = value as Record<string, unknown>;
  if (typeof tagged.$bigint === 'string') return BigInt(tagged.$bigint);
  if (typeof tagged.$bytes === 'string') return new Uint8Array(Buffer.from(tagged.$bytes, 'base64'));
  if (typeof tagged.$number === 'string') return Number(tagged.$number);
  return value;
}
