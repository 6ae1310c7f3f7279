// word_stem(word [, lang]): the Snowball stemmer of the language (English by default), as Trino's,
// which runs Lucene's Snowball stemmers. The stemmers come from the snowball-stemmers package
// (Snowball's algorithms compiled to JavaScript), loaded on first use: it is large and most
// queries never stem. The word is stemmed as given (no case folding), as in Trino.

import { createRequire } from 'node:module';
import { EngineError } from '../../errors/engine-error.js';
import type { SqlType } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

interface SnowballStemmer {
  stem(word: string): string;
}
interface SnowballStemmers {
  newStemmer(algorithm: string): SnowballStemmer;
}

/** Trino's language codes and the Snowball algorithm of each. */
const ALGORITHMS: Readonly<Record<string, string>> = {
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  en: 'english',
  es: 'spanish',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  hu: 'hungarian',
  hy: 'armenian',
  ir: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sv: 'swedish',
  tr: 'turkish',
};
/** Languages Trino stems that the package has no stemmer for. */
const MISSING = new Set(['lithuanian']);

const VARCHAR_X = { family: 'varchar' } as const;
const sameAsFirst = (types: readonly SqlType[]): SqlType => types[0];

let library: SnowballStemmers | undefined;
const stemmers = new Map<string, SnowballStemmer>();

function stemmerFor(language: string): SnowballStemmer {
  const cached = stemmers.get(language);
  if (cached !== undefined) return cached;
  const algorithm = Object.hasOwn(ALGORITHMS, language) ? ALGORITHMS[language] : undefined;
  if (algorithm === undefined) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Unknown stemmer language: ${language}`);
  if (MISSING.has(algorithm)) throw new EngineError('NOT_SUPPORTED', `word_stem for language '${language}' (${algorithm[0].toUpperCase()}${algorithm.slice(1)}) is not supported`);
  library ??= createRequire(import.meta.url)('snowball-stemmers') as SnowballStemmers;
  const stemmer = library.newStemmer(algorithm);
  stemmers.set(language, stemmer);
  return stemmer;
}

export const WORD_STEM_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['word_stem'],
    description: 'Returns the stem of a word in the English language',
    signatures: [{ params: [VARCHAR_X], returnType: sameAsFirst, implement: () => body((word: string) => stemmerFor('en').stem(word)) }],
  },
  {
    names: ['word_stem'],
    description: 'Returns the stem of a word in the given language',
    signatures: [{ params: [VARCHAR_X, VARCHAR_X], returnType: sameAsFirst, implement: () => body((word: string, language: string) => stemmerFor(language).stem(word)) }],
  },
];
