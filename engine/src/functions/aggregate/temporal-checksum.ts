// checksum's hash of dates' neighbours, as Trino's types define their XX_HASH_64: a plain timestamp
// up to precision 6 hashes its epoch micros, above it its micros XOR its picoseconds of the micro; a
// time hashes its picoseconds of the day (Trino's TimeType holds picos at every precision); a zoned
// timestamp hashes its epoch millis (XOR its picoseconds of the milli above precision 3), never its
// zone; a time with time zone its time at +00:00 modulo a day (nanoseconds up to precision 9,
// picoseconds above).

import type { Scalar } from '../../types/scalar.js';
import { isLongZoned, zonedParts } from '../../types/long-zoned-timestamp.js';
import { MAX_SHORT_PLAIN_PRECISION, PICOS_PER_MICRO, floorDiv, readPicos } from '../../types/long-plain-temporal.js';
import type { SqlType } from '../../types/types.js';

/** The hash of a non-null value of a temporal `type` from `hashLong` (xxHash64 of a long); undefined for other types. */
export function temporalValueHash(type: SqlType, hashLong: (value: bigint) => bigint): ((value: Scalar) => bigint) | undefined {
  switch (type.kind) {
    case 'timestamp': {
      // Up to precision 6 Trino holds one long of micros, whichever form the value has here.
      const picos = readPicos(type);
      if (type.precision <= MAX_SHORT_PLAIN_PRECISION) return (v) => hashLong(floorDiv(picos(v), PICOS_PER_MICRO));
      return (v) => {
        const micros = floorDiv(v as bigint, PICOS_PER_MICRO);
        return hashLong(micros) ^ hashLong((v as bigint) - micros * PICOS_PER_MICRO);
      };
    }
    case 'time': {
      const picos = readPicos(type);
      return (v) => hashLong(picos(v));
    }
    case 'timestamp with time zone': {
      const precision = type.precision;
      if (!isLongZoned(precision)) return (v) => hashLong(BigInt(zonedParts(v as bigint, precision).millis));
      return (v) => {
        const { millis, picos } = zonedParts(v as bigint, precision);
        return hashLong(BigInt(millis)) ^ hashLong(BigInt(picos));
      };
    }
    case 'time with time zone': {
      // The time at +00:00 modulo a day (what the value holds above its offset bits): nanoseconds up to precision 9, picoseconds above.
      if (type.precision > 9) return (v) => hashLong((v as bigint) >> 12n);
      return (v) => hashLong(((v as bigint) >> 12n) / 1000n);
    }
    default:
      return undefined;
  }
}
