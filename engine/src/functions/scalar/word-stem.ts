// word_stem(word [, lang]): the Snowball stemmer of the language (English by default), as Trino's,
// which runs the Snowball stemmers Lucene 10 imports (Snowball at revision 26db1ab, 2024). English
// is english-stemmer.ts. Eleven other languages come from the snowball-stemmers package (Snowball's
// algorithms compiled to JavaScript, loaded on first use: it is large and most queries never stem),
// whose stems equal that Snowball revision's on every word of Snowball's own vocabularies for them.
// The package's German, French, Italian, Finnish, Russian, Swedish and Romanian predate changes
// Lucene has, and it has no Lithuanian: those fail with NOT_SUPPORTED rather than answer otherwise
// than Trino. The word is stemmed as given (no case folding), as in Trino.

import { createRequire } from 'node:module';
import { EngineError } from '../../errors/engine-error.js';
import type { SqlType } from '../../types/types.js';
import { stemEnglish } from './english-stemmer.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

interface SnowballStemmer {
  stem(word: string): string;
}
interface SnowballStemmers {
  newStemmer(algorithm: string): SnowballStemmer;
}

/** Trino's language codes other than en (english-stemmer.ts): the package algorithm of each, or the language refused. */
const LANGUAGES: Readonly<Record<string, { algorithm: string } | { unsupported: string }>> = {
  ca: { algorithm: 'catalan' },
  da: { algorithm: 'danish' },
  de: { unsupported: 'German' },
  es: { algorithm: 'spanish' },
  eu: { algorithm: 'basque' },
  fi: { unsupported: 'Finnish' },
  fr: { unsupported: 'French' },
  hu: { algorithm: 'hungarian' },
  hy: { algorithm: 'armenian' },
  ir: { algorithm: 'irish' },
  it: { unsupported: 'Italian' },
  lt: { unsupported: 'Lithuanian' },
  nl: { algorithm: 'dutch' },
  no: { algorithm: 'norwegian' },
  pt: { algorithm: 'portuguese' },
  ro: { unsupported: 'Romanian' },
  ru: { unsupported: 'Russian' },
  sv: { unsupported: 'Swedish' },
  tr: { algorithm: 'turkish' },
};

const VARCHAR_X = { family: 'varchar' } as const;
const sameAsFirst = (types: readonly SqlType[]): SqlType => types[0];

let library: SnowballStemmers | undefined;
const stemmers = new Map<string, (word: string) => string>([['en', stemEnglish]]);

function stemmerFor(language: string): (word: string) => string {
  const cached = stemmers.get(language);
  if (cached !== undefined) return cached;
  const entry = Object.hasOwn(LANGUAGES, language) ? LANGUAGES[language] : undefined;
  if (entry === undefined) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Unknown stemmer language: ${language}`);
  if ('unsupported' in entry) throw new EngineError('NOT_SUPPORTED', `word_stem in ${entry.unsupported} ('${language}') is not supported`);
  library ??= createRequire(import.meta.url)('snowball-stemmers') as SnowballStemmers;
  const stemmer = library.newStemmer(entry.algorithm);
  const stem = (word: string): string => stemmer.stem(word);
  stemmers.set(language, stem);
  return stem;
}

export const WORD_STEM_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['word_stem'],
    description: 'Returns the stem of a word in the English language',
    signatures: [{ params: [VARCHAR_X], returnType: sameAsFirst, implement: () => body(stemEnglish) }],
  },
  {
    names: ['word_stem'],
    description: 'Returns the stem of a word in the given language',
    signatures: [
      {
        params: [VARCHAR_X, VARCHAR_X],
        returnType: sameAsFirst,
        implement: () => body((word: string, language: string) => stemmerFor(language)(word)),
      },
    ],
  },
];
