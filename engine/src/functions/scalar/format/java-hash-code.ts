// Java's hashCode() of the values format() passes (java-values.ts), for %h: Long and Double fold
// their 64 bits, Float is its bits, Boolean 1231/1237, String the 31-polynomial of its UTF-16
// units, BigDecimal 31 * hash(unscaled) + scale (BigInteger's hash: the 31-polynomial of its 32-bit
// magnitude words, times its sign), and java.time's LocalDate, LocalTime, LocalDateTime and
// ZonedDateTime as their classes define them.

import { daysToCivil } from '../../../types/datetime.js';
import type { JavaValue } from './java-values.js';

const int = (n: number) => n | 0;

/** Long.hashCode: the int of value ^ (value >>> 32). */
function longHash(value: bigint): number {
  const bits = BigInt.asUintN(64, value);
  return Number(BigInt.asIntN(32, bits ^ (bits >> 32n)));
}

/** String.hashCode over UTF-16 code units. */
export function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = int(Math.imul(31, hash) + text.charCodeAt(i));
  return hash;
}

function doubleHash(value: number, float: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  // floatToIntBits and doubleToLongBits: one canonical NaN.
  if (Number.isNaN(value)) return float ? 0x7fc00000 : longHash(0x7ff8000000000000n);
  if (float) {
    view.setFloat32(0, value);
    return view.getInt32(0);
  }
  view.setFloat64(0, value);
  return longHash(view.getBigInt64(0));
}

function bigDecimalHash(unscaled: bigint, scale: number): number {
  let magnitude = unscaled < 0n ? -unscaled : unscaled;
  const words: number[] = [];
  while (magnitude > 0n) {
    words.unshift(Number(magnitude & 0xffffffffn));
    magnitude >>= 32n;
  }
  let hash = 0;
  for (const word of words) hash = int(Math.imul(31, hash) + word);
  return int(Math.imul(31, unscaled < 0n ? -hash : hash) + scale);
}

function localDateHash(days: number): number {
  const { year, month, day } = daysToCivil(days);
  return (year & 0xfffff800) ^ int((year << 11) + (month << 6) + day);
}

const localTimeHash = (nanosOfDay: number) => longHash(BigInt(nanosOfDay));

/** The value's Java hashCode() as a signed 32-bit integer (null hashes nothing: %h prints "null"). */
export function javaHashCode(value: Exclude<JavaValue, { kind: 'null' }>): number {
  switch (value.kind) {
    case 'long':
      return longHash(value.value);
    case 'double':
      return doubleHash(value.value, value.float);
    case 'decimal':
      return bigDecimalHash(value.unscaled, value.scale);
    case 'string':
      return stringHash(value.value);
    case 'boolean':
      return value.value ? 1231 : 1237;
    case 'date':
      return localDateHash(value.days);
    case 'time':
      return localTimeHash(value.nanosOfDay);
    case 'datetime':
      return localDateHash(value.days) ^ localTimeHash(value.nanosOfDay);
    case 'zoned': {
      const zone = value.zoneIsOffset ? value.offsetSeconds : stringHash(value.zoneId);
      const rotated = (zone << 3) | (zone >>> 29);
      return localDateHash(value.days) ^ localTimeHash(value.nanosOfDay) ^ value.offsetSeconds ^ rotated;
    }
  }
}
