// String functions (Trino's StringFunctions): lengths and positions count code points, not UTF-16 units.

import { constants as bufferConstants } from 'node:buffer';
import { EngineError } from '../../errors/engine-error.js';
import { type SqlType, BIGINT, BOOLEAN, INTEGER, VARBINARY, VARCHAR, varchar } from '../../types/types.js';
import { MAX_VARCHAR_LENGTH } from '../../types/parse-type.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';
import {
  codePointIndexOf,
  codePointLength,
  codePoints,
  mapCase,
  sliceCodePoints,
  trimLeadingChars,
  trimLeadingWhitespace,
  trimTrailingChars,
  trimTrailingWhitespace,
} from './unicode.js';

const VARCHAR_X = { family: 'varchar' } as const;
const sameAsFirst = (types: readonly SqlType[]): SqlType => types[0];

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

/** substr with Trino's rules: 1-based start, negative start counts from the end, 0 gives ''. */
export function substr(s: string, start: number, length: number): string {
  if (start === 0 || length <= 0 || s.length === 0) return '';
  const count = codePointLength(s);
  const from = start > 0 ? start - 1 : start + count;
  if (from < 0 || from >= count) return '';
  return sliceCodePoints(s, from, Math.min(count, from + length));
}

function strpos(s: string, sub: string, instance: number): number {
  if (instance === 0) throw invalidArgument("'instance' must be a positive or negative number.");
  if (sub === '') return 1;
  let offset = instance > 0 ? -1 : s.length + 1;
  for (let found = 0; found < Math.abs(instance); found++) {
    offset = instance > 0 ? s.indexOf(sub, offset + 1) : offset - 1 < 0 ? -1 : s.lastIndexOf(sub, offset - 1);
    if (offset < 0) return 0;
  }
  return codePointIndexOf(s, offset) + 1;
}

function splitPart(s: string, delimiter: string, index: bigint): string | null {
  if (index <= 0n) throw invalidArgument('Index must be greater than zero');
  const parts = delimiter === '' ? codePoints(s) : s.split(delimiter);
  return index > BigInt(parts.length) ? null : parts[Number(index) - 1];
}

/** The longest string the JavaScript engine can hold, in UTF-16 units. */
const MAX_STRING_LENGTH = bufferConstants.MAX_STRING_LENGTH;

function pad(left: boolean) {
  return (s: string, size: bigint, padding: string): string => {
    if (size < 0n || size > 2147483647n) throw invalidArgument('Target length must be in the range [0..2147483647]');
    if (padding === '') throw invalidArgument('Padding string must not be empty');
    const target = Number(size);
    const length = codePointLength(s);
    if (length >= target) return sliceCodePoints(s, 0, target);
    const padPoints = codePoints(padding);
    const needed = target - length;
    if (s.length + needed * (padding.length / padPoints.length) > MAX_STRING_LENGTH) {
      throw invalidArgument(`Padded string would be longer than ${MAX_STRING_LENGTH} characters, the longest string supported`);
    }
    // repeat, not a loop of +=: a long fill built one character at a time takes seconds and gigabytes.
    const fill = padding.repeat(Math.floor(needed / padPoints.length)) + padPoints.slice(0, needed % padPoints.length).join('');
    return left ? fill + s : s + fill;
  };
}

export const lpad = pad(true);

export function reverseCodePoints(s: string): string {
  return codePoints(s).reverse().join('');
}

function replaceAll(s: string, search: string, replacement: string): string {
  if (search === '')
    return (
      replacement +
      codePoints(s)
        .map((p) => p + replacement)
        .join('')
    );
  return s.split(search).join(replacement);
}

function concatType(types: readonly SqlType[]): SqlType {
  let total = 0;
  for (const t of types) {
    if (t.kind !== 'varchar' || t.length === undefined) return VARCHAR;
    total += t.length;
  }
  return total <= MAX_VARCHAR_LENGTH ? varchar(total) : VARCHAR;
}

