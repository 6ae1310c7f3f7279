// Casts to and from `timestamp(p) with time zone`, as Trino casts: a zoned value becomes a plain
// timestamp, date or time through its wall clock in its own zone; a plain timestamp or date (or a
// text without a zone) becomes zoned in the session time zone, which the analyzer puts on the cast.

import { EngineError } from '../errors/engine-error.js';
import type { Scalar } from './scalar.js';
import { MICROS_PER_DAY, MICROS_PER_MILLI, MILLIS_PER_DAY } from './datetime.js';
import { packZonedParts, rescaleZoned, roundParts, zonedParts } from './long-zoned-timestamp.js';
import { instantOfLocal, localMillis, zoneKeyOf } from './time-zones.js';
import type { SqlType } from './types.js';
import { parseZoned } from './zoned-timestamp.js';

const PICOS_PER_MICRO = 1_000_000;

type Cast = (value: never) => Scalar;

/** Whether the cast reads the session time zone (the analyzer then records it on the cast). */
export function castNeedsSessionZone(from: SqlType, to: SqlType): boolean {
  return (
    to.kind === 'timestamp with time zone' &&
    (from.kind === 'timestamp' || from.kind === 'date' || from.kind === 'varchar' || from.kind === 'char')
  );
}

/** Whether a cast between these types involving a zoned timestamp exists. */
export function canCastZoned(from: SqlType, to: SqlType): boolean {
  if (from.kind === 'timestamp with time zone')
    return ['timestamp with time zone', 'timestamp', 'date', 'time', 'varchar', 'char'].includes(to.kind);
  return from.kind === 'timestamp' || from.kind === 'date' || from.kind === 'varchar' || from.kind === 'char';
}

/** The cast of one non-null value; `sessionZone` is required where castNeedsSessionZone. */
export function zonedCast(from: SqlType, to: SqlType, sessionZone: string | undefined): Cast {
  if (from.kind === 'timestamp with time zone') return fromZoned(from.precision, to);
  if (to.kind !== 'timestamp with time zone') throw new EngineError('GENERIC_INTERNAL_ERROR', 'not a zoned cast');
  const precision = to.precision;
  if (from.kind === 'varchar' || from.kind === 'char') {
    const defaultKey = sessionZone === undefined ? undefined : zoneKeyOf(sessionZone);
    return ((text: string) => packZonedParts(parseZoned(text, defaultKey).parts, precision)) as Cast;
  }
  if (sessionZone === undefined)
    throw new EngineError('GENERIC_INTERNAL_ERROR', `cast from ${from.kind} to timestamp with time zone needs the session time zone`);
  const key = zoneKeyOf(sessionZone);
  if (from.kind === 'date')
    return ((days: number) => packZonedParts({ millis: localToInstant(key, days * MILLIS_PER_DAY), picos: 0, key }, precision)) as Cast;
  return ((micros: number) => localMicrosToZoned(micros, key, precision)) as Cast;
}

/** A plain timestamp's wall clock (micros) in zone `key`, as a zoned value of `precision`; rounded first. */
export function localMicrosToZoned(micros: number, key: number, precision: number): bigint {
  const localMillis = Math.floor(micros / MICROS_PER_MILLI);
  const rounded = roundParts(localMillis, (micros - localMillis * MICROS_PER_MILLI) * PICOS_PER_MICRO, precision);
  return packZonedParts({ millis: localToInstant(key, rounded.millis), picos: rounded.picos, key }, precision);
}

/** A wall-clock time in a zone as an instant; a time in a daylight-saving gap moves forward (java.time). */
export function localToInstant(key: number, localMillis: number): number {
  return instantOfLocal(key, localMillis, 'shift') as number;
}

/** Local wall-clock microseconds of a zoned value, rounded to `precision` (0..6) digits. */
function localMicros(v: bigint, fromPrecision: number, precision: number): number {
  const parts = zonedParts(v, fromPrecision);
  const rounded = roundParts(localMillis(parts.key, parts.millis), parts.picos, Math.min(precision, 12));
  return rounded.millis * MICROS_PER_MILLI + Math.floor(rounded.picos / PICOS_PER_MICRO);
}

function fromZoned(fromPrecision: number, to: SqlType): Cast {
  switch (to.kind) {
    case 'timestamp with time zone': {
      const precision = to.precision;
      return ((v: bigint) => rescaleZoned(v, fromPrecision, precision)) as Cast;
    }
    case 'timestamp': {
      const precision = to.precision;
      return ((v: bigint) => localMicros(v, fromPrecision, precision)) as Cast;
    }
    case 'date':
      return ((v: bigint) => Math.floor(localMicros(v, fromPrecision, 12) / MICROS_PER_DAY)) as Cast;
    case 'time': {
      const precision = to.precision;
      return ((v: bigint) => {
        const local = localMicros(v, fromPrecision, precision);
        return local - Math.floor(local / MICROS_PER_DAY) * MICROS_PER_DAY;
      }) as Cast;
    }
    default:
      throw new EngineError('TYPE_MISMATCH', `Cannot cast timestamp(${fromPrecision}) with time zone to ${to.kind}`);
  }
}
