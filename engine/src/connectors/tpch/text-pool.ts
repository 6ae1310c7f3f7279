// The text pool: 300 MiB of pseudo-English that every comment column is a random slice of. dbgen
// builds it once from the grammar in dists.dss (sentence -> noun/verb/prepositional phrases ->
// words) with one stream (seed 933588178); a comment is then two draws, an offset into the pool and
// a length. Built once per process into a SharedArrayBuffer that worker threads adopt instead of
// building their own; the main thread has it built in a worker thread (textPoolReady) rather than
// hold its event loop for seconds.

import { Buffer } from 'node:buffer';
import { once } from 'node:events';
import { Worker, isMainThread } from 'node:worker_threads';
import type { Column } from '../../columnar/page.js';
import { utf8Column } from '../../columnar/utf8-strings.js';
import type { SqlType } from '../../types/types.js';
import type { Distribution } from './distribution.js';
import * as dist from './distributions.js';
import { MODULUS, nextSeed } from './random.js';

export const TEXT_POOL_SIZE = 300 * 1024 * 1024;
const TEXT_POOL_SEED = 933588178;
/** Room past the end for the sentence that crosses it. */
const SENTENCE_SLACK = 1024;

const SPACE = 0x20;
const COMMA = 0x2c;

/**
 * Every word list the grammar draws from, flattened for the generation loop: list `l` owns weight
 * units [unitBase[l], unitBase[l] + unitTotal[l]); unit u's word is bytes [wordStart[u], wordEnd[u]).
 */
class WordLists {
  readonly unitBase: number[] = [];
  readonly unitTotal: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly chunks: Buffer[] = [];
  private byteLength = 0;

  /** Adds a list; returns its id. */
  add(distribution: Distribution): number {
    const ranges = distribution.values.map((value) => {
      const bytes = Buffer.from(value, 'latin1');
      this.chunks.push(bytes);
      const range = [this.byteLength, this.byteLength + bytes.length];
      this.byteLength += bytes.length;
      return range;
    });
    this.unitBase.push(this.starts.length);
    this.unitTotal.push(distribution.totalWeight);
    for (let unit = 0; unit < distribution.totalWeight; unit++) {
      const [start, end] = ranges[distribution.indexOfUnit(unit)];
      this.starts.push(start);
      this.ends.push(end);
    }
    return this.unitBase.length - 1;
  }

  build(): { bytes: Uint8Array; wordStart: Int32Array; wordEnd: Int32Array } {
    return {
      bytes: new Uint8Array(Buffer.concat(this.chunks)),
      wordStart: Int32Array.from(this.starts),
      wordEnd: Int32Array.from(this.ends),
    };
  }
}

/**
 * The grammar compiled to flat programs of word-list ids and these operations. A sentence program
 * holds phrase operations; a phrase program (picked per phrase) holds only word lists and commas.
 * Every word is followed by a space.
 */
const COMMA_AFTER_WORD = -1;
const NOUN_PHRASE = -2;
const VERB_PHRASE = -3;
const THE = -4;
/** Drops the last space: a terminator abuts the word before it. */
const BACKSPACE = -5;

interface Grammar {
  bytes: Uint8Array;
  wordStart: Int32Array;
  wordEnd: Int32Array;
  unitBase: Int32Array;
  unitTotal: Int32Array;
  /** Per weight unit of each syntax distribution, the program of the syntax it picks. */
  sentenceByUnit: Int32Array[];
  nounPhraseByUnit: Int32Array[];
  verbPhraseByUnit: Int32Array[];
}

