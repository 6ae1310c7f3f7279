// word_stem(word [, lang]): the Snowball stemmer of the language (English by default), as Trino's,
// which runs the Snowball stemmers Lucene 10 imports (Snowball at revision 26db1ab, 2024). English
// is english-stemmer.ts. Eleven other languages come from the snowball-stemmers package (Snowball's
// algorithms compiled to JavaScript, loaded on first use: it is large and most queries never stem),
// whose stems equal that Snowball revision's on every word of Snowball's own vocabularies for them.
// German, Finnish, French, Italian, Lithuanian, Romanian, Russian and Swedish are generated from
// Snowball's sources at that revision (snowball/): on Snowball's vocabularies for them (334,625
// words) they give every stem of that revision, where no npm package did (snowball-stemmers,
// @orama/stemmers and multilingual-stemmer each differ in German and Swedish, and in others).
// The word is stemmed as given (no case folding), as in Trino.

import { createRequire } from 'node:module';
import { EngineError } from '../../errors/engine-error.js';
import type { SqlType } from '../../types/types.js';
import { stemEnglish } from './english-stemmer.js';
import { luceneRevisionStemmer } from './snowball/lucene-revision-stemmers.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

interface SnowballStemmer {
  stem(word: string): string;
}
interface SnowballStemmers {
  newStemmer(algorithm: string): SnowballStemmer;
}

/** Trino's language codes that the package serves (en is english-stemmer.ts, the rest snowball/). */
const PACKAGE_ALGORITHMS: Readonly<Record<string, string>> = {
  ca: 'catalan',
  da: 'danish',
  es: 'spanish',
  eu: 'basque',
  hu: 'hungarian',
  hy: 'armenian',
  ir: 'irish',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  tr: 'turkish',
};

const VARCHAR_X = { family: 'varchar' } as const;
const sameAsFirst = (types: readonly SqlType[]): SqlType => types[0];

let library: SnowballStemmers | undefined;
const stemmers = new Map<string, (word: string) => string>([['en', stemEnglish]]);

function stemmerFor(language: string): (word: string) => string {
  const cached = stemmers.get(language);
  if (cached !== undefined) return cached;
  const stem = luceneRevisionStemmer(language) ?? packageStemmer(language);
  stemmers.set(language, stem);
  return stem;
}

function packageStemmer(language: string): (word: string) => string {
  if (!Object.hasOwn(PACKAGE_ALGORITHMS, language))
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Unknown stemmer language: ${language}`);
  library ??= createRequire(import.meta.url)('snowball-stemmers') as SnowballStemmers;
  const stemmer = library.newStemmer(PACKAGE_ALGORITHMS[language]);
  return (word) => stemmer.stem(word);
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
