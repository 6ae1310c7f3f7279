// sequence(start, stop, step) of timestamp(p) for p 7..12 (picoseconds, long-plain-temporal.ts), as
// Trino's long variants: a day-time step adds to the picoseconds; a year-month step moves the date
// and keeps the time of day, up to stop. The checks (direction, zero step, entry cap) are the
// short sequences' own (array-functions.ts).

import type { Scalar } from '../../types/scalar.js';
import { floorDiv } from '../../types/long-plain-temporal.js';
import type { SqlType } from '../../types/types.js';
import { PICOS_PER_DAY } from '../../types/zoned-time.js';
import { dateSequenceByMonths, sequenceLength } from './array-functions.js';
import type { ScalarImplementation } from './signature.js';

const PICOS_PER_MILLI = 1_000_000_000n;

function byTime(start: bigint, stop: bigint, stepMillis: number): bigint[] {
  const step = BigInt(stepMillis) * PICOS_PER_MILLI;
  const length = sequenceLength(start, stop, step);
  return Array.from({ length }, (_, i) => start + BigInt(i) * step);
}

function byMonths(start: bigint, stop: bigint, months: number): bigint[] {
  if (months !== 0 && (months > 0 ? stop < start : stop > start)) sequenceLength(start, stop, BigInt(months));
  const [startDay, stopDay] = [floorDiv(start, PICOS_PER_DAY), floorDiv(stop, PICOS_PER_DAY)];
  const time = start - startDay * PICOS_PER_DAY;
  return dateSequenceByMonths(Number(startDay), Number(stopDay), months)
    .map((d) => BigInt(d) * PICOS_PER_DAY + time)
    .filter((t) => (months > 0 ? t <= stop : t >= stop));
}

/** The body for these argument types (two long timestamps and an interval). */
export function longTimestampSequence(types: readonly SqlType[]): ScalarImplementation {
  const yearMonth = types[2].kind === 'interval year to month';
  const invoke = (yearMonth ? byMonths : byTime) as (...args: Scalar[]) => Scalar;
  return { mayReturnNull: false, acceptsNulls: false, invoke };
}
