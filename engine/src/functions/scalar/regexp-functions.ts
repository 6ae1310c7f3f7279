// Regular expression functions (Trino's Joni-based ones), on JavaScript RegExps compiled once per pattern.

import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, BOOLEAN, INTEGER, VARCHAR } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';
import { codePointIndexOf } from './unicode.js';

const VARCHAR_X = { family: 'varchar' } as const;

const REGEXP_CACHE = new Map<string, RegExp>();
const MAX_CACHED = 1000;

/** The global RegExp of a pattern (Unicode mode when the pattern allows it), cached. */
export function compileRegexp(pattern: string): RegExp {
  let re = REGEXP_CACHE.get(pattern);
  if (re !== undefined) {
    re.lastIndex = 0;
    return re;
  }
  try {
    re = new RegExp(pattern, 'gu');
  } catch {
    try {
      re = new RegExp(pattern, 'g');
    } catch (e) {
      throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid regular expression: ${(e as Error).message}`);
    }
  }
  if (REGEXP_CACHE.size >= MAX_CACHED) REGEXP_CACHE.clear();
  REGEXP_CACHE.set(pattern, re);
  return re;
}

function groupCount(re: RegExp): number {
  return new RegExp(`${re.source}|`, re.flags).exec('')!.length - 1;
}

function checkGroup(re: RegExp, group: bigint): number {
  const groups = groupCount(re);
  if (group < 0n || group > BigInt(groups)) {
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Pattern has ${groups} groups. Cannot access group ${group}`);
  }
  return Number(group);
}

type ReplacementPart = string | number | { name: string };

const REPLACEMENT_CACHE = new Map<string, ReplacementPart[]>();

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
      const named = /^\{([A-Za-z][A-Za-z0-9]*)\}/.exec(replacement.slice(i + 1));
      const numbered = /^\d+/.exec(replacement.slice(i + 1));
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

function regexpReplace(s: string, pattern: string, replacement: string): string {
  const re = compileRegexp(pattern);
  const parts = parseReplacement(replacement);
  const groups = groupCount(re);
  for (const p of parts) {
    if (typeof p === 'number' && p > groups) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Illegal group reference: group ${p} does not exist`);
  }
  return s.replace(re, (...match: unknown[]) => {
    const named = typeof match[match.length - 1] === 'object' ? (match[match.length - 1] as Record<string, string | undefined>) : undefined;
    let out = '';
    for (const p of parts) {
      if (typeof p === 'string') out += p;
      else if (typeof p === 'number') out += (match[p] as string | undefined) ?? '';
      else out += named?.[p.name] ?? '';
    }
    return out;
  });
}

function regexpExtract(s: string, pattern: string, group: bigint): string | null {
  const re = compileRegexp(pattern);
  const index = checkGroup(re, group);
  const m = re.exec(s);
  re.lastIndex = 0;
  return m === null ? null : (m[index] ?? null);
}

export const REGEXP_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['regexp_like'],
    description: 'Returns whether the pattern is contained within the string',
    signatures: [
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: BOOLEAN,
        implement: () =>
          body((s: string, pattern: string) => {
            const re = compileRegexp(pattern);
            const found = re.test(s);
            re.lastIndex = 0;
            return found;
          }),
      },
    ],
  },
  {
    names: ['regexp_replace'],
    description: 'Replaces substrings matching a regular expression by given string (removes them without one)',
    signatures: [
      { params: [VARCHAR_X, VARCHAR_X], returnType: VARCHAR, implement: () => body((s: string, p: string) => regexpReplace(s, p, '')) },
      { params: [VARCHAR_X, VARCHAR_X, VARCHAR_X], returnType: VARCHAR, implement: () => body(regexpReplace) },
    ],
  },
  {
    names: ['regexp_extract'],
    description: 'String extracted using the given pattern (and group)',
    signatures: [
      { params: [VARCHAR_X, VARCHAR_X], returnType: VARCHAR, implement: () => body((s: string, p: string) => regexpExtract(s, p, 0n), { mayReturnNull: true }) },
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
            const re = compileRegexp(pattern);
            let count = 0n;
            for (const _ of s.matchAll(re)) count++;
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
            const re = compileRegexp(pattern);
            const m = re.exec(s);
            re.lastIndex = 0;
            return m === null ? -1 : codePointIndexOf(s, m.index) + 1;
          }),
      },
    ],
  },
];

