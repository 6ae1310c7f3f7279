// Casts to and from `timestamp(p) with time zone`, as Trino casts: a zoned value becomes a plain
// timestamp, date or time through its wall clock in its own zone; a plain timestamp or date (or a
// text without a zone) becomes zoned in the session time zone, which the analyzer puts on the cast.

import { EngineError } from '../errors/engine-error.js';
import type { Scalar } from '../spi/page.js';
import { MICROS_PER_DAY, MICROS_PER_MILLI, MILLIS_PER_DAY, roundMicros } from './datetime.js';
import { instantOfLocal, zoneKeyOf } from './time-zones.js';
import type { SqlType } from './types.js';
import { packZoned, parseZoned, roundMillis, zonedKey, zonedLocalMillis, zonedMillis } from './zoned-timestamp.js';

type Cast = (value: never) => Scalar;

/** Whether the cast reads the session time zone (the analyzer then records it on the cast). */
export function castNeedsSessionZone(from: SqlType, to: SqlType): boolean {
  return to.kind === 'timestamp with time zone' && (from.kind === 'timestamp' || from.kind === 'date' || from.kind === 'varchar' || from.kind === 'char');
}

/** Whether a cast between these types involving a zoned timestamp exists. */
export function canCastZoned(from: SqlType, to: SqlType): boolean {
  if (from.kind === 'timestamp with time zone') return ['timestamp with time zone', 'timestamp', 'date', 'time', 'varchar', 'char'].includes(to.kind);
  return from.kind === 'timestamp' || from.kind === 'date' || from.kind === 'varchar' || from.kind === 'char';
}

/** The cast of one non-null value; `sessionZone` is required where castNeedsSessionZone. */
export function zonedCast(from: SqlType, to: SqlType, sessionZone: string | undefined): Cast {
  if (from.kind === 'timestamp with time zone') return fromZoned(from.precision, to);
  if (to.kind !== 'timestamp with time zone') throw new EngineError('GENERIC_INTERNAL_ERROR', 'not a zoned cast');
  const precision = to.precision;
  if (from.kind === 'varchar' || from.kind === 'char') {
    const defaultKey = sessionZone === undefined ? undefined : zoneKeyOf(sessionZone);
    return ((text: string) => {
      const parsed = parseZoned(text, defaultKey);
      return packZoned(roundMillis(zonedMillis(parsed.packed), precision), zonedKey(parsed.packed));
    }) as Cast;
  }
  if (sessionZone === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `cast from ${from.kind} to timestamp with time zone needs the session time zone`);
  const key = zoneKeyOf(sessionZone);
  if (from.kind === 'date') return ((days: number) => packZoned(localToInstant(key, days * MILLIS_PER_DAY), key)) as Cast;
  return ((micros: number) => packZoned(localToInstant(key, roundMillis(Math.floor(roundMicros(micros, 3) / MICROS_PER_MILLI), precision)), key)) as Cast;
}

/** A wall-clock time in a zone as an instant; a time in a daylight-saving gap moves forward (java.time). */
export function localToInstant(key: number, localMillis: number): number {
  return instantOfLocal(key, localMillis, 'shift') as number;
}

function fromZoned(fromPrecision: number, to: SqlType): Cast {
  switch (to.kind) {
    case 'timestamp with time zone': {
      const precision = to.precision;
      if (precision >= fromPrecision) return ((v: bigint) => v) as Cast;
      return ((v: bigint) => packZoned(roundMillis(zonedMillis(v), precision), zonedKey(v))) as Cast;
    }
    case 'timestamp': {
      const precision = to.precision;
      return ((v: bigint) => roundMicros(zonedLocalMillis(v) * MICROS_PER_MILLI, precision)) as Cast;
    }
    case 'date':
      return ((v: bigint) => Math.floor(zonedLocalMillis(v) / MILLIS_PER_DAY)) as Cast;
    case 'time': {
      const precision = to.precision;
      return ((v: bigint) => {
        const local = zonedLocalMillis(v) * MICROS_PER_MILLI;
        return roundMicros(local - Math.floor(local / MICROS_PER_DAY) * MICROS_PER_DAY, precision) % MICROS_PER_DAY;
      }) as Cast;
    }
    default:
      throw new EngineError('TYPE_MISMATCH', `Cannot cast timestamp(${fromPrecision}) with time zone to ${to.kind}`);
  }
}
