// Columns built from the text values of CSV and JSON files: each value is parsed into the column's
// type as CAST(varchar AS type) parses it (Trino's rules), after the in-place fast paths of
// text-ranges.ts, writing straight into the column's typed array. A value that does not parse throws BadValue, which
// the reader turns into an error naming the file, line and column.

import { EngineError } from '../../../../errors/engine-error.js';
import { allocateValues, type Column, type ColumnValues } from '../../../../columnar/page.js';
import type { Scalar } from '../../../../types/scalar.js';
import { castFunction } from '../../../../types/casts.js';
import { typeName, VARCHAR, type SqlType } from '../../../../types/types.js';
import { rangeParser, type RangeParser } from './text-ranges.js';

/** A value that is not of its column's type: `reason` says why. */
export class BadValue extends Error {}

/** Parses one value's text into the value the column stores (numbers as stored: booleans 0/1). */
export type TextParser = (text: string) => number | bigint | string;

const INTEGER = /^\s*[+-]?\d+\s*$/;
const DECIMAL_NUMBER = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const BOUNDS = { tinyint: 127, smallint: 32767, integer: 2147483647 } as const;
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

export function textParser(type: SqlType, column: string): TextParser {
  const slow = castParser(type);
  switch (type.kind) {
    case 'varchar':
      return type.length === undefined ? (text) => text : slow;
    case 'tinyint':
    case 'smallint':
    case 'integer': {
      const max = BOUNDS[type.kind];
      return (text) => {
        if (INTEGER.test(text)) {
          const n = Number(text);
          if (n <= max && n >= -max - 1) return n;
        }
        return slow(text);
      };
    }
    case 'bigint':
      return (text) => {
        if (INTEGER.test(text)) {
          const n = BigInt(text.trim());
          if (n >= BIGINT_MIN && n <= BIGINT_MAX) return n;
        }
        return slow(text);
      };
    case 'double':
      return (text) => (DECIMAL_NUMBER.test(text) ? Number(text) : slow(text));
    case 'real':
      return (text) => (DECIMAL_NUMBER.test(text) ? Math.fround(Number(text)) : slow(text));
    case 'boolean':
      return (text) => (text === 'true' ? 1 : text === 'false' ? 0 : slow(text));
    case 'varbinary':
    case 'unknown':
      throw new EngineError(
        'NOT_SUPPORTED',
        `Column '${column}' of type ${typeName(type)} cannot be read from or written to CSV or JSON files`,
      );
    default:
      return slow;
  }
}

/** CAST(varchar AS type), its failure a BadValue. */
function castParser(type: SqlType): TextParser {
  const cast = castFunction(VARCHAR, type) as (text: string) => Scalar;
  return (text) => {
    let value: Scalar;
    try {
      value = cast(text);
    } catch (e) {
      throw new BadValue(e instanceof EngineError ? e.rawMessage : String(e));
    }
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value as number | bigint | string;
  };
}

/** Whether this machine stores the low 32 bits of a 64-bit integer first (every platform Node runs on does). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const TWO_32 = 4294967296;

/** One page's worth of a column, filled value by value. */
export class TextColumnBuilder {
  private values: ColumnValues;
  /** The 64-bit values as pairs of 32-bit words: a safe integer is stored without making a BigInt. */
  private words: Int32Array | undefined;
  private nulls: Uint8Array | null = null;
  private size = 0;
  private readonly fast: RangeParser | undefined;

  constructor(
    readonly type: SqlType,
    readonly parse: TextParser,
    private readonly capacity: number,
  ) {
    this.fast = rangeParser(type);
    this.values = this.allocate();
  }

  /** Parses and appends a value; throws BadValue when it is not of the type. */
  append(text: string): void {
    const fast = this.fast?.(text, 0, text.length);
    this.store(fast === undefined ? this.parse(text) : fast);
  }

  /** Appends the value of text[start, end) (not empty), parsing it in place when it can. */
  appendRange(text: string, start: number, end: number): void {
    const fast = this.fast?.(text, start, end);
    this.store(fast === undefined ? this.parse(text.slice(start, end)) : fast);
  }

  appendValue(value: number | bigint | string): void {
    this.store(value);
  }

  appendNull(): void {
    if (this.nulls === null) this.nulls = new Uint8Array(this.capacity);
    this.nulls[this.size++] = 1;
  }

  /** The column so far; the builder starts over. */
  take(): Column {
    const length = this.size;
    const values = length === this.capacity ? this.values : (this.values.slice(0, length) as ColumnValues);
    const nulls = this.nulls === null ? null : this.nulls.subarray(0, length);
    const column: Column = { type: this.type, length, values, nulls };
    this.values = this.allocate();
    this.nulls = null;
    this.size = 0;
    return column;
  }

  private store(value: number | bigint | string): void {
    const i = this.size++;
    if (this.words !== undefined && typeof value === 'number') {
      const high = Math.floor(value / TWO_32);
      this.words[2 * i] = value - high * TWO_32;
      this.words[2 * i + 1] = high;
      return;
    }
    (this.values as unknown as unknown[])[i] = value;
  }

  private allocate(): ColumnValues {
    const values = allocateValues(this.type, this.capacity);
    this.words =
      values instanceof BigInt64Array && LITTLE_ENDIAN ? new Int32Array(values.buffer, values.byteOffset, values.length * 2) : undefined;
    return values;
  }
}