function compileGrammar(): Grammar {
  const lists = new WordLists();
  const nouns = lists.add(dist.NOUNS);
  const verbs = lists.add(dist.VERBS);
  const adjectives = lists.add(dist.ADJECTIVES);
  const adverbs = lists.add(dist.ADVERBS);
  const articles = lists.add(dist.ARTICLES);
  const auxiliaries = lists.add(dist.AUXILIARIES);
  const prepositions = lists.add(dist.PREPOSITIONS);
  const terminators = lists.add(dist.TERMINATORS);
  const sentenceParts: Record<string, number[]> = {
    N: [NOUN_PHRASE],
    V: [VERB_PHRASE],
    P: [prepositions, THE, NOUN_PHRASE],
    T: [BACKSPACE, terminators],
  };
  const nounPhraseParts: Record<string, number[]> = {
    A: [articles],
    J: [adjectives],
    D: [adverbs],
    N: [nouns],
    ',': [COMMA_AFTER_WORD],
  };
  const verbPhraseParts: Record<string, number[]> = { V: [verbs], X: [auxiliaries], D: [adverbs] };
  const compile =
    (parts: Record<string, number[]>) =>
    (syntax: string): Int32Array =>
      Int32Array.from(
        [...syntax]
          .filter((c) => c !== ' ')
          .flatMap((c) => {
            const codes = parts[c];
            if (codes === undefined) throw new Error(`unknown grammar element '${c}' in '${syntax}'`);
            return codes;
          }),
      );
  const byUnit = (distribution: Distribution, program: (syntax: string) => Int32Array): Int32Array[] => {
    const programs = distribution.values.map(program);
    return Array.from({ length: distribution.totalWeight }, (_, unit) => programs[distribution.indexOfUnit(unit)]);
  };
  return {
    ...lists.build(),
    unitBase: Int32Array.from(lists.unitBase),
    unitTotal: Int32Array.from(lists.unitTotal),
    sentenceByUnit: byUnit(dist.GRAMMAR, compile(sentenceParts)),
    nounPhraseByUnit: byUnit(dist.NOUN_PHRASES, compile(nounPhraseParts)),
    verbPhraseByUnit: byUnit(dist.VERB_PHRASES, compile(verbPhraseParts)),
  };
}

/**
 * Generates the first `size` bytes of the pool into `out` (at least size + 1024 bytes long).
 * One flat loop over typed arrays with the state in locals: this runs for some 60 million words.
 */
export function generateTextPoolBytes(out: Uint8Array, size = TEXT_POOL_SIZE): void {
  if (out.length < size + SENTENCE_SLACK) throw new Error('text pool buffer too small');
  const { bytes, wordStart, wordEnd, unitBase, unitTotal, sentenceByUnit, nounPhraseByUnit, verbPhraseByUnit } = compileGrammar();
  const grammarTotal = dist.GRAMMAR.totalWeight;
  const nounPhraseTotal = dist.NOUN_PHRASES.totalWeight;
  const verbPhraseTotal = dist.VERB_PHRASES.totalWeight;
  let seed = TEXT_POOL_SEED;
  let pos = 0;
  while (pos < size) {
    seed = nextSeed(seed);
    const sentence = sentenceByUnit[Math.floor((seed / MODULUS) * grammarTotal)];
    for (let i = 0; i < sentence.length; i++) {
      const op = sentence[i];
      if (op >= 0) {
        seed = nextSeed(seed);
        const unit = unitBase[op] + Math.floor((seed / MODULUS) * unitTotal[op]);
        for (let k = wordStart[unit], end = wordEnd[unit]; k < end; k++) out[pos++] = bytes[k];
        out[pos++] = SPACE;
      } else if (op === BACKSPACE) {
        pos--;
      } else if (op === THE) {
        out[pos++] = 0x74; // t
        out[pos++] = 0x68; // h
        out[pos++] = 0x65; // e
        out[pos++] = SPACE;
      } else {
        seed = nextSeed(seed);
        const phrase =
          op === NOUN_PHRASE
            ? nounPhraseByUnit[Math.floor((seed / MODULUS) * nounPhraseTotal)]
            : verbPhraseByUnit[Math.floor((seed / MODULUS) * verbPhraseTotal)];
        for (let j = 0; j < phrase.length; j++) {
          const list = phrase[j];
          if (list === COMMA_AFTER_WORD) {
            out[pos - 1] = COMMA;
          } else {
            seed = nextSeed(seed);
            const unit = unitBase[list] + Math.floor((seed / MODULUS) * unitTotal[list]);
            for (let k = wordStart[unit], end = wordEnd[unit]; k < end; k++) out[pos++] = bytes[k];
          }
          out[pos++] = SPACE;
        }
      }
    }
  }
}

/**
 * The pool's bytes, once per process in shared memory; a comment is decoded from them when it is
 * drawn. Each thread keeping the pool decoded as strings would hold another 300 MiB per thread (off
 * its V8 heap, where the memory settings do not see it).
 */
export class TextPool {
  private readonly bytes: Buffer;

