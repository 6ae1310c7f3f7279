// A parsed JSON value. Numbers keep their text (a JSON number may be wider than a double or a bigint);
// objects keep their members in text order. Parsing and writing are iterative (an explicit stack), so
// a value nested 100,000 levels deep neither overflows the call stack nor needs special cases.

/** A JSON number: its text as written, and whether it has neither a fraction nor an exponent. */
export class JsonNumber {
  constructor(
    readonly text: string,
    readonly integral: boolean,
  ) {}
}

/** A JSON object; a repeated key keeps its last value (as Jackson's tree and map readers do). */
export class JsonObject {
  constructor(readonly members: Map<string, JsonNode>) {}
}

export type JsonNode = null | boolean | string | JsonNumber | JsonNode[] | JsonObject;

/** What is wrong with a JSON text, at which character offset. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function isJsonScalarNode(node: JsonNode): boolean {
  return !Array.isArray(node) && !(node instanceof JsonObject);
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

type Frame = { items: JsonNode[]; key?: undefined } | { members: Map<string, JsonNode>; key: string };

/**
 * Parses one JSON text (RFC 8259, as Jackson reads it by default: no comments, NaN, single quotes or
 * trailing commas). `maxDepth` bounds the nesting of arrays and objects (Jackson's default reader
 * allows 1000; json_parse allows any). With `ignoreTrailing`, text after the first value is not read
 * (Trino's streaming json_extract and json_array_* stop there).
 */
export function parseJsonText(text: string, maxDepth = Infinity, ignoreTrailing = false): JsonNode {
  let i = skipSpace(text, 0);
  const stack: Frame[] = [];
  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, i);
  };
  const readString = (): string => {
    // text[i] is the opening quote.
    let out = '';
    let start = ++i;
    for (;;) {
      if (i >= text.length) fail('Unexpected end-of-input in a string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i++);
        return out;
      }
      if (c < 0x20) fail(`Illegal unquoted character (code ${c}) in a string`);
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(start, i);
      const e = text[i + 1];
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        fail(`Unrecognized character escape '${e ?? ''}'`);
      }
      start = i;
    }
  };
  const readKey = (): string => {
    i = skipSpace(text, i);
    if (text[i] !== '"') fail('Expected a double-quoted field name');
    const key = readString();
    i = skipSpace(text, i);
    if (text[i] !== ':') fail("Expected ':' after a field name");
    i++;
    return key;
  };
  const readScalar = (): JsonNode => {
    const c = text[i];
    if (c === '"') return readString();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (match === null) return fail(i >= text.length ? 'Unexpected end-of-input' : `Unexpected character '${c}'`);
    i += match[0].length;
    return new JsonNumber(match[0], match[1] === undefined && match[2] === undefined);
  };
  for (;;) {
    i = skipSpace(text, i);
    let value: JsonNode;
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length >= maxDepth) fail(`Document nesting depth exceeds the maximum allowed (${maxDepth})`);
      i = skipSpace(text, i + 1);
      if (c === '{' && text[i] === '}') {
        i++;
        value = new JsonObject(new Map());
      } else if (c === '[' && text[i] === ']') {
        i++;
        value = [];
      } else {
        stack.push(c === '{' ? { members: new Map(), key: readKey() } : { items: [] });
        continue;
      }
    } else {
      value = readScalar();
    }
    // Hand the value to its container, closing every container that ends after it.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        if (!ignoreTrailing && skipSpace(text, i) < text.length) {
          i = skipSpace(text, i);
          fail('Unexpected characters after the JSON value');
        }
        return value;
      }
      i = skipSpace(text, i);
      if (top.key === undefined) {
        top.items.push(value);
        if (text[i] === ',') {
          i++;
          break;
        }
        if (text[i] !== ']') fail("Expected ',' or ']' in an array");
        value = top.items;
      } else {
        top.members.set(top.key, value);
        if (text[i] === ',') {
          i++;
          top.key = readKey();
          break;
        }
        if (text[i] !== '}') fail("Expected ',' or '}' in an object");
        value = new JsonObject(top.members);
      }
      i++;
      stack.pop();
    }
  }
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const LITERALS: ReadonlyArray<[string, JsonNode]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

function skipSpace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** How a writer spells numbers and orders object members. */
export interface JsonWriteStyle {
  readonly sortKeys: boolean;
  readonly number: (n: JsonNumber) => string;
}

/** Writes a value compactly (no spaces), iteratively. */
export function writeJsonText(node: JsonNode, style: JsonWriteStyle): string {
  const out: string[] = [];
  // Each entry is a value to write or a piece of text to emit.
  const work: Array<{ node: JsonNode } | string> = [{ node }];
  while (work.length > 0) {
    const next = work.pop() as { node: JsonNode } | string;
    if (typeof next === 'string') {
      out.push(next);
      continue;
    }
    const value = next.node;
    if (Array.isArray(value)) {
      work.push(']');
      for (let k = value.length - 1; k >= 0; k--) {
        work.push({ node: value[k] });
        if (k > 0) work.push(',');
      }
      out.push('[');
    } else if (value instanceof JsonObject) {
      let keys = [...value.members.keys()];
      if (style.sortKeys) keys = keys.sort();
      work.push('}');
      for (let k = keys.length - 1; k >= 0; k--) {
        work.push({ node: value.members.get(keys[k]) as JsonNode });
        work.push(`${k > 0 ? ',' : ''}${jsonString(keys[k])}:`);
      }
      out.push('{');
    } else {
      out.push(writeScalar(value, style));
    }
  }
  return out.join('');
}

function writeScalar(value: null | boolean | string | JsonNumber, style: JsonWriteStyle): string {
  if (value instanceof JsonNumber) return style.number(value);
  return value === null ? 'null' : typeof value === 'boolean' ? String(value) : jsonString(value);
}

/** A JSON string literal as Jackson writes it: control characters as \b \t \n \f \r or \u00XX (upper-case hex). */
export function jsonString(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.includes('\\u')
    ? quoted.replace(/(?<!\\)((?:\\\\)*)\\u([0-9a-f]{4})/g, (_, slashes: string, hex: string) => `${slashes}\\u${hex.toUpperCase()}`)
    : quoted;
}

/**
 * A number as Java's BigDecimal prints it (`1.50`, `1E+3`, `1E-7`): json_parse reads fractions and
 * exponents as BigDecimal and writes them back so. Integers print as their digits (`-0` as `0`).
 */
export function bigDecimalText(n: JsonNumber): string {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(n.text) as RegExpExecArray;
  const fraction = m[3] ?? '';
  const digits = (m[2] + fraction).replace(/^0+(?=[0-9])/, '');
  const negative = m[1] === '-' && !/^0+$/.test(digits);
  const scale = fraction.length - Number(m[4] ?? 0);
  const adjusted = digits.length - 1 - scale;
  let body: string;
  if (scale === 0) body = digits;
  else if (scale > 0 && adjusted >= -6) {
    body =
      digits.length > scale
        ? `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`
        : `0.${'0'.repeat(scale - digits.length)}${digits}`;
  } else {
    body = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
  }
  return (negative ? '-' : '') + body;
}

/** Trino's stored form of a JSON value (json_parse, JSON literals): compact, keys sorted, BigDecimal numbers. */
export const CANONICAL_STYLE: JsonWriteStyle = { sortKeys: true, number: bigDecimalText };

/** The canonical text of a JSON text; throws JsonSyntaxError when it is not one JSON value. */
export function canonicalJson(text: string): string {
  return writeJsonText(parseJsonText(text), CANONICAL_STYLE);
}
