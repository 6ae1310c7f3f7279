// Functions and operators on `time(p) with time zone` (Trino's timetz package): the offset and its
// hours and minutes, wall-clock fields, AT TIME ZONE (the zone's offset at the query's start, as
// Trino), and day-second interval arithmetic modulo 24 hours that keeps the offset.

import { type SqlType, BIGINT, INTERVAL_DAY_SECOND, VARCHAR } from '../../types/types.js';
import { formatOffsetMinutes, offsetMillisAt, zoneKeyOf } from '../../types/time-zones.js';
import { packZonedTime, roundPicosOfDay, zonedTimeOffset, zonedTimePicos, zonedTimeType } from '../../types/zoned-time.js';
import { parseUnit } from './datetime-fields.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

const ZONED_TIME = { family: 'time with time zone' } as const;
const VARCHAR_X = { family: 'varchar' } as const;
const PICOS_PER_MILLI = 1_000_000_000n;
const sameAsFirst = (types: readonly SqlType[]): SqlType => types[0];
const precisionOf = (type: SqlType): number => (type as { precision: number }).precision;

/** A wall-clock field of the value (picoseconds of the day divided by `unit`, modulo `modulo`). */
function field(name: string, description: string, unit: bigint, modulo: bigint): ScalarFunctionDefinition {
  return {
    names: [name],
    description,
    signatures: [{ params: [ZONED_TIME], returnType: BIGINT, implement: () => body((v: bigint) => (zonedTimePicos(v) / unit) % modulo) }],
  };
}

/** The value moved by a day-second interval (milliseconds) modulo a day; Trino types it time(max(3, p)). */
function plusMillis(sign: 1 | -1): SignatureTemplate[] {
  const add = (v: bigint, millis: number) => packZonedTime(zonedTimePicos(v) + BigInt(sign * millis) * PICOS_PER_MILLI, zonedTimeOffset(v));
  const atLeastMillis = (index: number) => (types: readonly SqlType[]) => zonedTimeType(Math.max(3, precisionOf(types[index])));
  const templates: SignatureTemplate[] = [
    { params: [ZONED_TIME, INTERVAL_DAY_SECOND], returnType: atLeastMillis(0), implement: () => body(add) },
  ];
  if (sign === -1) return templates;
  return [
    ...templates,
    {
      params: [INTERVAL_DAY_SECOND, ZONED_TIME],
      returnType: atLeastMillis(1),
      implement: () => body((millis: number, v: bigint) => add(v, millis)),
    },
  ];
}

const UNIT_PICOS: Readonly<Record<string, bigint>> = {
  millisecond: PICOS_PER_MILLI,
  second: 1000n * PICOS_PER_MILLI,
  minute: 60_000n * PICOS_PER_MILLI,
  hour: 3_600_000n * PICOS_PER_MILLI,
};
const unitPicos = (text: string): bigint => UNIT_PICOS[parseUnit(text, 'time')];

/** date_add on the wall clock modulo a day, keeping the offset; a result of precision <= 3 rounds. */
function dateAdd(precision: number) {
  return (unit: string, amount: bigint, v: bigint): bigint => {
    const picos = zonedTimePicos(v) + amount * unitPicos(unit);
    return packZonedTime(roundPicosOfDay(picos, Math.min(precision, 12)), zonedTimeOffset(v));
  };
}

function dateTrunc(unit: string, v: bigint): bigint {
  const size = unitPicos(unit);
  return packZonedTime((zonedTimePicos(v) / size) * size, zonedTimeOffset(v));
}

/** Whole units from a to b, on the normalized times (truncated toward zero, as Java divides). */
function dateDiff(unit: string, a: bigint, b: bigint): bigint {
  return ((b >> 12n) - (a >> 12n)) / unitPicos(unit);
}

/** a - b: the difference of the normalized times in milliseconds, rounded half up (Trino). */
function difference(a: bigint, b: bigint): number {
  const picos = (a >> 12n) - (b >> 12n);
  const half = PICOS_PER_MILLI / 2n;
  return Number(picos >= 0n ? (picos + half) / PICOS_PER_MILLI : -((-picos + half - 1n) / PICOS_PER_MILLI));
}

export const ZONED_TIME_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  field('hour', 'Hour of the day of the time', 3_600n * 1_000_000_000_000n, 24n),
  field('minute', 'Minute of the hour of the time', 60n * 1_000_000_000_000n, 60n),
  field('second', 'Second of the minute of the time', 1_000_000_000_000n, 60n),
  field('millisecond', 'Millisecond of the second of the time', PICOS_PER_MILLI, 1000n),
  {
    names: ['timezone_hour'],
    description: 'Hours of the offset of the time',
    signatures: [
      { params: [ZONED_TIME], returnType: BIGINT, implement: () => body((v: bigint) => BigInt(Math.trunc(zonedTimeOffset(v) / 60))) },
    ],
  },
  {
    names: ['timezone_minute'],
    description: 'Minutes of the offset of the time',
    signatures: [{ params: [ZONED_TIME], returnType: BIGINT, implement: () => body((v: bigint) => BigInt(zonedTimeOffset(v) % 60)) }],
  },
  {
    names: ['timezone'],
    description: 'The offset of the time',
    signatures: [
      { params: [ZONED_TIME], returnType: VARCHAR, implement: () => body((v: bigint) => formatOffsetMinutes(zonedTimeOffset(v))) },
    ],
  },
  {
    names: ['date_add'],
    description: 'Adds a number of units to a time with time zone',
    signatures: [
      { params: [VARCHAR_X, BIGINT, ZONED_TIME], returnType: (types) => types[2], implement: ([, , t]) => body(dateAdd(precisionOf(t))) },
    ],
  },
  {
    names: ['date_trunc'],
    description: 'Truncates a time with time zone to the given unit',
    signatures: [{ params: [VARCHAR_X, ZONED_TIME], returnType: (types) => types[1], implement: () => body(dateTrunc) }],
  },
  {
    names: ['date_diff'],
    description: 'Difference in whole units between two times with time zone',
    signatures: [{ params: [VARCHAR_X, ZONED_TIME, ZONED_TIME], returnType: BIGINT, implement: () => body(dateDiff) }],
  },
  {
    names: ['$at_timezone_time'],
    description: 'The time at the offset the zone has at the given instant (epoch milliseconds): AT TIME ZONE on a time',
    signatures: [
      {
        params: [ZONED_TIME, VARCHAR_X, BIGINT],
        returnType: sameAsFirst,
        implement: () =>
          body((v: bigint, zone: string, atMillis: bigint) => {
            const offset = offsetMillisAt(zoneKeyOf(zone), Number(atMillis)) / 60_000;
            return packZonedTime((v >> 12n) + BigInt(offset) * 60_000n * PICOS_PER_MILLI, offset);
          }),
      },
    ],
  },
];

export const ZONED_TIME_OPERATORS: readonly ScalarFunctionDefinition[] = [
  { names: ['add'], description: 'Addition', signatures: plusMillis(1) },
  {
    names: ['subtract'],
    description: 'Subtraction',
    signatures: [
      ...plusMillis(-1),
      { params: [ZONED_TIME, ZONED_TIME], returnType: INTERVAL_DAY_SECOND, implement: () => body(difference) },
    ],
  },
];
