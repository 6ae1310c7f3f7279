// The Snowball English (Porter2) stemmer as Lucene 10 runs it for Trino's word_stem: Snowball's
// algorithm at the revision Lucene 10 imports, which no longer undoubles a final consonant pair
// right after a lone initial a, e or o (added -> add, not ad). Words are handled as Snowball does:
// as given (no case folding), vowels are a e i o u y, and only whole code points count.

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
const VALID_LI = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't']);
const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);
const APOSTROPHE = "'";

/** Whole words that stem to a fixed form (or stay as they are). */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  skis: 'ski',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  idly: 'idl',
  gently: 'gentl',
  ugly: 'ugli',
  early: 'earli',
  only: 'onli',
  singly: 'singl',
  sky: 'sky',
  news: 'news',
  howe: 'howe',
  atlas: 'atlas',
  cosmos: 'cosmos',
  bias: 'bias',
  andes: 'andes',
};
/** Words left as they are once step 1a has run. */
const INVARIANT_AFTER_1A = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed']);
const R1_PREFIXES = ['gener', 'commun', 'arsen'];

/** Suffix rules of a step: the longest suffix present is the one that applies, or fails. */
type SuffixRules = Readonly<Record<string, (word: Word, start: number) => void>>;

const isVowel = (c: string | undefined): boolean => c !== undefined && VOWELS.has(c);

class Word {
  chars: string[];
  p1: number;
  p2: number;

  constructor(text: string) {
    this.chars = [...text];
    this.p1 = this.p2 = this.chars.length;
  }

  get length(): number {
    return this.chars.length;
  }

  endsWith(suffix: string): boolean {
    const n = suffix.length;
    return n <= this.length && this.chars.slice(this.length - n).join('') === suffix;
  }

  /** Replaces everything from `start` on. */
  replaceFrom(start: number, replacement: string): void {
    this.chars.splice(start, this.length - start, ...replacement);
  }

  /** Whether some vowel lies before `end`. */
  hasVowelBefore(end: number): boolean {
    for (let i = 0; i < end; i++) if (isVowel(this.chars[i])) return true;
    return false;
  }

  /** Whether the letters before `end` close a short syllable. */
  shortSyllableBefore(end: number): boolean {
    const [a, b, c] = [this.chars[end - 3], this.chars[end - 2], this.chars[end - 1]];
    if (end < 2 || isVowel(c) || !isVowel(b)) return false;
    if (end === 2) return true;
    return !isVowel(a) && c !== 'w' && c !== 'x' && c !== 'Y';
  }
}

/** The longest of `rules`' suffixes the word ends with, and where it starts. */
function longestSuffix(word: Word, rules: SuffixRules): { suffix: string; start: number } | undefined {
  let best: string | undefined;
  for (const suffix of Object.keys(rules)) if (word.endsWith(suffix) && (best === undefined || suffix.length > best.length)) best = suffix;
  return best === undefined ? undefined : { suffix: best, start: word.length - best.length };
}

function applyStep(word: Word, rules: SuffixRules, region?: 'p1' | 'p2'): void {
  const match = longestSuffix(word, rules);
  if (match === undefined || (region !== undefined && match.start < word[region])) return;
  rules[match.suffix](word, match.start);
}

const replaceWith =
  (replacement: string) =>
  (word: Word, start: number): void =>
    word.replaceFrom(start, replacement);
const remove = replaceWith('');
const keep = (): void => {};
const rules = (entries: ReadonlyArray<readonly [suffixes: string, action: (word: Word, start: number) => void]>): SuffixRules =>
  Object.fromEntries(entries.flatMap(([suffixes, action]) => suffixes.split(' ').map((s) => [s, action])));

const STEP_1A = rules([
  ['sses', replaceWith('ss')],
  ['ied ies', (w, start) => w.replaceFrom(start, start > 1 ? 'i' : 'ie')],
  ['s', (w, start) => (w.hasVowelBefore(start - 1) ? w.replaceFrom(start, '') : undefined)],
  ['us ss', keep],
]);

const STEP_1B = rules([
  ['eed eedly', (w, start) => (start >= w.p1 ? w.replaceFrom(start, 'ee') : undefined)],
  ['ed edly ing ingly', (w, start) => (w.hasVowelBefore(start) ? afterStep1bDeletion(w, start) : undefined)],
]);

