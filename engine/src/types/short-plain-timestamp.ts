// timestamp(0..3) is short: a double of microseconds since the epoch holding whole millis
// (long-plain-temporal.ts). Below 2^53 micros (years 1685..2255) the double is exact; beyond, it is
// the nearest double to the whole millis, less than half a milli away while below 2^62 micros
// (-144169-06-28 .. +148108-07-06), so every reader rounds back to whole millis rather than flooring micros.

import { EngineError } from '../errors/engine-error.js';
import { MILLIS_PER_DAY, formatDate, formatTimeOfDay } from './datetime.js';

/** Magnitude of micros since the epoch up to which every whole milli rounds back exactly. */
export const SHORT_TIMESTAMP_LIMIT_MICROS = 2 ** 62;

const LIMIT_PICOS = BigInt(SHORT_TIMESTAMP_LIMIT_MICROS) * 1_000_000n;

/** The picoseconds of a timestamp(0..3) value, refused where a double could not hold its millis. */
export function checkShortTimestamp(picos: bigint): bigint {
  if (picos >= LIMIT_PICOS || picos <= -LIMIT_PICOS) {
    throw new EngineError(
      'NOT_SUPPORTED',
      'timestamp(0..3) outside -144169-06-28 .. +148108-07-06 (2^62 microseconds from 1970) is not supported: use timestamp(6)',
    );
  }
  return picos;
}

/** Whole millis since the epoch of a short timestamp (exact below SHORT_TIMESTAMP_LIMIT_MICROS). */
export function shortTimestampMillis(micros: number): number {
  return Math.round(micros / 1000);
}

/** 'YYYY-MM-DD HH:MM:SS.fff' with `precision` (0..3) fraction digits. */
export function formatShortTimestamp(micros: number, precision: number): string {
  const millis = shortTimestampMillis(micros);
  const days = Math.floor(millis / MILLIS_PER_DAY);
  return `${formatDate(days)} ${formatTimeOfDay((millis - days * MILLIS_PER_DAY) * 1000, precision)}`;
}
