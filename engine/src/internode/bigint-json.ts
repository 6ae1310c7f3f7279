// JSON with 64-bit integers written exactly: a bigint becomes a JSON number with all its digits
// (JSON.stringify cannot write one, and a double would round 9223372036854775807 to ...6000).

import { randomBytes } from 'node:crypto';

/** A marker no other string value can hold: it is random per process. */
const MARKER = `bigint-${randomBytes(8).toString('hex')}:`;
const MARKED = new RegExp(`"${MARKER}(-?\\d+)"`, 'g');

export function stringifyWithBigints(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${MARKER}${v}` : v));
  return text.replace(MARKED, '$1');
}
