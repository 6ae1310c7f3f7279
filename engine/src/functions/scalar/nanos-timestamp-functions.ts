// The nanosecond constructors of `timestamp(9) with time zone`: from_unixtime_nanos (bigint or
// decimal nanoseconds since the epoch) and from_iso8601_timestamp_nanos, both in the session zone
// (the analyzer passes it as the last argument, time-zone-translation.ts).

import { EngineError } from '../../errors/engine-error.js';
import { packLongZoned } from '../../types/long-zoned-timestamp.js';
import { zoneKeyOf } from '../../types/time-zones.js';
import { type SqlType, BIGINT, timestampWithTimeZone } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';
import { fromIso8601Parts } from './zoned-timestamp-functions.js';

const VARCHAR_X = { family: 'varchar' } as const;
const NANOS = timestampWithTimeZone(9);
const NANOS_PER_MILLI = 1_000_000n;

/** Nanoseconds since the epoch in zone `zone` (floor division: negative values count back from the epoch). */
function fromNanos(nanos: bigint, zone: string): bigint {
  let millis = nanos / NANOS_PER_MILLI;
  let rest = nanos % NANOS_PER_MILLI;
  if (rest < 0n) {
    millis -= 1n;
    rest += NANOS_PER_MILLI;
  }
  if (millis > 8_640_000_000_000_000n || millis < -8_640_000_000_000_000n)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid unixtime nanos: ${nanos}`);
  return packLongZoned(Number(millis), Number(rest) * 1000, zoneKeyOf(zone));
}

/** A decimal's unscaled value as whole nanoseconds, rounded half away from zero (Trino rescales so). */
function decimalNanos(unscaled: bigint, scale: number): bigint {
  if (scale === 0) return unscaled;
  const divisor = 10n ** BigInt(scale);
  const magnitude = unscaled < 0n ? -unscaled : unscaled;
  const rounded = (magnitude + divisor / 2n) / divisor;
  return unscaled < 0n ? -rounded : rounded;
}

export const NANOS_TIMESTAMP_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['$from_unixtime_nanos'],
    description: 'from_unixtime_nanos with the session zone as its second argument',
    signatures: [
      { params: [BIGINT, VARCHAR_X], returnType: NANOS, implement: () => body(fromNanos) },
      {
        params: [{ family: 'decimal' }, VARCHAR_X],
        returnType: NANOS,
        implement: ([t]) => {
          const scale = (t as SqlType & { scale: number }).scale;
          return body((unscaled: bigint, zone: string) => fromNanos(decimalNanos(unscaled, scale), zone));
        },
      },
    ],
  },
  {
    names: ['$from_iso8601_timestamp_nanos'],
    description: 'from_iso8601_timestamp_nanos with the session zone as its second argument',
    signatures: [
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: NANOS,
        implement: () =>
          body((text: string, zone: string) => {
            const { millis, picos, key } = fromIso8601Parts(text, zone);
            return packLongZoned(millis, picos - (picos % 1000), key);
          }),
      },
    ],
  },
];
