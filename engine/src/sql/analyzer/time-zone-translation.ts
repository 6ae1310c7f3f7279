// The SQL forms of `timestamp with time zone` that read the session: casts that take the session
// time zone, `x AT TIME ZONE zone`, `x AT LOCAL`, and the literal TIMESTAMP '... zone'.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { Session } from '../../spi/session.js';
import { castNeedsSessionZone } from '../../types/zoned-casts.js';
import { castNeedsSessionDate, castNeedsSessionOffset } from '../../types/zoned-time-casts.js';
import { type ParsedZonedTime, hasTimeOffset, parseZonedTime, zonedTimeType } from '../../types/zoned-time.js';
import { formatOffsetMinutes, localMillis, offsetMillisAt, zoneKeyOf } from '../../types/time-zones.js';
import { hasZone, parseZoned, zonedTimestampType } from '../../types/zoned-timestamp.js';
import { type SqlType, BIGINT, typeName, varchar } from '../../types/types.js';
import { constant, type RowExpression } from '../planner/row-expression.js';

/** CAST(value AS type), carrying the session zone when the cast reads it. */
export function castExpression(value: RowExpression, type: SqlType, safe: boolean, session: Session): RowExpression {
  if (castNeedsSessionZone(value.type, type)) return { kind: 'cast', arg: value, type, safe, sessionZone: session.timeZone };
  if (castNeedsSessionOffset(value.type, type)) return { kind: 'cast', arg: value, type, safe, sessionZone: sessionOffset(session) };
  if (castNeedsSessionDate(value.type, type))
    return { kind: 'cast', arg: value, type, safe, sessionZone: String(sessionStartDay(session)) };
  return { kind: 'cast', arg: value, type, safe };
}

/** The session zone's offset at the query's start, as Trino gives a time without an offset ('+09:00'). */
export function sessionOffset(session: Session): string {
  return formatOffsetMinutes(offsetMillisAt(zoneKeyOf(session.timeZone), session.startTime) / 60_000);
}

/** The type of TIMESTAMP 'text' when the text ends in a zone: timestamp(p) with time zone, p its fraction digits. */
export function zonedLiteralType(type: SqlType, text: string, explicitPrecision: boolean, location: SourceLocation): SqlType | undefined {
  if (type.kind !== 'timestamp' || !hasZone(text)) return undefined;
  const fraction = /\d:\d{1,2}:\d{1,2}\.(\d+)/.exec(text);
  const precision = explicitPrecision ? type.precision : fraction === null ? 0 : fraction[1].length;
  const zoned = zonedTimestampType(precision, location);
  try {
    parseZoned(text);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    throw new EngineError('INVALID_LITERAL', `'${text}' is not a valid TIMESTAMP literal`, location);
  }
  return zoned;
}

/** The date the query started on in the session zone, in days since 1970-01-01. */
function sessionStartDay(session: Session): number {
  return Math.floor(localMillis(zoneKeyOf(session.timeZone), session.startTime) / 86_400_000);
}

/** The type of TIME 'text' when the text ends in an offset: time(p) with time zone, p its fraction digits. */
export function zonedTimeLiteralType(type: SqlType, text: string, explicitPrecision: boolean): SqlType | undefined {
  if (type.kind !== 'time' || !hasTimeOffset(text)) return undefined;
  return zonedTimeType(explicitPrecision ? type.precision : (parseZonedTime(text) as ParsedZonedTime).precision);
}

/**
 * `value AT TIME ZONE zone` (Trino: at_timezone of the value, a plain timestamp first taken as zoned
 * in the session zone); `value AT LOCAL` is AT TIME ZONE the session zone.
 */
export function atTimeZone(
  value: RowExpression,
  zone: RowExpression | undefined,
  session: Session,
  call: (name: string, args: RowExpression[]) => RowExpression,
  location: SourceLocation,
): RowExpression {
  let zoned = value;
  const target = zone ?? constant(session.timeZone, varchar(session.timeZone.length));
  if (value.type.kind === 'time' || value.type.kind === 'time with time zone') {
    // Trino: a time takes the offset the zone has at the query's start.
    const time = value.type.kind === 'time' ? castExpression(value, zonedTimeType(value.type.precision), false, session) : value;
    return call('$at_timezone_time', [time, target, constant(BigInt(session.startTime), BIGINT)]);
  }
  if (value.type.kind === 'timestamp') zoned = castExpression(value, zonedTimestampType(value.type.precision, location), false, session);
  else if (value.type.kind !== 'timestamp with time zone') {
    throw new EngineError(
      'TYPE_MISMATCH',
      `Type of value must be a time or timestamp with or without time zone (actual ${typeName(value.type)})`,
      location,
    );
  }
  return call('at_timezone', [zoned, target]);
}

type Call = (name: string, args: RowExpression[]) => RowExpression;

/**
 * Functions whose Trino signatures read the session zone: from_unixtime(x) and
 * from_iso8601_timestamp(x) answer in it; to_unixtime of a plain timestamp reads it in it.
 * Undefined when the call is an ordinary one.
 */
export function sessionZoneCall(name: string, args: RowExpression[], session: Session, call: Call): RowExpression | undefined {
  const zone = constant(session.timeZone, varchar(session.timeZone.length));
  if (name === 'from_unixtime' && args.length === 1) return call('from_unixtime', [args[0], zone]);
  if (
    name === 'from_iso8601_timestamp' ||
    name === 'from_iso8601_timestamp_nanos' ||
    name === 'from_unixtime_nanos' ||
    name === 'parse_datetime'
  )
    return call(`$${name}`, [...args, zone]);
  if (name === 'to_unixtime' && args.length === 1 && args[0].type.kind === 'timestamp') {
    return call('to_unixtime', [castExpression(args[0], zonedTimestampType(args[0].type.precision), false, session)]);
  }
  return undefined;
}

/** Names sessionZoneCall may answer for that no registry holds. */
export const SESSION_ZONE_FUNCTION_NAMES = [
  'from_iso8601_timestamp',
  'from_iso8601_timestamp_nanos',
  'from_unixtime_nanos',
  'parse_datetime',
] as const;
