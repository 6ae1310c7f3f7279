// The datetime functions on `timestamp(p)` and `time(p)` for p 7..12 (long-plain-temporal.ts). As
// Trino's long variants of date_add, date_trunc, extract... compute on the epoch millis and carry
// the rest of the fraction over unchanged (date_add, interval arithmetic) or set it to zero
// (date_trunc: its smallest unit is the millisecond), and its formatters read the value rounded to
// millis, each microsecond body serves the long values too: long arguments go in as whole millis
// (floor, or rounded half up for the formatters), in micros, and a long result gets the first long
// argument's picoseconds of the milli back (or none). Whole millis in micros are exact doubles far
// beyond 2^53, where a micros value with its last digits would not be. A function that reads a long value through
// a `timestamp`/`time` family parameter and is not listed here is refused (NOT_SUPPORTED) when the
// call is analyzed: never a wrong answer from a body that expects micros.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { Scalar } from '../../spi/page.js';
import { MAX_SHORT_PLAIN_PRECISION, PICOS_PER_MICRO, floorDiv, formatLongPlain, isLongPlain } from '../../types/long-plain-temporal.js';

const PICOS_PER_MILLI = 1000n * PICOS_PER_MICRO;
import { localPicosToZoned } from '../../types/long-plain-casts.js';
import { zoneKeyOf } from '../../types/time-zones.js';
import { type SqlType, typeName } from '../../types/types.js';
import { longTimestampSequence } from './long-plain-sequence.js';
import type { BoundSignature, ScalarImplementation, SignatureTemplate } from './signature.js';

/** What a lifted function does with the fraction below the milli: carry it to a long result, drop it, or round the argument to millis. */
type Rule = 'carry' | 'drop' | 'round';

const FIELDS = ['year', 'quarter', 'month', 'week', 'week_of_year', 'year_of_week', 'yow', 'day', 'day_of_month', 'day_of_week', 'dow', 'day_of_year', 'doy', 'hour', 'minute', 'second', 'millisecond'];

const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ...FIELDS.map((name) => [name, 'carry'] as const),
  ['last_day_of_month', 'carry'],
  ['date_add', 'carry'],
  ['date_diff', 'carry'],
  ['format_datetime', 'round'],
  ['date_format', 'round'],
  ['add', 'carry'],
  ['subtract', 'carry'],
  ['date_trunc', 'drop'],
]);

/** Functions with their own long bodies (below). */
const OWN: ReadonlyMap<string, (types: readonly SqlType[]) => ScalarImplementation | undefined> = new Map([
  ['to_iso8601', toIso8601],
  ['with_timezone', withTimezone],
  ['subtract', subtractValues],
  ['sequence', longTimestampSequence],
]);

const asShort = (t: SqlType): SqlType => (isLongPlain(t) ? ({ kind: t.kind, precision: MAX_SHORT_PLAIN_PRECISION } as SqlType) : t);

/** Whether the template reads a long value through a family parameter (a type variable passes values through untouched). */
function readsLongThroughFamily(template: SignatureTemplate, types: readonly SqlType[], returnType: SqlType): boolean {
  const familyAt = (i: number): boolean => {
    const p = template.params[Math.min(i, template.params.length - 1)];
    return p !== undefined && 'family' in p;
  };
  return types.some((t, i) => isLongPlain(t) && familyAt(i)) || (isLongPlain(returnType) && types.some((t, i) => familyAt(i) && (t.kind === 'timestamp' || t.kind === 'time')));
}

/** NOT_SUPPORTED at analysis for a call this file does not lift. */
export function checkLongPlainCall(name: string, bound: BoundSignature, location?: SourceLocation): void {
  if (!readsLongThroughFamily(bound.template, bound.argumentTypes, bound.returnType) || RULES.has(name) || OWN.has(name)) return;
  const shown = bound.argumentTypes.map(typeName).join(', ');
  throw new EngineError('NOT_SUPPORTED', `${name}(${shown}) is not supported: precision above ${MAX_SHORT_PLAIN_PRECISION}`, location);
}

/** The body of `template` for these types: lifted when a long plain value goes through a family parameter. */
export function implementWithLongPlain(name: string, template: SignatureTemplate, types: readonly SqlType[], returnType: SqlType): ScalarImplementation {
  if (!readsLongThroughFamily(template, types, returnType)) return template.implement(types, returnType);
  const own = OWN.get(name)?.(types);
  if (own !== undefined) return own;
  const rule = RULES.get(name);
  if (rule === undefined) throw new EngineError('NOT_SUPPORTED', `${name}(${types.map(typeName).join(', ')}) is not supported: precision above ${MAX_SHORT_PLAIN_PRECISION}`);
  const inner = template.implement(types.map(asShort), asShort(returnType));
  const long = types.map(isLongPlain);
  const first = long.indexOf(true);
  const longResult = isLongPlain(returnType);
  const toMillis = rule === 'round' ? (v: bigint) => floorDiv(v + PICOS_PER_MILLI / 2n, PICOS_PER_MILLI) : (v: bigint) => floorDiv(v, PICOS_PER_MILLI);
  return {
    mayReturnNull: inner.mayReturnNull,
    acceptsNulls: inner.acceptsNulls,
    invoke: (...args: Scalar[]) => {
      const result = inner.invoke(...args.map((a, i) => (long[i] && a !== null ? Number(toMillis(a as bigint)) * 1000 : a)));
      if (!longResult || result === null) return result;
      const below = rule === 'drop' || first < 0 || args[first] === null ? 0n : (args[first] as bigint) - floorDiv(args[first] as bigint, PICOS_PER_MILLI) * PICOS_PER_MILLI;
      return BigInt(result as number) * PICOS_PER_MICRO + below;
    },
  };
}

/** timestamp - timestamp, time - time: the difference of whole micros rounded half up to millis (Trino). */
function subtractValues(types: readonly SqlType[]): ScalarImplementation | undefined {
  if (!types.every(isLongPlain)) return undefined;
  return plain((a: bigint, b: bigint) => Number(floorDiv(floorDiv(a, PICOS_PER_MICRO) - floorDiv(b, PICOS_PER_MICRO) + 500n, 1000n)));
}

function plain(invoke: (...args: never[]) => Scalar): ScalarImplementation {
  return { mayReturnNull: false, acceptsNulls: false, invoke: invoke as (...args: Scalar[]) => Scalar };
}

/** '2020-01-01T12:34:56.123456789': every digit of the precision, as Trino. */
function toIso8601([type]: readonly SqlType[]): ScalarImplementation {
  return plain((v: bigint) => formatLongPlain(v, type).replace(' ', 'T'));
}

/** The wall clock read in `zone`: timestamp(p) with time zone of the same precision. */
function withTimezone([type]: readonly SqlType[]): ScalarImplementation {
  const precision = (type as { precision: number }).precision;
  return plain((v: bigint, zone: string) => localPicosToZoned(v, zoneKeyOf(zone), precision));
}
