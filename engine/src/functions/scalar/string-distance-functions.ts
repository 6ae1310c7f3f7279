// How alike two strings are (Trino's levenshtein_distance, hamming_distance) and how they sound
// (soundex, as Apache Commons Codec's US English Soundex that Trino calls). Distances count code
// points, not UTF-16 units.

import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, varchar } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';
import { codePoints } from './unicode.js';

const VARCHAR_X = { family: 'varchar' } as const;

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

/** Trino refuses inputs whose table would pass a million cells: the work is quadratic. */
const MAX_LEVENSHTEIN_CELLS = 1_000_000;

export function levenshteinDistance(left: string, right: string): bigint {
  let longer = codePoints(left);
  let shorter = codePoints(right);
  if (longer.length < shorter.length) [longer, shorter] = [shorter, longer];
  if (shorter.length === 0) return BigInt(longer.length);
  if (longer.length * (shorter.length - 1) > MAX_LEVENSHTEIN_CELLS)
    throw invalidArgument('The combined inputs for Levenshtein distance are too large');
  // One row of the table: distances[j] is the distance from longer[0..i] to shorter[0..j].
  const distances = Int32Array.from({ length: shorter.length }, (_, j) => j + 1);
  for (let i = 0; i < longer.length; i++) {
    let diagonal = i;
    let left = i + 1;
    for (let j = 0; j < shorter.length; j++) {
      const above = distances[j];
      left = longer[i] === shorter[j] ? diagonal : Math.min(left, diagonal, above) + 1;
      diagonal = above;
      distances[j] = left;
    }
  }
  return BigInt(distances[shorter.length - 1]);
}

export function hammingDistance(left: string, right: string): bigint {
  const a = codePoints(left);
  const b = codePoints(right);
  if (a.length !== b.length) throw invalidArgument('The input strings to hamming_distance function must have the same length');
  let distance = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) distance++;
  return BigInt(distance);
}

/** Soundex digits of A..Z. */
const SOUNDEX_DIGITS = '01230120022455012623010202';

function soundexDigit(letter: string): string {
  const index = letter.charCodeAt(0) - 65;
  if (index < 0 || index >= SOUNDEX_DIGITS.length) throw invalidArgument(`The character is not mapped: ${letter} (index=${index})`);
  return SOUNDEX_DIGITS[index];
}

/** The letter and three digits; H and W do not separate equal digits; '' when there is no letter. */
export function soundex(text: string): string {
  const letters = codePoints(text)
    .filter((c) => /\p{L}/u.test(c))
    .map((c) => c.toUpperCase());
  if (letters.length === 0) return '';
  const out = [letters[0]];
  let last = soundexDigit(letters[0]);
  for (let i = 1; i < letters.length && out.length < 4; i++) {
    const letter = letters[i];
    if (letter === 'H' || letter === 'W') continue;
    const digit = soundexDigit(letter);
    if (digit !== '0' && digit !== last) out.push(digit);
    last = digit;
  }
  return out.join('').padEnd(4, '0');
}

export const STRING_DISTANCE_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['levenshtein_distance'],
    description: 'Computes Levenshtein distance between two strings',
    signatures: [{ params: [VARCHAR_X, VARCHAR_X], returnType: BIGINT, implement: () => body(levenshteinDistance) }],
  },
  {
    names: ['hamming_distance'],
    description: 'Computes Hamming distance between two strings',
    signatures: [{ params: [VARCHAR_X, VARCHAR_X], returnType: BIGINT, implement: () => body(hammingDistance) }],
  },
  {
    names: ['soundex'],
    description: 'Encodes a string into a Soundex value',
    signatures: [{ params: [VARCHAR_X], returnType: varchar(4), implement: () => body(soundex) }],
  },
];
