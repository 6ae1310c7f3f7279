// JSON with exact 64-bit integers: JSON.parse keeps integers only to 2^53, but result rows carry
// exact bigints (Trino writes every 64-bit integer as its exact digits). parseJson is JSON.parse
// except that integer literals beyond the safe range become bigint; stringifyJson writes them back.

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

export function parseJson(text: string): JsonValue {
  return parseWith(new JsonParser(text, false));
}

/**
 * parseJson, fast: JSON.parse's values are parseJson's unless the text holds an integer beyond 2^53,
 * which JSON.parse rounds to a double that is an integer beyond the safe range, and then parseJson
 * reads the text again (as it does text that JSON.parse refuses, to say where and why).
 */
export function parseJsonQuickly(text: string): JsonValue {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return parseJson(text);
  }
  return holdsUnsafeInteger(value) ? parseJson(text) : value;
}

function holdsUnsafeInteger(value: JsonValue): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const element of value) if (holdsUnsafeInteger(element)) return true;
    return false;
  }
  for (const key in value) if (holdsUnsafeInteger((value as { [key: string]: JsonValue })[key])) return true;
  return false;
}

/** JSON.parse, except that every number is its literal text (`12345678901234567890.25`), for exact reading. */
export function parseJsonNumbersAsText(text: string): JsonValue {
  return parseWith(new JsonParser(text, true));
}

function parseWith(parser: JsonParser): JsonValue {
  const value = parser.value();
  parser.end();
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WHITESPACE = /[ \t\n\r]*/y;

class JsonParser {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly numbersAsText: boolean,
  ) {}

  value(): JsonValue {
    this.skipWhitespace();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail('unexpected character');
  }

  end(): void {
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail('unexpected text after the value');
  }

  private object(): { [key: string]: JsonValue } {
    const out: { [key: string]: JsonValue } = {};
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      const key = this.string();
      this.skipWhitespace();
      this.expect(':');
      const value = this.value();
      // A member named __proto__ is a member, as JSON.parse makes it, not the object's prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      this.skipWhitespace();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return out;
      }
      this.expect(',');
    }
  }

  private array(): JsonValue[] {
    const out: JsonValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipWhitespace();
      if (this.text[this.pos] === ']') {
        this.pos++;
        return out;
      }
      this.expect(',');
    }
  }

  private string(): string {
    const literal = this.match(STRING, 'a string');
    return JSON.parse(literal) as string;
  }

  private number(): number | bigint | string {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (m === null) return this.fail('malformed number');
    this.pos += m[0].length;
    if (this.numbersAsText) return m[0];
    const isInteger = m[1] === undefined && m[2] === undefined;
    const n = Number(m[0]);
    return isInteger && !Number.isSafeInteger(n) ? BigInt(m[0]) : n;
  }

  private match(re: RegExp, what: string): string {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (m === null) return this.fail(`expected ${what}`);
    this.pos += m[0].length;
    return m[0];
  }

  private expect(c: string): void {
    if (this.text[this.pos] !== c) this.fail(`expected '${c}'`);
    this.pos++;
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.pos;
    WHITESPACE.exec(this.text);
    this.pos = WHITESPACE.lastIndex;
  }

  private fail(message: string): never {
    throw new SyntaxError(`Invalid JSON at position ${this.pos}: ${message}`);
  }
}

/** JSON text like JSON.stringify's, with bigints written as exact integers. */
/**
 * A JSON object written with its members in this order, integer-like names included (a plain JS
 * object lists those first, in ascending order): a map's entries, as Trino writes them. Like a
 * bigint, JSON.stringify refuses it (toJSON throws a TypeError), so stringifyJson writes it.
 */
export class OrderedJsonObject {
  constructor(readonly members: ReadonlyArray<readonly [name: string, value: unknown]>) {}

  toJSON(): never {
    throw new TypeError('An OrderedJsonObject is written by stringifyJson');
  }
}

/** JSON text written as it is (a VARIANT for a client with the VARIANT capability); stringifyJson writes it. */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): never {
    throw new TypeError('A RawJson is written by stringifyJson');
  }
}

export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return writeValue(value) ?? 'null';
  }
}

function writeValue(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => writeValue(v) ?? 'null').join(',')}]`;
  if (value instanceof OrderedJsonObject)
    return `{${value.members.map(([name, v]) => `${JSON.stringify(name)}:${writeValue(v) ?? 'null'}`).join(',')}}`;
  if (value !== null && typeof value === 'object') {
    const members: string[] = [];
    for (const [key, v] of Object.entries(value)) {
      const text = writeValue(v);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
