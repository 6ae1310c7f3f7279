// Values parsed from text, as CAST(varchar AS type) parses them in Trino (surrounding whitespace
// is ignored). Each returns undefined when the text is not a value of the type.

import { parseDecimal, powerOfTen, divideRoundHalfUp } from './decimal.js';

const INTEGER_TEXT = /^[+-]?\d+$/;
const DOUBLE_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[dDfF]?$/;
const SPECIAL_DOUBLES: Record<string, number> = {
  NaN: NaN,
  Infinity: Infinity,
  '+Infinity': Infinity,
  '-Infinity': -Infinity,
};

export function parseIntegerText(text: string): bigint | undefined {
  const t = text.trim();
  return INTEGER_TEXT.test(t) ? BigInt(t) : undefined;
}

export function parseDoubleText(text: string): number | undefined {
  const t = text.trim();
  if (t in SPECIAL_DOUBLES) return SPECIAL_DOUBLES[t];
  if (!DOUBLE_TEXT.test(t)) return undefined;
  return Number(t.replace(/[dDfF]$/, ''));
}

export function parseBooleanText(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'true' || t === 't' || t === '1') return true;
  if (t === 'false' || t === 'f' || t === '0') return false;
  return undefined;
}

const EXPONENT = /^(.*?)[eE]([+-]?\d+)$/;

/** The unscaled value at `scale` (HALF_UP) of decimal text, which may carry an exponent ('1.5e3'). */
export function parseDecimalText(text: string, scale: number): bigint | undefined {
  const t = text.trim();
  const m = EXPONENT.exec(t);
  const parsed = parseDecimal(m === null ? t : m[1]);
  if (parsed === undefined) return undefined;
  // value = unscaled × 10^(exponent - parsedScale); bring it to `scale`
  const shift = scale - parsed.scale + (m === null ? 0 : Number(m[2]));
  return shift >= 0 ? parsed.unscaled * powerOfTen(shift) : divideRoundHalfUp(parsed.unscaled, powerOfTen(-shift));
}
