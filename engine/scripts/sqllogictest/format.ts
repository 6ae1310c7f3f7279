// Result values as the reference runners print them, and the comparisons the format defines.
// The type letter of the column decides: I prints an integer (numbers are truncated toward zero,
// text converts by its numeric prefix as SQLite's sqlite3_column_int64 does), R prints "%.3f",
// T prints the text with bytes outside ' '..'~' replaced by '@' and an empty string as "(empty)".
// NULL is "NULL" whatever the letter.

import { createHash } from 'node:crypto';
import type { JsonValue } from '../../src/types/exact-json.js';
import type { ExpectedResult, SortMode, TypeLetter } from './test-file.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const NUMERIC_PREFIX = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?/;

/**
 * One result value as text. `columnType` is the type name the server gave the column (`double`,
 * `decimal(10,2)`, ...); it lets T print doubles the way Trino does (`1.0`, `1.0E20`).
 */
export function formatValue(value: JsonValue, letter: TypeLetter, columnType?: string): string {
  if (value === null) return 'NULL';
  switch (letter) {
    case 'I':
      return formatInteger(value);
    case 'R':
      return formatReal(value);
    case 'T':
      return formatText(value, columnType);
  }
}

function formatInteger(value: Exclude<JsonValue, null>): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return truncateToInt64(value).toString();
  if (typeof value === 'string') return textToInteger(value).toString();
  return '0';
}

function formatReal(value: Exclude<JsonValue, null>): string {
  if (typeof value === 'boolean') return value ? '1.000' : '0.000';
  if (typeof value === 'bigint') return `${value}.000`;
  if (typeof value === 'number') return formatFixed3(value);
  if (typeof value === 'string') return formatFixed3(textToReal(value));
  return '0.000';
}

function formatText(value: Exclude<JsonValue, null>, columnType: string | undefined): string {
  if (typeof value === 'string') return printableText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    const floating = columnType === 'double' || columnType === 'real';
    return floating ? javaDoubleText(value) : String(value);
  }
  return printableText(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
}

/** `(empty)` for '', and every byte outside ' '..'~' as '@' (so one multi-byte character is several '@'). */
function printableText(s: string): string {
  if (s === '') return '(empty)';
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    out += code < 0x20 || code > 0x7e ? '@'.repeat(Buffer.byteLength(ch, 'utf8')) : ch;
  }
  return out;
}

function truncateToInt64(x: number): bigint {
  if (Number.isNaN(x)) return 0n;
  if (x >= 9223372036854775807) return INT64_MAX;
  if (x <= -9223372036854775808) return INT64_MIN;
  return BigInt(Math.trunc(x));
}

/** SQLite's text-to-integer conversion: the numeric prefix, truncated; 0 when there is none. */
function textToInteger(s: string): bigint {
  const m = NUMERIC_PREFIX.exec(s);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return 0n;
  const [, sign, whole, , exponent] = m;
  if (exponent === undefined) {
    const n = BigInt(whole === '' ? '0' : whole);
    const signed = sign === '-' ? -n : n;
    return signed > INT64_MAX ? INT64_MAX : signed < INT64_MIN ? INT64_MIN : signed;
  }
  return truncateToInt64(Number(m[0]));
}

function textToReal(s: string): number {
  const m = NUMERIC_PREFIX.exec(s);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return 0;
  return Number(m[0].trim());
}

/** printf("%.3f"): exact decimal expansion, ties to even (glibc), nan/inf spelled as glibc does. */
export function formatFixed3(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  const negative = x < 0 || Object.is(x, -0);
  const abs = Math.abs(x);
  let text: string;
  if (abs >= 1e21) {
    text = `${BigInt(abs)}.000`; // doubles this large are integers
  } else if (Number.isInteger(abs * 16) && (abs * 16) % 2 === 1 && abs * 16 < Number.MAX_SAFE_INTEGER) {
    // An exact tie at the third decimal (only odd multiples of 1/16 are): round half to even,
    // where Number#toFixed would round half up.
    const floor = Math.floor(abs * 1000);
    const thousandths = BigInt(floor % 2 === 0 ? floor : floor + 1);
    text = `${thousandths / 1000n}.${(thousandths % 1000n).toString().padStart(3, '0')}`;
  } else {
    text = abs.toFixed(3);
  }
  return negative ? `-${text}` : text;
}

/** Java's Double.toString, which Trino uses for double as text: `1.0`, `0.001`, `1.0E7`, `1.5E-5`. */
export function javaDoubleText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const plain = String(x);
    return plain.includes('.') ? plain : `${plain}.0`;
  }
  const [mantissa, exponent] = x.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** Sorts formatted values as the reference runner does: rows (or single values) compared by strcmp. */
export function sortValues(values: readonly string[], columnCount: number, mode: SortMode): string[] {
  if (mode === 'nosort') return [...values];
  const width = mode === 'valuesort' ? 1 : Math.max(columnCount, 1);
  const rows: string[][] = [];
  for (let i = 0; i < values.length; i += width) rows.push(values.slice(i, i + width));
  rows.sort((a, b) => {
    for (let i = 0; i < width; i++) {
      const c = compareBytes(a[i] ?? '', b[i] ?? '');
      if (c !== 0) return c;
    }
    return 0;
  });
  return rows.flat();
}

/** strcmp over UTF-8: code point order, which JS's UTF-16 `<` gets wrong above U+FFFF. */
function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** md5 (hex) of every value followed by a newline. */
export function hashValues(values: readonly string[]): string {
  const md5 = createHash('md5');
  for (const v of values) md5.update(`${v}\n`, 'utf8');
  return md5.digest('hex');
}

export function hashLine(values: readonly string[]): string {
  return `${values.length} values hashing to ${hashValues(values)}`;
}

/** The md5 an expected result stands for (labels compare these). */
export function expectedHash(expected: ExpectedResult): string {
  return expected.kind === 'hash' ? expected.hash : hashValues(expected.values);
}

/**
 * Whether `actual` (formatted, sorted) matches. A hashed expectation compares count and hash; a
 * listed one compares value by value. (The hash threshold only decides how results are shown.)
 */
export function resultMatches(expected: ExpectedResult, actual: readonly string[]): boolean {
  if (expected.kind === 'hash') return expected.count === actual.length && expected.hash === hashValues(actual);
  return expected.values.length === actual.length && expected.values.every((v, i) => v === actual[i]);
}

/** An expected result as the test file spells it. */
export function expectedText(expected: ExpectedResult): string {
  return expected.kind === 'hash' ? `${expected.count} values hashing to ${expected.hash}` : expected.values.join('\n');
}
