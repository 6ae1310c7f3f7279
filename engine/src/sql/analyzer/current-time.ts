// current_date, current_timestamp, localtime...: constants fixed at the query's start, read as
// wall-clock values in the session time zone (Trino evaluates them once per query too).

import type { Session } from '../../spi/session.js';
import { EngineError } from '../../errors/engine-error.js';
import { DATE, timestampWithTimeZone } from '../../types/types.js';
import { zoneKeyOf } from '../../types/time-zones.js';
import { MAX_ZONED_PRECISION, packZoned, roundMillis } from '../../types/zoned-timestamp.js';
import type * as ast from '../parser/ast.js';
import { constant, type RowExpression } from '../planner/row-expression.js';

const MS_PER_DAY = 86_400_000;

export function currentTimeConstant(e: ast.CurrentTime, session: Session): RowExpression {
  const wallMillis = wallClockMillis(session.startTime, session.timeZone);
  const precision = e.precision ?? 3;
  switch (e.function) {
    case 'current_date':
      return constant(Math.floor(wallMillis / MS_PER_DAY), DATE);
    case 'current_timestamp':
      return currentTimestamp(session, precision);
    case 'localtimestamp':
      return constant(truncate(wallMillis * 1000, precision), { kind: 'timestamp', precision });
    case 'current_time':
    case 'localtime':
      return constant(truncate((((wallMillis % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) * 1000, precision), { kind: 'time', precision });
  }
}

/** current_timestamp and now(): the query's start in the session zone, `timestamp(p) with time zone`. */
export function currentTimestamp(session: Session, precision = 3): RowExpression {
  if (precision > MAX_ZONED_PRECISION) {
    throw new EngineError('NOT_SUPPORTED', `timestamp(${precision}) with time zone is not supported: precision above ${MAX_ZONED_PRECISION}`);
  }
  const millis = roundMillis(session.startTime, precision); // Trino rounds current_timestamp(p)
  return constant(packZoned(millis, zoneKeyOf(session.timeZone)), timestampWithTimeZone(precision));
}

function truncate(micros: number, precision: number): number {
  const unit = 10 ** Math.max(0, 6 - precision);
  return Math.floor(micros / unit) * unit;
}

/** Epoch milliseconds shifted so that UTC fields read as the wall clock of `timeZone`. */
export function wallClockMillis(epochMillis: number, timeZone: string): number {
  const offset = /^([+-])(\d{2}):(\d{2})$/.exec(timeZone);
  if (offset) return epochMillis + (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Time zone not supported: ${timeZone}`);
  }
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(epochMillis))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wallSeconds = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wallSeconds + (epochMillis % 1000);
}
