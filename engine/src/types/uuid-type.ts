// Trino's uuid type. A value is held as its canonical text (lowercase, dashes at 8, 13, 18, 23):
// text order is then the order of its 16 bytes, Trino's uuid order, and its bytes (CAST to
// varbinary) are the hex digits in order.

import { randomUUID } from 'node:crypto';
import { EngineError } from '../errors/engine-error.js';

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What Java's UUID.fromString parses (five groups of hex digits), which Trino then requires 36 characters of. */
const UUID_GROUPS = /^[0-9a-f]{1,8}-[0-9a-f]{1,4}-[0-9a-f]{1,4}-[0-9a-f]{1,4}-[0-9a-f]{1,12}$/i;

export function randomUuid(): string {
  return randomUUID();
}

/** CAST(varchar AS uuid), with Trino's errors. */
export function uuidFromText(text: string): string {
  if (CANONICAL.test(text)) return text.toLowerCase();
  if (UUID_GROUPS.test(text)) throw new EngineError('INVALID_CAST_ARGUMENT', `Invalid UUID string length: ${text.length}`);
  throw new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast value to UUID: ${text}`);
}

/** CAST(varbinary AS uuid). */
export function uuidFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new EngineError('INVALID_CAST_ARGUMENT', `Invalid UUID binary length: ${bytes.length}`);
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** CAST(uuid AS varbinary). */
export function uuidToBytes(uuid: string): Uint8Array {
  return Uint8Array.from(Buffer.from(uuid.replace(/-/g, ''), 'hex'));
}
