// Regular expression functions, on the linear-time RE2JS engine (regexp-pattern.ts), compiled once per pattern.

import type { RE2JS } from 're2js';
import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, BOOLEAN, INTEGER, VARCHAR, arrayOf } from '../../types/types.js';
import type { Scalar } from '../../types/scalar.js';
import { functionOf, lambdaResult } from './function-parameters.js';
import { compileRegexp } from './regexp-pattern.js';
import { type ScalarFunctionDefinition, body } from './signature.js';
import { codePointIndexOf, codePointLength, sliceCodePoints } from './unicode.js';

const VARCHAR_X = { family: 'varchar' } as const;
const MAX_CACHED = 1000;

function checkGroup(re: RE2JS, group: bigint): number {
  const groups = re.groupCount();
  if (group < 0n || group > BigInt(groups)) {
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Pattern has ${groups} groups. Cannot access group ${group}`);
  }
  return Number(group);
}

type ReplacementPart = string | number | { name: string };

const REPLACEMENT_CACHE = new Map<string, ReplacementPart[]>();
const NAMED_REFERENCE = /\{([A-Za-z][A-Za-z0-9]*)\}/y;
const NUMBERED_REFERENCE = /\d+/y;

/** Parses Trino's replacement syntax: `$n` and `${name}` refer to groups, `\` escapes the next character. */
function parseReplacement(replacement: string): ReplacementPart[] {
  const cached = REPLACEMENT_CACHE.get(replacement);
  if (cached !== undefined) return cached;
  const parts: ReplacementPart[] = [];
  let text = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    if (c === '\\' && i + 1 < replacement.length) {
      text += replacement[++i];
    } else if (c === '$') {
      // sticky expressions read the reference in place, so many `$` stay linear
      NAMED_REFERENCE.lastIndex = NUMBERED_REFERENCE.lastIndex = i + 1;
      const named = NAMED_REFERENCE.exec(replacement);
      const numbered = named === null ? NUMBERED_REFERENCE.exec(replacement) : null;
      if (named === null && numbered === null) {
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Illegal replacement sequence: ' + replacement);
      }
      if (text !== '') parts.push(text);
      text = '';
      parts.push(named !== null ? { name: named[1] } : Number(numbered![0]));
      i += (named ?? numbered)![0].length;
    } else {
      text += c;
    }
  }
  if (text !== '') parts.push(text);
  if (REPLACEMENT_CACHE.size >= MAX_CACHED) REPLACEMENT_CACHE.clear();
  REPLACEMENT_CACHE.set(replacement, parts);
  return parts;
}

/** The replacement parts with group names resolved to group numbers, checked against the pattern. */
function resolveReplacement(re: RE2JS, replacement: string): Array<string | number> {
  const groups = re.groupCount();
  const named = re.namedGroups();
  return parseReplacement(replacement).map((p) => {
    if (typeof p === 'string') return p;
    const group = typeof p === 'number' ? p : named[p.name];
    if (group === undefined || group > groups) {
      throw new EngineError(
        'INVALID_FUNCTION_ARGUMENT',
        `Illegal group reference: group ${typeof p === 'number' ? p : p.name} does not exist`,
      );
    }
    return group;
  });
}

function regexpReplace(s: string, pattern: string, replacement: string): string {
  const re = compileRegexp(pattern);
  const parts = resolveReplacement(re, replacement);
  const m = re.matcher(s);
  let out = '';
  let copied = 0;
  while (m.find()) {
    out += s.substring(copied, m.start());
    for (const p of parts) out += typeof p === 'string' ? p : (m.group(p) ?? '');
    copied = m.end();
  }
  return out + s.substring(copied);
}

/** Each match replaced by the lambda's text for its groups (1..n, NULL where a group took no part); NULL from the lambda makes the result NULL. */
function regexpReplaceWith(s: string, pattern: string, replace: (groups: Scalar) => Scalar): string | null {
  const re = compileRegexp(pattern);
  const m = re.matcher(s);
  const groupCount = re.groupCount();
  let out = '';
  let copied = 0;
  while (m.find()) {
    out += s.substring(copied, m.start());
    const groups: (string | null)[] = [];
    for (let g = 1; g <= groupCount; g++) groups.push(m.group(g));
    const replaced = replace(groups);
    if (replaced === null) return null;
    out += replaced as string;
    copied = m.end();
  }
  return out + s.substring(copied);
}

function regexpExtract(s: string, pattern: string, group: bigint): string | null {
  const re = compileRegexp(pattern);
  const index = checkGroup(re, group);
  const m = re.matcher(s);
  return m.find() ? m.group(index) : null;
}

function regexpExtractAll(s: string, pattern: string, group: bigint): (string | null)[] {
  const re = compileRegexp(pattern);
  const index = checkGroup(re, group);
  const m = re.matcher(s);
  const found: (string | null)[] = [];
  while (m.find()) found.push(m.group(index));
  return found;
}

/** The pieces between matches, the one after the last match included (empty where a match ends the text). */
function regexpSplit(s: string, pattern: string): string[] {
  const m = compileRegexp(pattern).matcher(s);
  const pieces: string[] = [];
  let lastEnd = 0;
  while (m.find()) {
    pieces.push(s.substring(lastEnd, m.start()));
    lastEnd = m.end();
  }
  pieces.push(s.substring(lastEnd));
  return pieces;
}

/**
 * Trino's regexp_position with a start (1-based, in code points) and an occurrence: the pattern is
 * matched against the text from the start on, as a text of its own (`^` and `\b` see its edges).
 */
function regexpPosition(s: string, pattern: string, start: bigint, occurrence: bigint): number {
  if (start < 1n) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'start position cannot be smaller than 1');
  if (occurrence < 1n) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'occurrence cannot be smaller than 1');
  const skipped = sliceCodePoints(s, 0, Number(start) - 1);
  if (start > BigInt(codePointLength(s))) return -1;
  const rest = s.substring(skipped.length);
  const m = compileRegexp(pattern).matcher(rest);
  for (let count = 1n; m.find(); count++) {
    if (count === occurrence) return Number(start) + codePointIndexOf(rest, m.start());
  }
  return -1;
}

const VARCHAR_ARRAY = arrayOf(VARCHAR);

export const REGEXP_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['regexp_like'],
    description: 'Returns whether the pattern is contained within the string',
    signatures: [
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: BOOLEAN,
        implement: () => body((s: string, pattern: string) => compileRegexp(pattern).test(s)),
      },
    ],
  },
  {
    names: ['regexp_replace'],
    description: 'Replaces substrings matching a regular expression by given string (removes them without one)',
    signatures: [
      { params: [VARCHAR_X, VARCHAR_X], returnType: VARCHAR, implement: () => body((s: string, p: string) => regexpReplace(s, p, '')) },
      { params: [VARCHAR_X, VARCHAR_X, VARCHAR_X], returnType: VARCHAR, implement: () => body(regexpReplace) },
      {
        params: [VARCHAR_X, VARCHAR_X, functionOf([arrayOf(VARCHAR)], { variable: 'R' })],
        // Trino's function(array(varchar), varchar(x)): the lambda must give text.
        accepts: (types) => ['varchar', 'unknown'].includes(lambdaResult(types, 2).kind),
        returnType: VARCHAR,
        implement: () => body(regexpReplaceWith, { mayReturnNull: true }),
      },
    ],
  },
  {
    names: ['regexp_extract'],
    description: 'String extracted using the given pattern (and group)',
    signatures: [
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: VARCHAR,
        implement: () => body((s: string, p: string) => regexpExtract(s, p, 0n), { mayReturnNull: true }),
      },
      { params: [VARCHAR_X, VARCHAR_X, BIGINT], returnType: VARCHAR, implement: () => body(regexpExtract, { mayReturnNull: true }) },
    ],
  },
  {
    names: ['regexp_count'],
    description: 'Returns the number of times that a pattern occurs in a string',
    signatures: [
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: BIGINT,
        implement: () =>
          body((s: string, pattern: string) => {
            const m = compileRegexp(pattern).matcher(s);
            let count = 0n;
            while (m.find()) count++;
            return count;
          }),
      },
    ],
  },
  {
    names: ['regexp_position'],
    description: 'Returns the index of the matched substring (1-based), or -1 if not found',
    signatures: [
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: INTEGER,
        implement: () =>
          body((s: string, pattern: string) => {
            const m = compileRegexp(pattern).matcher(s);
            return m.find() ? codePointIndexOf(s, m.start()) + 1 : -1;
          }),
      },
      {
        params: [VARCHAR_X, VARCHAR_X, BIGINT],
        returnType: INTEGER,
        implement: () => body((s: string, p: string, start: bigint) => regexpPosition(s, p, start, 1n)),
      },
      { params: [VARCHAR_X, VARCHAR_X, BIGINT, BIGINT], returnType: INTEGER, implement: () => body(regexpPosition) },
    ],
  },
  {
    names: ['regexp_extract_all'],
    description: 'String(s) extracted using the given pattern (and group)',
    signatures: [
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: VARCHAR_ARRAY,
        implement: () => body((s: string, p: string) => regexpExtractAll(s, p, 0n)),
      },
      { params: [VARCHAR_X, VARCHAR_X, BIGINT], returnType: VARCHAR_ARRAY, implement: () => body(regexpExtractAll) },
    ],
  },
  {
    names: ['regexp_split'],
    description: 'Returns array of strings split by pattern',
    signatures: [{ params: [VARCHAR_X, VARCHAR_X], returnType: VARCHAR_ARRAY, implement: () => body(regexpSplit) }],
  },
];
