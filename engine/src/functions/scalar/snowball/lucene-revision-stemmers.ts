// The Snowball stemmers generated at Lucene 10's Snowball revision, by Trino's language code: the
// languages whose stems no npm package gives as that revision does (measured on Snowball's own
// vocabularies; see word-stem.ts).

import { FinnishStemmer } from './finnish-stemmer.js';
import { FrenchStemmer } from './french-stemmer.js';
import { GermanStemmer } from './german-stemmer.js';
import { ItalianStemmer } from './italian-stemmer.js';
import { LithuanianStemmer } from './lithuanian-stemmer.js';
import { RomanianStemmer } from './romanian-stemmer.js';
import { RussianStemmer } from './russian-stemmer.js';
import { SwedishStemmer } from './swedish-stemmer.js';

type GeneratedStemmer = new () => { stemWord(word: string): string };

const GENERATED: Readonly<Record<string, unknown>> = {
  de: GermanStemmer,
  fi: FinnishStemmer,
  fr: FrenchStemmer,
  it: ItalianStemmer,
  lt: LithuanianStemmer,
  ro: RomanianStemmer,
  ru: RussianStemmer,
  sv: SwedishStemmer,
};

/** The stem function of a language code, or undefined when no generated stemmer serves it. */
export function luceneRevisionStemmer(language: string): ((word: string) => string) | undefined {
  if (!Object.hasOwn(GENERATED, language)) return undefined;
  const stemmer = new (GENERATED[language] as GeneratedStemmer)();
  return (word) => stemmer.stemWord(word);
}
