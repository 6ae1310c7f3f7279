// Columns built from the text values of CSV and JSON files: each value is parsed into the column's
// type as CAST(varchar AS type) parses it (Trino's rules), with fast paths for the common types that
// write straight into the column's typed array. A value that does not parse throws BadValue, which
// the reader turns into an error naming the file, line and column.

import { EngineError } from '../../../../errors/engine-error.js';
import { allocateValues, type Column, type ColumnValues, type Scalar } from '../../../../spi/page.js';
import { castFunction } from '../../../../types/casts.js';
import { civilToDays } from '../../../../types/datetime.js';
import { typeName, VARCHAR, type SqlType } from '../../../../types/types.js';

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
    case 'date':
      return (text) => isoDate(text) ?? slow(text);
    case 'varbinary':
    case 'unknown':
      throw new EngineError('NOT_SUPPORTED', `Column '${column}' of type ${typeName(type)} cannot be read from or written to CSV or JSON files`);
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

/** Days of `YYYY-MM-DD` exactly, or undefined (other spellings go the slow way). */
function isoDate(text: string): number | undefined {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 28) return undefined;
  return civilToDays(year, month, day);
}

function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** One page's worth of a column, filled value by value. */
export class TextColumnBuilder {
  private values: ColumnValues;
  private nulls: Uint8Array | null = null;
  private size = 0;

  constructor(
    readonly type: SqlType,
    readonly parse: TextParser,
    private readonly capacity: number,
  ) {
    this.values = allocateValues(type, capacity);
  }

  /** Parses and appends a value; throws BadValue when it is not of the type. */
  append(text: string): void {
    (this.values as unknown as unknown[])[this.size++] = this.parse(text);
  }

  appendValue(value: number | bigint | string): void {
    (this.values as unknown as unknown[])[this.size++] = value;
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
    this.values = allocateValues(this.type, this.capacity);
    this.nulls = null;
    this.size = 0;
    return column;
  }
}
