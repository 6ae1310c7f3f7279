// Casts to and from `time(p) with time zone`, as Trino casts: text and plain times without an offset
// take the session zone's offset at the query's start (the analyzer puts it on the cast as a fixed
// offset such as '+09:00'); a zoned timestamp gives its wall-clock time and its offset at that
// instant; a zoned time gives a plain time through its wall clock. Fractions round half up, and a
// time rounded past midnight wraps to 00:00 as in Trino.

import { EngineError } from '../errors/engine-error.js';
import type { Scalar } from './scalar.js';
import { MICROS_PER_DAY } from './datetime.js';
import { packZonedParts, zonedParts } from './long-zoned-timestamp.js';
import { localMillis, offsetMillisAt, offsetZoneKey, zoneKeyOf } from './time-zones.js';
import type { SqlType } from './types.js';
import {
  PICOS_PER_DAY,
  invalidZonedTime,
  packZonedTime,
  parseZonedTime,
  rescaleZonedTime,
  roundPicosOfDay,
  zonedTimeOffset,
  zonedTimePicos,
} from './zoned-time.js';

type Cast = (value: never) => Scalar;

const PICOS_PER_MICRO = 1_000_000n;
const PICOS_PER_MILLI = 1_000_000_000n;
const MILLIS_PER_DAY = 86_400_000;

/** Whether a cast between these types involving a zoned time exists. */
export function canCastZonedTime(from: SqlType, to: SqlType): boolean {
  if (from.kind === 'time with time zone')
    return ['time with time zone', 'time', 'timestamp', 'timestamp with time zone', 'varchar', 'char'].includes(to.kind);
  return ['time with time zone', 'time', 'timestamp with time zone', 'varchar', 'char'].includes(from.kind);
}

/** Whether the cast reads the session zone's offset (the analyzer then records it on the cast). */
export function castNeedsSessionOffset(from: SqlType, to: SqlType): boolean {
  return to.kind === 'time with time zone' && (from.kind === 'time' || from.kind === 'varchar' || from.kind === 'char');
}

/** Whether the cast reads the date the query started on in the session zone (Trino puts a time on that day). */
export function castNeedsSessionDate(from: SqlType, to: SqlType): boolean {
  return from.kind === 'time with time zone' && (to.kind === 'timestamp' || to.kind === 'timestamp with time zone');
}

/**
 * The cast of one non-null value. `session` is the session offset ('+09:00') where castNeedsSessionOffset,
 * the session's start date in epoch days where castNeedsSessionDate.
 */
export function zonedTimeCast(from: SqlType, to: SqlType, session: string | undefined): Cast {
  if (castNeedsSessionDate(from, to)) {
    if (session === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `cast to ${to.kind} needs the session date`);
    return toTimestamp(to, Number(session));
  }
  if (from.kind === 'time with time zone') return fromZonedTime(to);
  const sessionOffset = session;
  if (to.kind !== 'time with time zone') throw new EngineError('GENERIC_INTERNAL_ERROR', 'not a zoned time cast');
  const precision = to.precision;
  if (from.kind === 'timestamp with time zone') {
    const fromPrecision = from.precision;
    return ((v: bigint) => {
      const { millis, picos, key } = zonedParts(v, fromPrecision);
      const local = localMillis(key, millis);
      const millisOfDay = local - Math.floor(local / MILLIS_PER_DAY) * MILLIS_PER_DAY;
      const picosOfDay = roundPicosOfDay(BigInt(millisOfDay) * PICOS_PER_MILLI + BigInt(picos), precision);
      // Trino takes the offset at the instant whose UTC reading is this wall clock (not at the value's instant).
      return packZonedTime(picosOfDay, offsetMillisAt(key, local) / 60_000);
    }) as Cast;
  }
  const missingOffset = () =>
    new EngineError('GENERIC_INTERNAL_ERROR', `cast from ${from.kind} to time with time zone needs the session offset`);
  const offset = sessionOffset === undefined ? undefined : offsetMillisAt(zoneKeyOf(sessionOffset), 0) / 60_000;
  if (from.kind === 'time') {
    if (offset === undefined) throw missingOffset();
    return ((micros: number) => packZonedTime(roundPicosOfDay(BigInt(micros) * PICOS_PER_MICRO, precision), offset)) as Cast;
  }
  // Text: the session offset only where the text has none (a literal always has one).
  return ((text: string) => {
    const parsed = parseZonedTime(text);
    if (parsed === undefined) throw invalidZonedTime(text);
    const textOffset = parsed.offsetMinutes ?? offset;
    if (textOffset === undefined) throw missingOffset();
    return packZonedTime(roundPicosOfDay(parsed.picos, precision), textOffset);
  }) as Cast;
}

/**
 * A zoned time on the session's start date: a plain timestamp of its wall clock; a zoned timestamp at
 * its offset of the time at +00:00 on that date (Trino's casts, both rounding to the target).
 */
function toTimestamp(to: SqlType, epochDay: number): Cast {
  const precision = (to as { precision: number }).precision;
  const dayPicos = BigInt(epochDay) * PICOS_PER_DAY;
  if (to.kind === 'timestamp') {
    return ((v: bigint) => Number((dayPicos + roundPicos(zonedTimePicos(v), precision)) / PICOS_PER_MICRO)) as Cast;
  }
  return ((v: bigint) => {
    const picos = dayPicos + roundPicos(v >> 12n, precision);
    const millis = picos / PICOS_PER_MILLI;
    return packZonedParts(
      { millis: Number(millis), picos: Number(picos - millis * PICOS_PER_MILLI), key: offsetZoneKey(zonedTimeOffset(v)) },
      precision,
    );
  }) as Cast;
}

/** Picoseconds rounded half up to `precision` digits (no wrap at midnight: the day moves on). */
function roundPicos(picos: bigint, precision: number): bigint {
  const unit = 10n ** BigInt(12 - precision);
  return ((picos + unit / 2n) / unit) * unit;
}

function fromZonedTime(to: SqlType): Cast {
  switch (to.kind) {
    case 'time with time zone': {
      const precision = to.precision;
      return ((v: bigint) => rescaleZonedTime(v, precision)) as Cast;
    }
    case 'time': {
      // A plain time holds microseconds: the wall clock rounded to the target's precision (at most 6).
      const precision = Math.min(to.precision, 6);
      return ((v: bigint) => Number(roundPicosOfDay(zonedTimePicos(v), precision) / PICOS_PER_MICRO) % MICROS_PER_DAY) as Cast;
    }
    default:
      throw new EngineError('TYPE_MISMATCH', `Cannot cast time with time zone to ${to.kind}`);
  }
}
