// current_date, current_timestamp, localtime...: constants fixed at the query's start, read as
// wall-clock values in the session time zone (Trino evaluates them once per query too).

import type { Session } from '../../spi/session.js';
import { DATE, type SqlType } from '../../types/types.js';
import { PICOS_PER_MICRO, isLongPlain } from '../../types/long-plain-temporal.js';
import { localMillis, zoneKeyOf } from '../../types/time-zones.js';
import { zonedTimestampType } from '../../types/zoned-timestamp.js';
import { packZonedTime, zonedTimeType } from '../../types/zoned-time.js';
import { packZonedParts } from '../../types/long-zoned-timestamp.js';
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
      return plainConstant(truncate(wallMillis * 1000, precision), { kind: 'timestamp', precision });
    case 'current_time': {
      // time(p) with time zone: the wall clock at the session zone's offset at the query's start.
      const offsetMinutes = Math.round((wallMillis - session.startTime) / 60_000);
      const micros = truncate((((wallMillis % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) * 1000, precision);
      return constant(packZonedTime(BigInt(micros) * 1_000_000n, offsetMinutes), zonedTimeType(precision));
    }
    case 'localtime':
      return plainConstant(truncate((((wallMillis % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) * 1000, precision), {
        kind: 'time',
        precision,
      });
  }
}

/** current_timestamp and now(): the query's start in the session zone, `timestamp(p) with time zone`. */
export function currentTimestamp(session: Session, precision = 3): RowExpression {
  const type = zonedTimestampType(precision);
  // Trino rounds current_timestamp(p); the start time is known to the millisecond.
  return constant(packZonedParts({ millis: session.startTime, picos: 0, key: zoneKeyOf(session.timeZone) }, precision), type);
}

/** A plain time or timestamp of microseconds, in its precision's layout (long-plain-temporal.ts above 6). */
function plainConstant(micros: number, type: SqlType): RowExpression {
  return constant(isLongPlain(type) ? BigInt(micros) * PICOS_PER_MICRO : micros, type);
}

function truncate(micros: number, precision: number): number {
  const unit = 10 ** Math.max(0, 6 - precision);
  return Math.floor(micros / unit) * unit;
}

/** Epoch milliseconds shifted so that UTC fields read as the wall clock of `timeZone`. */
export function wallClockMillis(epochMillis: number, timeZone: string): number {
  return localMillis(zoneKeyOf(timeZone), epochMillis);
}