const CODE_POINT_SET_CACHE = new Map<string, ReadonlySet<string>>();
function codePointSet(chars: string): ReadonlySet<string> {
  let set = CODE_POINT_SET_CACHE.get(chars);
  if (set === undefined) {
    set = new Set(codePoints(chars));
    if (CODE_POINT_SET_CACHE.size > 1000) CODE_POINT_SET_CACHE.clear();
    CODE_POINT_SET_CACHE.set(chars, set);
  }
  return set;
}

/** `s` without the leading and/or trailing code points that are among `chars`. */
export function trimCharSet(s: string, chars: string, leading: boolean, trailing: boolean): string {
  const set = codePointSet(chars);
  const start = leading ? trimLeadingChars(s, set) : s;
  return trailing ? trimTrailingChars(start, set) : start;
}

function trimFunction(name: string, description: string, leading: boolean, trailing: boolean): ScalarFunctionDefinition {
  return {
    names: [name],
    description,
    signatures: [
      {
        params: [VARCHAR_X],
        returnType: sameAsFirst,
        implement: () =>
          body((s: string) => (trailing ? trimTrailingWhitespace(leading ? trimLeadingWhitespace(s) : s) : trimLeadingWhitespace(s))),
      },
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: sameAsFirst,
        implement: () => body((s: string, chars: string) => trimCharSet(s, chars, leading, trailing)),
      },
    ],
  };
}

const utf8Encoder = new TextEncoder();
export const toUtf8 = (s: string): Uint8Array => utf8Encoder.encode(s);
const utf8Decoder = new TextDecoder('utf-8'); // replaces invalid sequences with U+FFFD, as Trino does

function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function concatWs(separator: string | null, ...parts: (string | null)[]): string | null {
  if (separator === null) return null;
  return parts.filter((p) => p !== null).join(separator);
}

/** Each code point of `from` maps to the one at its index in `to`, or is deleted past its end; the first mapping wins. */
function translate(source: string, from: string, to: string): string {
  const toPoints = codePoints(to);
  const mapping = new Map<string, string>();
  codePoints(from).forEach((point, index) => {
    if (!mapping.has(point)) mapping.set(point, toPoints[index] ?? '');
  });
  let out = '';
  for (const point of source) out += mapping.get(point) ?? point;
  return out;
}

const NORMAL_FORMS = new Set(['NFD', 'NFC', 'NFKD', 'NFKC']);

function normalizeTo(s: string, form: string): string {
  if (!NORMAL_FORMS.has(form)) throw invalidArgument('Normalization form must be one of [NFD, NFC, NFKD, NFKC]');
  return s.normalize(form);
}

function luhnCheck(digits: string): boolean {
  if (digits.length === 0) return false;
  let sum = 0;
  let doubled = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    const code = digits.charCodeAt(i);
    if (code < 48 || code > 57) throw invalidArgument('Input contains non-digit character');
    let n = (code - 48) * (doubled ? 2 : 1);
    if (n > 9) n -= 9;
    sum += n;
    doubled = !doubled;
  }
  return sum % 10 === 0;
}

/** from_utf8 with invalid sequences replaced by the given code point (none: dropped). */
function fromUtf8Replacing(bytes: Uint8Array, replacement: string): string {
  const decoded = utf8Decoder.decode(bytes);
  return replacement === '\uFFFD' ? decoded : decoded.replaceAll('\uFFFD', replacement);
}

function replacementCharacter(replacement: string): string {
  if (codePointLength(replacement) > 1) throw invalidArgument('Replacement character string must empty or a single character');
  return replacement;
}

function replacementCodePoint(codePoint: bigint): string {
  if (codePoint < 0n || codePoint > 0x10ffffn || (codePoint >= 0xd800n && codePoint <= 0xdfffn))
    throw invalidArgument('Invalid replacement character');
  return String.fromCodePoint(Number(codePoint));
}

const string = (
  params: SignatureTemplate['params'],
  returnType: SignatureTemplate['returnType'],
  f: (...args: never[]) => string | number | bigint | boolean | null | Uint8Array,
  mayReturnNull = false,
): SignatureTemplate => ({
  params,
  returnType,
  implement: () => body(f, { mayReturnNull }),
});

