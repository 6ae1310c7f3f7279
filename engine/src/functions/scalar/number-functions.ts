// Trino's math functions on NUMBER (MathFunctions): abs, ceiling, floor, truncate, round, sign,
// mod and the NaN / infinity tests. NaN and the infinities pass through the rounding functions.

import { BOOLEAN, INTEGER, NUMBER } from '../../types/types.js';
import { remainderNumbers } from '../../types/number/number-arithmetic.js';
import { type RoundingMode, roundNumber } from '../../types/number/number-rounding.js';
import { type NumberValue, isFinite, numberText, numberValue } from '../../types/number/number-value.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

function unary(operation: (value: NumberValue) => NumberValue): SignatureTemplate {
  return { params: [NUMBER], returnType: NUMBER, implement: () => body((a: string) => numberText(operation(numberValue(a)))) };
}

function rounding(mode: RoundingMode): SignatureTemplate {
  return unary((v) => (isFinite(v) ? roundNumber(v, 0, mode) : v));
}

function test(predicate: (value: NumberValue) => boolean): SignatureTemplate {
  return { params: [NUMBER], returnType: BOOLEAN, implement: () => body((a: string) => predicate(numberValue(a))) };
}

function signum(v: Exclude<NumberValue, 'NaN'>): bigint {
  if (!isFinite(v)) return v === '-Infinity' ? -1n : 1n;
  return v.unscaled > 0n ? 1n : v.unscaled < 0n ? -1n : 0n;
}

export const NUMBER_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['abs'],
    description: 'Absolute value',
    signatures: [
      unary((v) =>
        v === 'NaN' ? v : isFinite(v) ? { unscaled: v.unscaled < 0n ? -v.unscaled : v.unscaled, scale: v.scale } : '+Infinity',
      ),
    ],
  },
  { names: ['ceil', 'ceiling'], description: 'Round up to nearest integer', signatures: [rounding('CEILING')] },
  { names: ['floor'], description: 'Round down to nearest integer', signatures: [rounding('FLOOR')] },
  { names: ['truncate'], description: 'Round to integer by dropping digits after decimal point', signatures: [rounding('DOWN')] },
  {
    names: ['round'],
    description: 'Round to nearest integer',
    signatures: [
      rounding('HALF_UP'),
      {
        params: [NUMBER, INTEGER],
        returnType: NUMBER,
        implement: () =>
          body((a: string, digits: number) => numberText(((v) => (isFinite(v) ? roundNumber(v, digits, 'HALF_UP') : v))(numberValue(a)))),
      },
    ],
  },
  {
    names: ['sign'],
    description: 'Signum',
    signatures: [unary((v) => (v === 'NaN' ? v : { unscaled: signum(v), scale: 0 }))],
  },
  {
    names: ['mod'],
    description: 'Remainder of given quotient',
    signatures: [
      {
        params: [NUMBER, NUMBER],
        returnType: NUMBER,
        implement: () => body((a: string, b: string) => numberText(remainderNumbers(numberValue(a), numberValue(b)))),
      },
    ],
  },
  { names: ['is_nan'], description: 'Test if value is not-a-number', signatures: [test((v) => v === 'NaN')] },
  { names: ['is_finite'], description: 'Test if value is finite', signatures: [test(isFinite)] },
  { names: ['is_infinite'], description: 'Test if value is infinite', signatures: [test((v) => v === '+Infinity' || v === '-Infinity')] },
];
