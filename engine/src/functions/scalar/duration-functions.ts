// Durations as Trino reads and writes them: parse_duration (airlift's Duration text: a decimal
// number and a unit from ns to d), human_readable_seconds, and to_milliseconds of a day-to-second
// interval (whose value is milliseconds).

import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, DOUBLE, INTERVAL_DAY_SECOND, VARCHAR } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

const DURATION = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]+)\s*$/;

const MILLIS_PER_UNIT: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 };

/** The duration in whole milliseconds (half rounded up), as airlift's Duration.toMillis. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text);
  if (match === null) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `duration is not a valid data duration string: ${text}`);
  const perUnit = MILLIS_PER_UNIT[match[2]];
  if (perUnit === undefined) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Unknown time unit: ${match[2]}`);
  const millis = Math.floor(Number(match[1]) * perUnit + 0.5);
  if (!Number.isSafeInteger(millis)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `duration is out of range: ${text}`);
  return millis;
}

const PERIODS: ReadonlyArray<[unit: string, seconds: number]> = [
  ['week', 604800],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "1 hour, 2 minutes, 42 seconds": the rounded absolute seconds in weeks down to seconds. */
export function humanReadableSeconds(input: number): string {
  if (!Number.isFinite(input))
    throw new EngineError(
      'INVALID_FUNCTION_ARGUMENT',
      `Invalid argument found: ${input === Infinity ? 'Infinity' : input === -Infinity ? '-Infinity' : 'NaN'}`,
    );
  let rest = Math.round(Math.abs(input));
  const parts: string[] = [];
  for (const [unit, seconds] of PERIODS) {
    const count = Math.floor(rest / seconds);
    rest -= count * seconds;
    if (count > 0) parts.push(`${count} ${unit}${count === 1 ? '' : 's'}`);
  }
  return parts.length === 0 ? '0 seconds' : parts.join(', ');
}

const VARCHAR_X = { family: 'varchar' } as const;

export const DURATION_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['parse_duration'],
    description: 'Convert duration string to an interval',
    signatures: [{ params: [VARCHAR_X], returnType: INTERVAL_DAY_SECOND, implement: () => body(parseDuration) }],
  },
  {
    names: ['human_readable_seconds'],
    description: 'Formats seconds as weeks, days, hours, minutes and seconds',
    signatures: [{ params: [DOUBLE], returnType: VARCHAR, implement: () => body(humanReadableSeconds) }],
  },
  {
    names: ['to_milliseconds'],
    description: 'Returns the day-to-second interval as milliseconds',
    signatures: [{ params: [INTERVAL_DAY_SECOND], returnType: BIGINT, implement: () => body((millis: number) => BigInt(millis)) }],
  },
];
