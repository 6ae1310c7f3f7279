// Fast paths for the values of the text formats: a field's characters [start, end) of the chunk's
// text parsed in place into the number the column stores, without making a string first. Each
// returns undefined for anything it does not take on sight (signs and digits only, no spaces or
// exponents, few enough digits to be exact in a double); the caller then parses the field's text
// the slow way, which also words any error.

import { civilToDays, daysInMonth } from '../../../../types/datetime.js';
import type { SqlType } from '../../../../types/types.js';

/** The stored value of text[start, end), or undefined to take the slow path. */
export type RangeParser = (text: string, start: number, end: number) => number | undefined;

/** Digits a double holds exactly (integers below 2^53 have at most 15 digits for sure). */
const EXACT_DIGITS = 15;
const POWERS = Array.from({ length: 23 }, (_, i) => 10 ** i);
const ZERO = 48;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;

export function rangeParser(type: SqlType): RangeParser | undefined {
  switch (type.kind) {
    case 'tinyint':
      return integerParser(127);
    case 'smallint':
      return integerParser(32767);
    case 'integer':
      return integerParser(2147483647);
    case 'bigint':
      return integerParser(Number.MAX_SAFE_INTEGER);
    case 'double':
      return decimalNumber;
    case 'real':
      return (text, start, end) => {
        const v = decimalNumber(text, start, end);
        return v === undefined ? undefined : Math.fround(v);
      };
    case 'decimal':
      return type.precision <= 18 ? decimalUnscaled(type.precision, type.scale) : undefined;
    case 'date':
      return isoDate;
    case 'boolean':
      return (text, start, end) =>
        end - start === 4 && text.startsWith('true', start) ? 1 : end - start === 5 && text.startsWith('false', start) ? 0 : undefined;
    default:
      return undefined;
  }
}

function integerParser(max: number): RangeParser {
  return (text, start, end) => {
    let i = start;
    const c = text.charCodeAt(i);
    const negative = c === MINUS;
    if (negative || c === PLUS) i++;
    if (i === end || end - i > EXACT_DIGITS) return undefined;
    let n = 0;
    for (; i < end; i++) {
      const d = text.charCodeAt(i) - ZERO;
      if (d < 0 || d > 9) return undefined;
      n = n * 10 + d;
    }
    if (negative) n = -n;
    return n <= max && n >= -max - 1 ? n : undefined;
  };
}

// The last number digitsOf read (module state: no object per value).
let negative = false;
let value = 0;
let fraction = 0;
let integerDigits = 0;

/** Reads `[sign]digits[.digits]` into the state above; false for anything else or too many digits. */
function digitsOf(text: string, start: number, end: number): boolean {
  let i = start;
  const c = text.charCodeAt(i);
  negative = c === MINUS;
  if (negative || c === PLUS) i++;
  value = 0;
  integerDigits = 0;
  let point = -1;
  let significant = 0;
  let sawDigit = false;
  for (; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === DOT && point < 0) {
      point = 0;
      continue;
    }
    const d = code - ZERO;
    if (d < 0 || d > 9) return false;
    sawDigit = true;
    value = value * 10 + d;
    if (point >= 0) point++;
    else if (value > 0) integerDigits++;
    if (value > 0 && ++significant > EXACT_DIGITS) return false;
  }
  fraction = Math.max(0, point);
  return sawDigit;
}

/** A double of plain decimal text: the integer of its digits over a power of ten, one correctly rounded division. */
function decimalNumber(text: string, start: number, end: number): number | undefined {
  if (!digitsOf(text, start, end)) return undefined;
  const v = fraction === 0 ? value : value / POWERS[fraction];
  return negative ? -v : v;
}

function decimalUnscaled(precision: number, scale: number): RangeParser {
  return (text, start, end) => {
    if (!digitsOf(text, start, end) || fraction > scale || integerDigits > precision - scale) return undefined;
    const unscaled = value * POWERS[scale - fraction];
    if (!Number.isSafeInteger(unscaled)) return undefined;
    return negative ? -unscaled : unscaled;
  };
}

/** Days of exactly `YYYY-MM-DD`. */
function isoDate(text: string, start: number, end: number): number | undefined {
  if (end - start !== 10 || text.charCodeAt(start + 4) !== MINUS || text.charCodeAt(start + 7) !== MINUS) return undefined;
  const year = digits(text, start, start + 4);
  const month = digits(text, start + 5, start + 7);
  const day = digits(text, start + 8, start + 10);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return civilToDays(year, month, day);
}

function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}