  constructor(
    bytes: Uint8Array,
    readonly size = TEXT_POOL_SIZE,
  ) {
    this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** `length` characters from `offset`. */
  slice(offset: number, length: number): string {
    return this.bytes.toString('latin1', offset, offset + length);
  }

  /**
   * The texts at `ranges` as a column of `type`, its rows in their UTF-8 bytes (utf8-strings.ts):
   * copied from the pool, without a JS string per row unless something reads them as strings.
   */
  column(type: SqlType, ranges: TextRanges): Column {
    const { starts, lengths } = ranges;
    const count = starts.length;
    const offsets = new Int32Array(count + 1);
    for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i] + lengths[i];
    const bytes = new Uint8Array(offsets[count]);
    const pool = this.bytes;
    // Byte by byte: a text is tens of bytes, too short for a native copy's call to pay.
    for (let i = 0, at = 0; i < count; i++) for (let b = starts[i], end = b + lengths[i]; b < end; b++) bytes[at++] = pool[b];
    const { ascii, jsonPlain } = scanAscii(bytes);
    // A byte above 0x7f is one latin1 character (slice), two bytes of UTF-8: the grammar's words never hold one.
    if (!ascii) return { type, length: count, values: Array.from(starts, (offset, i) => this.slice(offset, lengths[i])), nulls: null };
    return utf8Column(type, count, null, { offsets, bytes, jsonPlain });
  }
}

/** Row i of a text column is `lengths[i]` pool bytes from `starts[i]`. */
export interface TextRanges {
  starts: Int32Array;
  lengths: Int32Array;
}

/** Whether the bytes are all ASCII, and whether none of them is one JSON escapes (a quote, a backslash, a control). */
function scanAscii(bytes: Uint8Array): { ascii: boolean; jsonPlain: boolean } {
  let jsonPlain = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0x80) return { ascii: false, jsonPlain: false };
    if (b < 0x20 || b === 0x22 || b === 0x5c) jsonPlain = false;
  }
  return { ascii: true, jsonPlain };
}

let shared: SharedArrayBuffer | undefined;
let pool: TextPool | undefined;

/** This thread's pool: over the bytes another thread shared (adoptSharedTextPool), else built now. */
export function textPool(): TextPool {
  pool ??= new TextPool(new Uint8Array(sharedTextPool()));
  return pool;
}

/** Whether reading these columns draws from the pool (the comment columns, and only they). */
export function needsTextPool(columns: readonly string[]): boolean {
  return columns.some((c) => c === 'comment' || c.endsWith('_comment'));
}

let building: Promise<void> | undefined;

/**
 * Resolves once textPool() and sharedTextPool() answer without building: in the main thread the
 * bytes are built in a worker thread into shared memory; other threads build their own on use.
 */
export function textPoolReady(): Promise<void> {
  if (shared !== undefined || !isMainThread) return Promise.resolve();
  building ??= buildInWorker().then(
    (buffer) => {
      shared ??= buffer;
    },
    (e: unknown) => {
      building = undefined;
      throw e;
    },
  );
  return building;
}

async function buildInWorker(): Promise<SharedArrayBuffer> {
  const buffer = new SharedArrayBuffer(TEXT_POOL_SIZE + SENTENCE_SLACK);
  const worker = new Worker(new URL('./text-pool-builder.js', import.meta.url), { workerData: buffer });
  const failed = once(worker, 'error').then(([e]) => Promise.reject(e as Error));
  await Promise.race([once(worker, 'message'), failed]);
  failed.catch(() => undefined);
  await worker.terminate();
  return buffer;
}

/** The pool's bytes in shared memory, built on first use, for handing to worker threads (see adoptSharedTextPool). */
export function sharedTextPool(): SharedArrayBuffer {
  if (shared === undefined) {
    const buffer = new SharedArrayBuffer(TEXT_POOL_SIZE + SENTENCE_SLACK);
    generateTextPoolBytes(new Uint8Array(buffer));
    shared = buffer;
  }
  return shared;
}

/** Makes this thread use pool bytes another thread built (from sharedTextPool) instead of building them. */
export function adoptSharedTextPool(buffer: SharedArrayBuffer): void {
  if (buffer.byteLength < TEXT_POOL_SIZE) throw new Error('not a TPC-H text pool buffer');
  shared = buffer;
}
