// Dates, times and timestamps to and from VARIANT, as Trino's VariantOperators and VariantUtil: a time
// becomes micros of the day (truncated), a timestamp micros (precision to 6) or nanos (above) since the
// epoch, zoned ones as UTC instants; back, a variant date or timestamp (UTC or not, taken as its wall
// time) rounds half up to the target's precision, and a zoned target is in UTC.

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../scalar.js';
import { floorDiv, readPicos, writePicos } from '../long-plain-temporal.js';
import { PICOS_PER_MILLI, packZonedParts, zonedParts } from '../long-zoned-timestamp.js';
import { UTC_ZONE_KEY } from '../time-zones.js';
import { type SqlType, typeName } from '../types.js';
import type { VariantValue } from './variant-value.js';

const PICOS_PER_DAY = 86_400n * 10n ** 12n;
const MICROS_PICOS = 1_000_000n;

/** CAST(type AS VARIANT) for a time, timestamp or zoned timestamp type; undefined for another type. */
export function temporalToVariant(type: SqlType): ((value: Scalar) => VariantValue) | undefined {
  switch (type.kind) {
    case 'time': {
      const picos = readPicos(type);
      return (v) => ({ kind: 'time_ntz_micros', value: picos(v) / MICROS_PICOS });
    }
    case 'timestamp': {
      const picos = readPicos(type);
      if (type.precision <= 6) return (v) => ({ kind: 'timestamp_ntz_micros', value: picos(v) / MICROS_PICOS });
      return (v) => ({ kind: 'timestamp_ntz_nanos', value: floorDiv(picos(v), 1000n) });
    }
    case 'timestamp with time zone': {
      const precision = type.precision;
      return (v) => {
        const { millis, picos } = zonedParts(v as bigint, precision);
        const instantPicos = BigInt(millis) * BigInt(PICOS_PER_MILLI) + BigInt(picos);
        return precision <= 6
          ? { kind: 'timestamp_utc_micros', value: floorDiv(instantPicos, MICROS_PICOS) }
          : { kind: 'timestamp_utc_nanos', value: floorDiv(instantPicos, 1000n) };
      };
    }
    default:
      return undefined;
  }
}

/** Picoseconds since the epoch (of the day for a time) of a variant date, time or timestamp. */
function picosOf(v: VariantValue): bigint | undefined {
  switch (v.kind) {
    case 'date':
      return BigInt(v.days) * PICOS_PER_DAY;
    case 'time_ntz_micros':
    case 'timestamp_ntz_micros':
    case 'timestamp_utc_micros':
      return v.value * MICROS_PICOS;
    case 'timestamp_ntz_nanos':
    case 'timestamp_utc_nanos':
      return v.value * 1000n;
    default:
      return undefined;
  }
}

/**
 * CAST(variant AS to) for a variant date, time or timestamp and a date, time or timestamp target;
 * undefined when either is not temporal (the caller casts through the value's own type).
 */
export function temporalFromVariant(v: VariantValue, to: SqlType): Scalar | undefined {
  const picos = picosOf(v);
  const targets = to.kind === 'date' || to.kind === 'time' || to.kind === 'timestamp' || to.kind === 'timestamp with time zone';
  if (picos === undefined || !targets) return undefined;
  // A time casts only to a time; a date or timestamp to anything but a time, except a timestamp to a time.
  const fits = v.kind === 'time_ntz_micros' ? to.kind === 'time' : v.kind !== 'date' || to.kind !== 'time';
  if (!fits)
    throw new EngineError(
      'INVALID_CAST_ARGUMENT',
      `Unsupported VARIANT primitive type for cast to ${typeName(to).toUpperCase()}: ${v.kind.toUpperCase()}`,
    );
  switch (to.kind) {
    case 'date':
      return Number(floorDiv(picos, PICOS_PER_DAY));
    case 'time':
      return writePicos(to)(picos - floorDiv(picos, PICOS_PER_DAY) * PICOS_PER_DAY);
    case 'timestamp':
      return writePicos(to)(picos);
    default: {
      const millis = floorDiv(picos, BigInt(PICOS_PER_MILLI));
      const parts = { millis: Number(millis), picos: Number(picos - millis * BigInt(PICOS_PER_MILLI)), key: UTC_ZONE_KEY };
      return packZonedParts(parts, (to as { precision: number }).precision);
    }
  }
}