export const STRING_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['length'],
    description: 'Count of code points of the given string',
    signatures: [
      string([VARCHAR_X], BIGINT, (s: string) => BigInt(codePointLength(s))),
      string([VARBINARY], BIGINT, (b: Uint8Array) => BigInt(b.length)),
    ],
  },
  {
    names: ['lower'],
    description: 'Converts the string to lower case',
    signatures: [string([VARCHAR_X], sameAsFirst, (s: string) => mapCase(s, false))],
  },
  {
    names: ['upper'],
    description: 'Converts the string to upper case',
    signatures: [string([VARCHAR_X], sameAsFirst, (s: string) => mapCase(s, true))],
  },
  {
    names: ['substr', 'substring'],
    description: 'Substring of given length starting at an index',
    signatures: [
      string([VARCHAR_X, BIGINT], sameAsFirst, (s: string, start: bigint) => substr(s, clampToInt(start), Number.MAX_SAFE_INTEGER)),
      string([VARCHAR_X, BIGINT, BIGINT], sameAsFirst, (s: string, start: bigint, length: bigint) =>
        substr(s, clampToInt(start), clampToInt(length)),
      ),
    ],
  },
  trimFunction('trim', 'Removes whitespace from the beginning and end of a string', true, true),
  trimFunction('ltrim', 'Removes whitespace from the beginning of a string', true, false),
  trimFunction('rtrim', 'Removes whitespace from the end of a string', false, true),
  {
    names: ['concat'],
    description: 'Concatenates given strings',
    signatures: [
      {
        params: [VARCHAR_X],
        variadic: { minArgs: 2 },
        returnType: concatType,
        implement: () => body((...parts: string[]) => parts.join('')),
      },
      { params: [VARBINARY], variadic: { minArgs: 2 }, returnType: VARBINARY, implement: () => body(concatBytes) },
    ],
  },
  {
    names: ['replace'],
    description: 'Replaces all instances of search with replace (removes them without replace)',
    signatures: [
      string([VARCHAR_X, VARCHAR_X], sameAsFirst, (s: string, search: string) => replaceAll(s, search, '')),
      string([VARCHAR_X, VARCHAR_X, VARCHAR_X], VARCHAR, replaceAll),
    ],
  },
  {
    names: ['strpos'],
    description: 'Returns the index of the n-th instance of the substring (1-based), or 0 if not found',
    signatures: [
      string([VARCHAR_X, VARCHAR_X], BIGINT, (s: string, sub: string) => BigInt(strpos(s, sub, 1))),
      string([VARCHAR_X, VARCHAR_X, BIGINT], BIGINT, (s: string, sub: string, instance: bigint) =>
        BigInt(strpos(s, sub, clampToInt(instance))),
      ),
    ],
  },
  {
    names: ['split_part'],
    description: 'Splits a string by a delimiter and returns the specified field (counting from one)',
    signatures: [string([VARCHAR_X, VARCHAR_X, BIGINT], sameAsFirst, splitPart, true)],
  },
  { names: ['lpad'], description: 'Pads a string on the left', signatures: [string([VARCHAR_X, BIGINT, VARCHAR_X], VARCHAR, lpad)] },
  { names: ['rpad'], description: 'Pads a string on the right', signatures: [string([VARCHAR_X, BIGINT, VARCHAR_X], VARCHAR, pad(false))] },
  {
    names: ['reverse'],
    description: 'Reverses the given string',
    signatures: [
      string([VARCHAR_X], sameAsFirst, reverseCodePoints),
      string([VARBINARY], VARBINARY, (b: Uint8Array) => b.slice().reverse()),
    ],
  },
  {
    names: ['starts_with'],
    description: 'Determine whether the string starts with the prefix',
    signatures: [string([VARCHAR_X, VARCHAR_X], BOOLEAN, (s: string, prefix: string) => s.startsWith(prefix))],
  },
  {
    names: ['chr'],
    description: 'Converts a Unicode code point to a string',
    signatures: [
      string([BIGINT], varchar(1), (n: bigint) => {
        if (n < 0n || n > 0x10ffffn) throw invalidArgument(`Not a valid Unicode code point: ${n}`);
        return String.fromCodePoint(Number(n));
      }),
    ],
  },
  {
    names: ['codepoint'],
    description: 'Returns Unicode code point of a single character string',
    signatures: [
      string([varchar(1)], INTEGER, (s: string) => {
        if (codePointLength(s) !== 1) throw invalidArgument('Input string must be a single character string');
        return s.codePointAt(0) as number;
      }),
    ],
  },
  { names: ['to_utf8'], description: 'Encodes the string to UTF-8', signatures: [string([VARCHAR_X], VARBINARY, toUtf8)] },
  {
    names: ['from_utf8'],
    description: 'Decodes the UTF-8 encoded string',
    signatures: [
      string([VARBINARY], VARCHAR, (b: Uint8Array) => utf8Decoder.decode(b)),
      string([VARBINARY, VARCHAR_X], VARCHAR, (b: Uint8Array, r: string) => fromUtf8Replacing(b, replacementCharacter(r))),
      string([VARBINARY, BIGINT], VARCHAR, (b: Uint8Array, r: bigint) => fromUtf8Replacing(b, replacementCodePoint(r))),
    ],
  },
  {
    names: ['concat_ws'],
    description: 'Concatenates elements using separator',
    signatures: [
      {
        params: [VARCHAR],
        variadic: { minArgs: 2 },
        returnType: VARCHAR,
        implement: () => body(concatWs, { acceptsNulls: true, mayReturnNull: true }),
      },
      {
        params: [VARCHAR, { kind: 'array', element: VARCHAR }],
        returnType: VARCHAR,
        implement: () =>
          body(
            (separator: string | null, parts: readonly (string | null)[] | null) => (parts === null ? null : concatWs(separator, ...parts)),
            { acceptsNulls: true, mayReturnNull: true },
          ),
      },
    ],
  },
  {
    names: ['ends_with'],
    description: 'Determine whether source ends with suffix or not',
    signatures: [string([VARCHAR_X, VARCHAR_X], BOOLEAN, (s: string, suffix: string) => s.endsWith(suffix))],
  },
  {
    names: ['translate'],
    description: 'Translate characters from the source string based on original and translations strings',
    signatures: [string([VARCHAR_X, VARCHAR_X, VARCHAR_X], VARCHAR, translate)],
  },
  {
    names: ['normalize'],
    description: 'Transforms the string to normalized form',
    signatures: [string([VARCHAR_X], VARCHAR, (s: string) => s.normalize('NFC')), string([VARCHAR_X, VARCHAR_X], VARCHAR, normalizeTo)],
  },
  {
    names: ['luhn_check'],
    description: 'Checks that a string of digits is valid according to the Luhn algorithm',
    signatures: [string([VARCHAR_X], BOOLEAN, luhnCheck)],
  },
];