/** After -ed or -ing goes: restore an e, undouble a final pair, or add an e to a short word. */
function afterStep1bDeletion(word: Word, start: number): void {
  word.replaceFrom(start, '');
  const end = word.length;
  if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) word.replaceFrom(end, 'e');
  else if (end >= 2 && DOUBLES.has(word.chars[end - 2] + word.chars[end - 1])) {
    // a lone initial a, e or o keeps the pair: add, egg, off
    if (!(end === 3 && 'aeo'.includes(word.chars[0]))) word.replaceFrom(end - 1, '');
  } else if (word.p1 === end && word.shortSyllableBefore(end)) word.replaceFrom(end, 'e');
}

const STEP_2 = rules([
  ['tional', replaceWith('tion')],
  ['enci', replaceWith('ence')],
  ['anci', replaceWith('ance')],
  ['abli', replaceWith('able')],
  ['entli', replaceWith('ent')],
  ['izer ization', replaceWith('ize')],
  ['ational ation ator', replaceWith('ate')],
  ['alism aliti alli', replaceWith('al')],
  ['fulness', replaceWith('ful')],
  ['ousli ousness', replaceWith('ous')],
  ['iveness iviti', replaceWith('ive')],
  ['biliti bli', replaceWith('ble')],
  ['ogi', (w, start) => (w.chars[start - 1] === 'l' ? w.replaceFrom(start, 'og') : undefined)],
  ['fulli', replaceWith('ful')],
  ['lessli', replaceWith('less')],
  ['li', (w, start) => (VALID_LI.has(w.chars[start - 1]) ? w.replaceFrom(start, '') : undefined)],
]);

const STEP_3 = rules([
  ['tional', replaceWith('tion')],
  ['ational', replaceWith('ate')],
  ['alize', replaceWith('al')],
  ['icate iciti ical', replaceWith('ic')],
  ['ful ness', remove],
  ['ative', (w, start) => (start >= w.p2 ? w.replaceFrom(start, '') : undefined)],
]);

const STEP_4 = rules([
  ['al ance ence er ic able ible ant ement ment ent ism ate iti ous ive ize', remove],
  ['ion', (w, start) => (w.chars[start - 1] === 's' || w.chars[start - 1] === 't' ? w.replaceFrom(start, '') : undefined)],
]);

const STEP_5 = rules([
  ['e', (w, start) => (start >= w.p2 || (start >= w.p1 && !w.shortSyllableBefore(start)) ? w.replaceFrom(start, '') : undefined)],
  ['l', (w, start) => (start >= w.p2 && w.chars[start - 1] === 'l' ? w.replaceFrom(start, '') : undefined)],
]);

/** y as a consonant (initial, or after a vowel) becomes Y for the steps; whether any did. */
function markConsonantY(word: Word): boolean {
  let found = false;
  word.chars.forEach((c, i) => {
    if (c === 'y' && (i === 0 || isVowel(word.chars[i - 1]))) {
      word.chars[i] = 'Y';
      found = true;
    }
  });
  return found;
}

/** R1 starts after the first non-vowel that follows a vowel (or after gener, commun, arsen); R2 likewise within R1. */
function markRegions(word: Word): void {
  const afterVowelThenConsonant = (from: number): number | undefined => {
    let i = from;
    while (i < word.length && !isVowel(word.chars[i])) i++;
    while (i < word.length && isVowel(word.chars[i])) i++;
    return i < word.length ? i + 1 : undefined;
  };
  word.p1 = word.p2 = word.length;
  const prefix = R1_PREFIXES.find((p) => word.chars.slice(0, p.length).join('') === p);
  const p1 = prefix !== undefined ? prefix.length : afterVowelThenConsonant(0);
  if (p1 === undefined) return;
  word.p1 = p1;
  word.p2 = afterVowelThenConsonant(p1) ?? word.length;
}

export function stemEnglish(text: string): string {
  if (Object.hasOwn(EXCEPTIONS, text)) return EXCEPTIONS[text];
  const word = new Word(text);
  if (word.length < 3) return text;
  if (word.chars[0] === APOSTROPHE) word.chars.shift();
  const yMarked = markConsonantY(word);
  markRegions(word);
  // step 1a: possessive apostrophes first
  applyStep(word, { "'": remove, "'s": remove, "'s'": remove });
  applyStep(word, STEP_1A);
  if (!INVARIANT_AFTER_1A.has(word.chars.join(''))) {
    applyStep(word, STEP_1B);
    const last = word.length - 1;
    if ((word.chars[last] === 'y' || word.chars[last] === 'Y') && last > 1 && !isVowel(word.chars[last - 1])) word.chars[last] = 'i';
    applyStep(word, STEP_2, 'p1');
    applyStep(word, STEP_3, 'p1');
    applyStep(word, STEP_4, 'p2');
    applyStep(word, STEP_5);
  }
  const stem = word.chars.join('');
  return yMarked ? stem.replaceAll('Y', 'y') : stem;
}
