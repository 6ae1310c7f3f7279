// Result values on the wire. Bigints beyond 2^53 stay exact: Trino writes every 64-bit integer as
// its exact digits, and JDBC or Python clients read them back into 64-bit integers.

import type { Scalar } from '../exec/page.js';
import type { SqlType } from '../types/types.js';
import { toJsonValue } from '../types/values.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** A result value as JSON; a bigint outside the doubles' exact range stays a bigint. */
export function resultJsonValue(value: Scalar, type: SqlType): unknown {
  if (typeof value === 'bigint' && type.kind === 'bigint' && (value > MAX_SAFE || value < MIN_SAFE)) return value;
  return toJsonValue(value, type);
}

/** JSON text like JSON.stringify's, with bigints written as exact integers. */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return writeValue(value) ?? 'null';
  }
}

function writeValue(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((v) => writeValue(v) ?? 'null').join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members: string[] = [];
    for (const [key, v] of Object.entries(value)) {
      const text = writeValue(v);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
