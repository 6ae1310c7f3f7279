// java.util.Formatter's syntax, which Trino's format() exposes: %[index$][flags][width][.precision]
// conversion, with the general (s S b B h H), character (c C: only null, as Trino passes no
// character types), integral (d o x X), floating point (f e E g G), literal
// (% n) and date/time (t T) conversions, in the US English locale. Java's exceptions become
// INVALID_FUNCTION_ARGUMENT "Invalid format string: <format> (<Name>: <message>)", as Trino's (the
// java.util exception's name without "Exception").

import { EngineError } from '../../../errors/engine-error.js';
import { shortestDecimalDigits } from '../../../types/number-format.js';
import { FormatError } from './format-error.js';
import { type JavaValue, javaClassName, javaToString } from './java-values.js';
import { formatDateTimeField } from './java-date-time.js';
import { javaHashCode } from './java-hash-code.js';

const SPECIFIER = /%(\d+\$|<)?([-#+ 0,(]*)(\d+)?(\.\d+)?([tT])?(.)?/y;

interface Spec {
  text: string;
  flags: string;
  width?: number;
  precision?: number;
  conversion: string;
  dateTime: boolean;
}

export function javaFormat(format: string, args: readonly JavaValue[]): string {
  try {
    return formatAll(format, args);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    // Trino quotes java.util's exceptions without the package and the "Exception" suffix.
    const name = e.exception === 'UnsupportedTemporalTypeException' ? e.exception : e.exception.replace(/Exception$/, '');
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid format string: ${format} (${name}: ${e.detail})`);
  }
}

function formatAll(format: string, args: readonly JavaValue[]): string {
  let out = '';
  let ordinary = 0;
  let last = -1;
  for (let i = 0; i < format.length; ) {
    const percent = format.indexOf('%', i);
    if (percent < 0) return out + format.slice(i);
    out += format.slice(i, percent);
    SPECIFIER.lastIndex = percent;
    const m = SPECIFIER.exec(format)!;
    const [text, index, flags, width, precision, dateTime, conversion] = m;
    if (conversion === undefined) throw new FormatError('UnknownFormatConversionException', `Conversion = '%'`);
    const spec: Spec = {
      text,
      flags,
      width: width === undefined ? undefined : Number(width),
      precision: precision === undefined ? undefined : Number(precision.slice(1)),
      conversion,
      dateTime: dateTime !== undefined,
    };
    i = percent + text.length;
    if (!spec.dateTime && (conversion === '%' || conversion === 'n')) {
      out += conversion === 'n' ? '\n' : justify('%', spec);
      continue;
    }
    let position: number;
    if (index === '<') position = last;
    else if (index !== undefined) position = Number(index.slice(0, -1)) - 1;
    else position = ordinary++;
    if (position < 0 || position >= args.length) throw new FormatError('MissingFormatArgumentException', `Format specifier '${text}'`);
    last = position;
    out += formatOne(spec, args[position]);
  }
  return out;
}

function checkFlags(spec: Spec, allowed: string): void {
  for (const flag of spec.flags) {
    if (!allowed.includes(flag))
      throw new FormatError('FormatFlagsConversionMismatchException', `Conversion = ${spec.conversion}, Flags = ${flag}`);
  }
  if ((spec.flags.includes('-') || spec.flags.includes('0')) && spec.width === undefined)
    throw new FormatError('MissingFormatWidthException', spec.text);
}

function mismatch(spec: Spec, value: JavaValue): FormatError {
  return new FormatError('IllegalFormatConversionException', `${spec.conversion} != ${javaClassName(value)}`);
}

function formatOne(spec: Spec, value: JavaValue): string {
  const { conversion } = spec;
  if (spec.dateTime) {
    checkFlags(spec, '-');
    if (spec.precision !== undefined) throw new FormatError('IllegalFormatPrecisionException', String(spec.precision));
    const text =
      value.kind === 'null'
        ? 'null'
        : formatDateTimeField(conversion, value, () => mismatch({ ...spec, conversion: spec.text.at(-2)! }, value));
    return justify(spec.text.includes('T') ? text.toUpperCase() : text, spec);
  }
  switch (conversion) {
    case 's':
    case 'S':
    case 'b':
    case 'B': {
      checkFlags(spec, '-');
      let text =
        conversion.toLowerCase() === 'b' ? String(value.kind === 'boolean' ? value.value : value.kind !== 'null') : javaToString(value);
      if (spec.precision !== undefined) text = text.slice(0, spec.precision);
      return justify(conversion === 'S' || conversion === 'B' ? text.toUpperCase() : text, spec);
    }
    case 'd':
    case 'o':
    case 'x':
    case 'X':
      return formatIntegral(spec, value);
    case 'f':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      return formatFloating(spec, value);
    case 'c':
    case 'C':
      // Trino passes no Character, Byte, Short or Integer: only null prints.
      checkFlags(spec, '-');
      if (value.kind === 'null') return justify('null', spec);
      throw mismatch(spec, value);
    case 'h':
    case 'H': {
      checkFlags(spec, '-');
      let text = value.kind === 'null' ? 'null' : (javaHashCode(value) >>> 0).toString(16);
      if (spec.precision !== undefined) text = text.slice(0, spec.precision);
      return justify(conversion === 'H' ? text.toUpperCase() : text, spec);
    }
    default:
      throw new FormatError('UnknownFormatConversionException', `Conversion = '${conversion}'`);
  }
}

/** Pads to the width: spaces on the left, or on the right with '-'. */
function justify(text: string, spec: Spec): string {
  if (spec.width === undefined || text.length >= spec.width) return text;
  return spec.flags.includes('-') ? text.padEnd(spec.width) : text.padStart(spec.width);
}

function group(integral: string): string {
  return integral.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Sign, grouping and zero padding of a magnitude's digits, as Java lays out numbers. */
function layoutNumber(digits: string, negative: boolean, spec: Spec): string {
  const { flags } = spec;
  let body = digits;
  if (flags.includes(',')) {
    const [integral, fraction] = body.split('.');
    body = group(integral) + (fraction === undefined ? '' : `.${fraction}`);
  }
  const prefix = negative ? (flags.includes('(') ? '(' : '-') : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
  const suffix = negative && flags.includes('(') ? ')' : '';
  if (flags.includes('0') && spec.width !== undefined) body = body.padStart(spec.width - prefix.length - suffix.length, '0');
  return justify(prefix + body + suffix, spec);
}

function formatIntegral(spec: Spec, value: JavaValue): string {
  const decimal = spec.conversion === 'd';
  checkFlags(spec, decimal ? '-+ 0,(' : '-#0');
  if (spec.precision !== undefined) throw new FormatError('IllegalFormatPrecisionException', String(spec.precision));
  if (value.kind === 'null') return justify('null', spec);
  if (value.kind !== 'long') throw mismatch(spec, value);
  if (decimal) return layoutNumber((value.value < 0n ? -value.value : value.value).toString(), value.value < 0n, spec);
  // Long.toHexString / toOctalString: the two's complement bits of negative values.
  const bits = BigInt.asUintN(64, value.value);
  let text = spec.conversion === 'o' ? bits.toString(8) : bits.toString(16);
  if (spec.flags.includes('#')) text = (spec.conversion === 'o' ? '0' : '0x') + text;
  if (spec.conversion === 'X') text = text.toUpperCase();
  return spec.flags.includes('0') ? justify(text.padStart(spec.width!, '0'), spec) : justify(text, spec);
}

/** A decimal magnitude: unscaled × 10^-scale. */
interface Magnitude {
  unscaled: bigint;
  scale: number;
}

function magnitudeOf(value: JavaValue): { magnitude: Magnitude; negative: boolean } | 'NaN' | 'Infinity' | '-Infinity' {
  if (value.kind === 'decimal')
    return {
      magnitude: { unscaled: value.unscaled < 0n ? -value.unscaled : value.unscaled, scale: value.scale },
      negative: value.unscaled < 0n,
    };
  const x = (value as { value: number }).value;
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  // Java rounds the shortest decimal digits of the double (a float widened to double), half up.
  if (x === 0) return { magnitude: { unscaled: 0n, scale: 0 }, negative: Object.is(x, -0) };
  const { digits, exponent } = shortestDecimalDigits(Math.abs(x));
  return { magnitude: { unscaled: BigInt(digits), scale: digits.length - 1 - exponent }, negative: x < 0 };
}

/** The magnitude rounded half up to `scale` fraction digits, as the unscaled value at that scale. */
function roundToScale({ unscaled, scale }: Magnitude, target: number): bigint {
  if (scale <= target) return unscaled * 10n ** BigInt(target - scale);
  const divisor = 10n ** BigInt(scale - target);
  const quotient = unscaled / divisor;
  return (unscaled % divisor) * 2n >= divisor ? quotient + 1n : quotient;
}

function withFraction(unscaled: bigint, scale: number): string {
  if (scale === 0) return unscaled.toString();
  const text = unscaled.toString().padStart(scale + 1, '0');
  return `${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

function fixed(magnitude: Magnitude, precision: number): string {
  return withFraction(roundToScale(magnitude, precision), precision);
}

/** The power of ten of the first digit after rounding to `significant` digits, and those digits. */
function scientificParts(magnitude: Magnitude, significant: number): { digits: bigint; exponent: number } {
  if (magnitude.unscaled === 0n) return { digits: 0n, exponent: 0 };
  const length = magnitude.unscaled.toString().length;
  let exponent = length - 1 - magnitude.scale;
  let digits = roundToScale(magnitude, significant - 1 - exponent);
  if (digits.toString().length > significant) {
    exponent += 1;
    digits = roundToScale(magnitude, significant - 1 - exponent);
  }
  return { digits, exponent };
}

function scientific(magnitude: Magnitude, precision: number, upper: boolean): string {
  const { digits, exponent } = scientificParts(magnitude, precision + 1);
  const sign = exponent < 0 ? '-' : '+';
  const text = `${withFraction(digits, precision)}${upper ? 'E' : 'e'}${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return text;
}

function formatFloating(spec: Spec, value: JavaValue): string {
  const { conversion } = spec;
  checkFlags(spec, conversion === 'f' ? '-+ 0,(' : conversion.toLowerCase() === 'e' ? '-+ 0(' : '-+ 0,(');
  if (value.kind === 'null') return justify('null', spec);
  if (value.kind !== 'double' && value.kind !== 'decimal') throw mismatch(spec, value);
  const parts = magnitudeOf(value);
  if (typeof parts === 'string') {
    const negative = parts === '-Infinity';
    const text =
      parts === 'NaN'
        ? 'NaN'
        : negative
          ? spec.flags.includes('(')
            ? '(Infinity)'
            : '-Infinity'
          : spec.flags.includes('+')
            ? '+Infinity'
            : 'Infinity';
    return justify(conversion === 'E' || conversion === 'G' ? text.toUpperCase() : text, spec);
  }
  const { magnitude, negative } = parts;
  const precision = spec.precision ?? 6;
  let digits: string;
  if (conversion === 'f') digits = fixed(magnitude, precision);
  else if (conversion === 'e' || conversion === 'E') digits = scientific(magnitude, precision, conversion === 'E');
  else {
    const significant = precision === 0 ? 1 : precision;
    const { exponent } = scientificParts(magnitude, significant);
    const useFixed = magnitude.unscaled === 0n || (exponent >= -4 && exponent < significant);
    digits = useFixed
      ? fixed(magnitude, Math.max(0, significant - 1 - exponent))
      : scientific(magnitude, significant - 1, conversion === 'G');
  }
  return layoutNumber(digits, negative, spec);
}
