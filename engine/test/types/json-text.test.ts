// The JSON text reader and writer behind the json type (types/json/json-node.ts) against an
// independent reader, V8's JSON.parse (both follow RFC 8259 strictly): on random documents and on
// random one-character mutations of them, both accept the same texts and read the same values.
// Also: Java BigDecimal's printing of numbers (json_parse's stored form), and nesting depth.

import { expect } from 'chai';
import {
  CANONICAL_STYLE,
  JsonSyntaxError,
  bigDecimalText,
  JsonNumber,
  parseJsonText,
  writeJsonText,
} from '../../src/types/json/json-node.js';
import { seededRandom } from '../support/seeded-random.js';

const KEYS = ['a', 'b', 'é', 'quo"te', '', 'x y', '\u0001', 'b'];
const STRINGS = ['', 'text', 'tab\there', 'new\nline', 'slash/\\', 'ünï', '😀', '"quoted"'];
const NUMBERS = ['0', '-0', '12', '-7', '1.5', '0.25', '1e3', '-2.5E-3', '123456789012345678901234567890', '1E+2'];

function randomText(next: () => number, depth: number): string {
  const space = () => [' ', '', '\n', '\t ', '\r\n'][Math.floor(next() * 5)];
  const r = next();
  if (depth > 4 || r < 0.4) {
    const s = next();
    if (s < 0.35) return NUMBERS[Math.floor(next() * NUMBERS.length)];
    if (s < 0.75) return JSON.stringify(STRINGS[Math.floor(next() * STRINGS.length)]);
    return ['true', 'false', 'null'][Math.floor(next() * 3)];
  }
  const count = Math.floor(next() * 4);
  if (r < 0.7)
    return `[${space()}${Array.from({ length: count }, () => randomText(next, depth + 1)).join(`${space()},${space()}`)}${space()}]`;
  const members = Array.from(
    { length: count },
    () => `${JSON.stringify(KEYS[Math.floor(next() * KEYS.length)])}${space()}:${space()}${randomText(next, depth + 1)}`,
  );
  return `{${space()}${members.join(`${space()},${space()}`)}${space()}}`;
}

/** V8's value written compactly with sorted keys (numbers as JavaScript prints them). */
function oracleText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oracleText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${oracleText(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const JS_NUMBERS = { sortKeys: true, number: (n: JsonNumber) => JSON.stringify(Number(n.text)) };

function ours(text: string): string | undefined {
  try {
    return writeJsonText(parseJsonText(text), JS_NUMBERS).replace(/\\u([0-9A-F]{4})/g, (_, h: string) => `\\u${h.toLowerCase()}`);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined;
    throw e;
  }
}
function v8(text: string): string | undefined {
  try {
    return oracleText(JSON.parse(text));
  } catch {
    return undefined;
  }
}

describe('JSON text reading and writing', () => {
  const next = seededRandom(7);
  const documents = Array.from({ length: 400 }, () => randomText(next, 0));

  it('reads random documents as V8 reads them', () => {
    for (const text of documents) expect(ours(text), text).to.equal(v8(text));
  });

  it('accepts and refuses the same one-character mutations as V8', () => {
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', 'e', '-', '.', '0', ' ', 'x', 'n', '\u0002', 't'];
    let refused = 0;
    for (const text of documents) {
      for (let k = 0; k < 5; k++) {
        const at = Math.floor(next() * (text.length + 1));
        const c = alphabet[Math.floor(next() * alphabet.length)];
        const mutated = next() < 0.3 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + c + text.slice(at);
        const expected = v8(mutated);
        if (expected === undefined) refused++;
        expect(ours(mutated), JSON.stringify(mutated)).to.equal(expected);
      }
    }
    expect(refused).to.be.greaterThan(300);
  });

  it('prints numbers as Java BigDecimal does (json_parse stores them so), integers as their digits', () => {
    const cases: Array<[string, boolean, string]> = [
      ['1.50', false, '1.50'],
      ['1e3', false, '1E+3'],
      ['1.0e3', false, '1.0E+3'],
      ['0.0000001', false, '1E-7'],
      ['0.000001', false, '0.000001'],
      ['12e-1', false, '1.2'],
      ['-0.0', false, '0.0'],
      ['0e5', false, '0E+5'],
      ['123.456e-10', false, '1.23456E-8'],
      ['-0', true, '0'],
      ['00012', true, '12'],
    ];
    for (const [text, integral, printed] of cases) expect(bigDecimalText(new JsonNumber(text, integral)), text).to.equal(printed);
  });

  it('reads and writes a value nested 200,000 levels deep, and bounds the depth where asked', () => {
    const text = `${'{"a":['.repeat(100_000)}1${']}'.repeat(100_000)}`;
    expect(writeJsonText(parseJsonText(text), CANONICAL_STYLE)).to.equal(text);
    expect(() => parseJsonText('[[[1]]]', 2)).to.throw(JsonSyntaxError, /nesting depth/);
    expect(parseJsonText('[[1]]', 2)).to.deep.equal([[new JsonNumber('1', true)]]);
  });
});