/**
 * OVERLAY(s PLACING r FROM start [FOR length]): SQL's substring(s, 1, start - 1) || r ||
 * substring(s, start + length); the length defaults to r's, and one of 0 or less removes nothing.
 */
function overlay(s: string, replacement: string, start: bigint, length: bigint = BigInt(codePointLength(replacement))): string {
  if (start < 1n) throw invalidArgument(`OVERLAY start position must be greater than 0, got: ${start}`);
  const from = clampToInt(start);
  const removed = length > 0n ? length : 0n;
  return substr(s, 1, from - 1) + replacement + substr(s, clampToInt(start + removed), Number.MAX_SAFE_INTEGER);
}

const overlayType = (types: readonly SqlType[]): SqlType => concatType(types.slice(0, 2));

/** Operators of string syntax that are no callable function. */
export const STRING_OPERATORS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['overlay'],
    description: 'OVERLAY(string PLACING replacement FROM start [FOR length])',
    signatures: [
      string([VARCHAR_X, VARCHAR_X, BIGINT], overlayType, overlay),
      string([VARCHAR_X, VARCHAR_X, BIGINT, BIGINT], overlayType, overlay),
    ],
  },
];

/** A bigint argument as a JS number, saturated to the int range as Trino saturates. */
export function clampToInt(n: bigint): number {
  return n > 2147483647n ? 2147483647 : n < -2147483648n ? -2147483648 : Number(n);
}
