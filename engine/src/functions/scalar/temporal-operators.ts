// Date, time, timestamp and interval arithmetic (Trino's DateTimeOperators and interval operators).
// date - date does not exist in Trino (date_diff does); timestamp - timestamp is a day-second interval.

import { EngineError } from '../../errors/engine-error.js';
import {
  MICROS_PER_DAY,
  MICROS_PER_MILLI,
  MILLIS_PER_DAY,
  addMonthsToDays,
  timestampDays,
  timestampMicrosOfDay,
} from '../../types/datetime.js';
import { type SqlType, BIGINT, DATE, DOUBLE, INTERVAL_DAY_SECOND, INTERVAL_YEAR_MONTH } from '../../types/types.js';
import { divisionByZero } from './integer-arithmetic.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

const TIMESTAMP = { family: 'timestamp' } as const;
const TIME = { family: 'time' } as const;
const STRICT_TIMESTAMP = { family: 'timestamp', strict: true } as const;
const YM = INTERVAL_YEAR_MONTH;
const DS = INTERVAL_DAY_SECOND;

function dateAddMillis(days: number, millis: number): number {
  if (millis % MILLIS_PER_DAY !== 0) {
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Cannot add hour, minutes or seconds to a date');
  }
  return days + millis / MILLIS_PER_DAY;
}

function timestampAddMonths(micros: number, months: number): number {
  return addMonthsToDays(timestampDays(micros), months) * MICROS_PER_DAY + timestampMicrosOfDay(micros);
}

function timeAddMillis(micros: number, millis: number): number {
  const r = (micros + millis * MICROS_PER_MILLI) % MICROS_PER_DAY;
  return r < 0 ? r + MICROS_PER_DAY : r;
}

type Binary = (a: number, b: number) => number;

/** `a op b` and, when commutative, `b op a` with the same body. */
function both(
  params: [SqlType | typeof TIMESTAMP | typeof TIME, SqlType],
  returnType: SignatureTemplate['returnType'],
  op: Binary,
  commutative: boolean,
): SignatureTemplate[] {
  const [left, right] = params;
  const direct: SignatureTemplate = { params: [left, right], returnType, implement: () => body(op) };
  if (!commutative) return [direct];
  const swappedReturn: SignatureTemplate['returnType'] =
    typeof returnType === 'function' ? (types) => returnType([types[1], types[0]]) : returnType;
  return [direct, { params: [right, left], returnType: swappedReturn, implement: () => body((a: number, b: number) => op(b, a)) }];
}

const first = (types: readonly SqlType[]): SqlType => types[0];

function plusOrMinus(sign: 1 | -1): SignatureTemplate[] {
  const commutative = sign === 1;
  return [
    ...both([DATE, DS], DATE, (d, ms) => dateAddMillis(d, sign * ms), commutative),
    ...both([DATE, YM], DATE, (d, m) => addMonthsToDays(d, sign * m), commutative),
    ...both([TIMESTAMP, DS], first, (t, ms) => t + sign * ms * MICROS_PER_MILLI, commutative),
    ...both([TIMESTAMP, YM], first, (t, m) => timestampAddMonths(t, sign * m), commutative),
    ...both([TIME, DS], first, (t, ms) => timeAddMillis(t, sign * ms), commutative),
    { params: [YM, YM], returnType: YM, implement: () => body((a: number, b: number) => a + sign * b) },
    { params: [DS, DS], returnType: DS, implement: () => body((a: number, b: number) => a + sign * b) },
  ];
}

export const TEMPORAL_OPERATORS: readonly ScalarFunctionDefinition[] = [
  { names: ['add'], description: 'Addition', signatures: plusOrMinus(1) },
  {
    names: ['subtract'],
    description: 'Subtraction',
    signatures: [
      ...plusOrMinus(-1),
      // strict: date - date does not exist in Trino, so dates must not coerce into this signature
      { params: [STRICT_TIMESTAMP, STRICT_TIMESTAMP], returnType: DS, implement: () => body(differenceInMillis) },
      { params: [TIME, TIME], returnType: DS, implement: () => body(differenceInMillis) },
    ],
  },
  {
    names: ['multiply'],
    description: 'Multiplication',
    signatures: [
      ...both([YM, BIGINT], YM, (m, n) => m * n, true).map(withBigintOperand),
      ...both([DS, BIGINT], DS, (ms, n) => ms * n, true).map(withBigintOperand),
      ...both([YM, DOUBLE], YM, (m, x) => Math.trunc(m * x), true),
      ...both([DS, DOUBLE], DS, (ms, x) => Math.trunc(ms * x), true),
    ],
  },
  {
    names: ['divide'],
    description: 'Division',
    signatures: [
      { params: [YM, DOUBLE], returnType: YM, implement: () => body(divideInterval) },
      { params: [DS, DOUBLE], returnType: DS, implement: () => body(divideInterval) },
    ],
  },
  {
    names: ['negate'],
    description: 'Negation',
    signatures: [
      { params: [YM], returnType: YM, implement: () => body((a: number) => -a) },
      { params: [DS], returnType: DS, implement: () => body((a: number) => -a) },
    ],
  },
];

/** The difference of two micros values in millis, rounded half up as Trino rounds it (1.8888 s -> 1.889 s). */
function differenceInMillis(a: number, b: number): number {
  return Math.floor((a - b + MICROS_PER_MILLI / 2) / MICROS_PER_MILLI);
}

function divideInterval(a: number, x: number): number {
  if (x === 0) throw divisionByZero();
  return Math.trunc(a / x);
}

/** Bigint operands arrive as JS bigints; interval values are numbers. */
function withBigintOperand(template: SignatureTemplate): SignatureTemplate {
  const bigintAt = template.params.findIndex((p) => 'kind' in p && p.kind === 'bigint');
  return {
    ...template,
    implement: (args, ret) => {
      const inner = template.implement(args, ret);
      return body((a: number | bigint, b: number | bigint) => inner.invoke(bigintAt === 0 ? Number(a) : a, bigintAt === 1 ? Number(b) : b));
    },
  };
}
