// Casts where one side is a long plain timestamp or time (p 7..12, long-plain-temporal.ts), as
// Trino casts: every value goes through its picoseconds and rounds half up to the target; a zoned
// timestamp through its wall clock in its zone; a plain timestamp becomes zoned in the session zone
// (which the analyzer puts on the cast). Text is parsed exactly to 12 fraction digits.

import { EngineError } from '../errors/engine-error.js';
import type { Scalar } from './scalar.js';
import { PICOS_PER_MILLI, packZonedParts, roundParts, zonedParts } from './long-zoned-timestamp.js';
import {
  type ParsedPicos,
  floorDiv,
  isLongPlain,
  parseTimePicos,
  parseTimestampPicos,
  readPicos,
  writePicos,
} from './long-plain-temporal.js';
import { localMillis, offsetMillisAt, zoneKeyOf } from './time-zones.js';
import { type SqlType, typeName } from './types.js';
import { localToInstant } from './zoned-casts.js';
import { PICOS_PER_DAY, packZonedTime, roundPicosOfDay, zonedTimePicos } from './zoned-time.js';

type Cast = (value: never) => Scalar;

const PICOS_MILLI = BigInt(PICOS_PER_MILLI);

/**
 * Whether castFunction hands this cast here: a long plain type or a plain timestamp on either side
 * (a short timestamp is read back to whole millis, short-plain-timestamp.ts; text targets format through values.ts).
 */
export function isLongPlainCast(from: SqlType, to: SqlType): boolean {
  return isLongPlain(from) || isLongPlain(to) || from.kind === 'timestamp' || to.kind === 'timestamp';
}

function sessionRequired(from: SqlType, to: SqlType): EngineError {
  return new EngineError('GENERIC_INTERNAL_ERROR', `cast from ${typeName(from)} to ${typeName(to)} needs the session time zone`);
}

/** The cast of one non-null value; `session` as castFunction's (zone, offset or start day). */
export function longPlainCast(from: SqlType, to: SqlType, session: string | undefined): Cast {
  const write = (): ((picos: bigint) => Scalar) => writePicos(to);
  switch (from.kind) {
    case 'varchar':
    case 'char': {
      const parse = to.kind === 'time' ? parseTimePicos : parseTimestampPicos;
      const out = write();
      return ((text: string) => out(parsedOrFail(parse(text), text, to))) as Cast;
    }
    case 'timestamp with time zone': {
      const precision = from.precision;
      const out = write();
      return ((v: bigint) => {
        const { millis, picos, key } = zonedParts(v, precision);
        return out(BigInt(localMillis(key, millis)) * PICOS_MILLI + BigInt(picos));
      }) as Cast;
    }
    case 'time with time zone': {
      if (to.kind === 'time') return ((v: bigint) => writePicos(to)(zonedTimePicos(v))) as Cast;
      if (session === undefined) throw sessionRequired(from, to);
      // On the session's start date (the analyzer passes that day), as castNeedsSessionDate.
      const dayPicos = BigInt(Number(session)) * PICOS_PER_DAY;
      const out = write();
      return ((v: bigint) => out(dayPicos + zonedTimePicos(v))) as Cast;
    }
    default:
      break;
  }
  const read = readPicos(from);
  switch (to.kind) {
    case 'timestamp':
    case 'time':
    case 'date': {
      const out = write();
      return ((v: Scalar) => out(read(v))) as Cast;
    }
    case 'timestamp with time zone': {
      if (session === undefined) throw sessionRequired(from, to);
      const key = zoneKeyOf(session);
      const precision = to.precision;
      return ((v: Scalar) => localPicosToZoned(read(v), key, precision)) as Cast;
    }
    case 'time with time zone': {
      if (session === undefined) throw sessionRequired(from, to);
      const offset = offsetMillisAt(zoneKeyOf(session), 0) / 60_000;
      const precision = to.precision;
      return ((v: Scalar) => packZonedTime(roundPicosOfDay(read(v), precision), offset)) as Cast;
    }
    default:
      throw new EngineError('TYPE_MISMATCH', `Cannot cast ${typeName(from)} to ${typeName(to)}`);
  }
}

function parsedOrFail(parsed: ParsedPicos | undefined, text: string, to: SqlType): bigint {
  if (parsed === undefined) throw new EngineError('INVALID_CAST_ARGUMENT', `Value cannot be cast to ${to.kind}: ${text}`);
  return parsed.picos;
}

/** Wall-clock picoseconds in zone `key` as a zoned value of `precision` (rounded first; a gap moves forward). */
export function localPicosToZoned(picos: bigint, key: number, precision: number): bigint {
  const millis = floorDiv(picos, PICOS_MILLI);
  const rounded = roundParts(Number(millis), Number(picos - millis * PICOS_MILLI), precision);
  return packZonedParts({ millis: localToInstant(key, rounded.millis), picos: rounded.picos, key }, precision);
}
