// A page's rows as the JSON text of a statement response's `data` (each row a JSON array, rows
// separated by commas), written straight into UTF-8 bytes: no JS array or value per row, no string per
// cell for the common types, one buffer per page. Every value is written as resultJsonValue +
// stringifyJson would write it (result-json.ts): the common types by fast paths here, any other type
// and any value outside a fast path's range (a bigint beyond 2^53, a non-finite double) through them.

import { getScalar, type Column, type Page } from '../columnar/page.js';
import { formatDate } from '../types/datetime.js';
import { padChar } from '../types/chars.js';
import { stringifyJson } from '../types/exact-json.js';
import { typesEqual, type SqlType } from '../types/types.js';
import { JsonByteWriter } from './json-byte-writer.js';
import { resultJsonValue } from './result-json.js';
import type { VariantWireForm } from '../types/variant/variant-client.js';
import type { Utf8Strings } from '../columnar/utf8-strings.js';

/** Rows [0, n) as `row0,row1,...`; row i is bytes [rowStarts[i], rowStarts[i + 1] - 1) (rowStarts[n] counts a trailing comma). */
export interface JsonRows {
  bytes: Uint8Array;
  rowStarts: Int32Array;
}

const enum CellKind {
  Generic,
  Boolean,
  SmallInteger,
  Bigint,
  Double,
  Text,
  /** A string column that holds its rows as UTF-8 (utf8-strings.ts), written from the bytes. */
  Utf8Text,
  Char,
  ShortDecimal,
  Date,
}

interface ColumnPlan {
  kind: CellKind;
  column: Column;
  type: SqlType;
  /** A 64-bit column's values as pairs of 32-bit halves (read without making a bigint per value). */
  halves: Int32Array | undefined;
  /** How the client takes VARIANT values (variant-client.ts). */
  variants: VariantWireForm;
  /** The rows of a Utf8Text column. */
  utf8: Utf8Strings | undefined;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const TWO_TO_32 = 4294967296;
/** A 64-bit value whose high half lies in [-2^21, 2^21) is within ±2^53, exact as a double. */
const SAFE_HIGH = 2 ** 21;
const NULL_TEXT = 'null';
/** The writer starts this large (and doubles as it needs): a guess that does not hold a page of narrow values in a buffer many times its size. */
const INITIAL_BYTES_PER_CELL = 8;
const MAX_INITIAL_BYTES = 4 * 1024 * 1024;
/** Room beyond the earlier pages' size per row: a page of somewhat longer rows still fits without growing. */
const SIZE_HINT_SLACK = 1.15;
/** Scales whose unit (10^scale) is an exact double below 2^53. */
const MAX_FAST_SCALE = 15;
const POWERS_OF_TEN = Array.from({ length: MAX_FAST_SCALE + 1 }, (_, i) => 10 ** i);
const MAX_DATE_TEXTS = 65_536;
const DATE_TEXTS = new Map<number, string>();

/**
 * The page's rows in the result JSON of the output columns' types (`types[c]`, or the column's own).
 * `bytesPerRow`: the size of earlier pages' rows, so that the buffer is allocated once at about its size.
 */
export function encodeJsonRows(
  page: Page,
  types: readonly (SqlType | undefined)[],
  variants: VariantWireForm = 'json-text',
  bytesPerRow?: number,
): JsonRows {
  const plans = page.columns.map((column, c) => planColumn(column, types[c] ?? column.type, variants));
  const initialBytes =
    bytesPerRow === undefined
      ? Math.min(page.rowCount * INITIAL_BYTES_PER_CELL * Math.max(1, plans.length), MAX_INITIAL_BYTES)
      : Math.ceil(page.rowCount * bytesPerRow * SIZE_HINT_SLACK);
  const writer = new JsonByteWriter(initialBytes);
  const rowStarts = new Int32Array(page.rowCount + 1);
  for (let r = 0; r < page.rowCount; r++) {
    rowStarts[r] = writer.length;
    writer.byte(0x5b);
    for (let c = 0; c < plans.length; c++) {
      if (c > 0) writer.byte(0x2c);
      writeCell(writer, plans[c], r);
    }
    writer.byte(0x5d);
    if (r + 1 < page.rowCount) writer.byte(0x2c);
  }
  rowStarts[page.rowCount] = writer.length + 1;
  return { bytes: writer.bytes.subarray(0, writer.length), rowStarts };
}

function planColumn(column: Column, type: SqlType, variants: VariantWireForm): ColumnPlan {
  const kind = typesEqual(column.type, type) ? fastKind(column) : CellKind.Generic;
  const halves = kind === CellKind.Bigint || kind === CellKind.ShortDecimal ? int32Halves(column.values as BigInt64Array) : undefined;
  return { kind, column, type, halves, variants, utf8: kind === CellKind.Utf8Text ? column.utf8 : undefined };
}

function fastKind(column: Column): CellKind {
  const kind = column.type.kind;
  // Before `values`, whose first read would decode the strings.
  if (column.utf8 !== undefined && (kind === 'varchar' || kind === 'json')) return CellKind.Utf8Text;
  const values = column.values;
  switch (kind) {
    case 'boolean':
      return values instanceof Uint8Array ? CellKind.Boolean : CellKind.Generic;
    case 'tinyint':
    case 'smallint':
    case 'integer':
      return values instanceof Int8Array || values instanceof Int16Array || values instanceof Int32Array
        ? CellKind.SmallInteger
        : CellKind.Generic;
    case 'bigint':
      return LITTLE_ENDIAN && values instanceof BigInt64Array ? CellKind.Bigint : CellKind.Generic;
    case 'decimal':
      return LITTLE_ENDIAN && values instanceof BigInt64Array && column.type.scale <= MAX_FAST_SCALE
        ? CellKind.ShortDecimal
        : CellKind.Generic;
    case 'double':
      return values instanceof Float64Array ? CellKind.Double : CellKind.Generic;
    case 'varchar':
    case 'json':
      return Array.isArray(values) ? CellKind.Text : CellKind.Generic;
    case 'char':
      return Array.isArray(values) ? CellKind.Char : CellKind.Generic;
    case 'date':
      return values instanceof Int32Array ? CellKind.Date : CellKind.Generic;
    default:
      return CellKind.Generic;
  }
}

function int32Halves(values: BigInt64Array): Int32Array {
  return new Int32Array(values.buffer, values.byteOffset, values.length * 2);
}

/** A 64-bit value as a number when it is within ±2^53 (exact), else undefined. */
function safeInt64(halves: Int32Array, row: number): number | undefined {
  const high = halves[2 * row + 1];
  if (high < -SAFE_HIGH || high >= SAFE_HIGH) return undefined;
  return high * TWO_TO_32 + (halves[2 * row] >>> 0);
}

function writeCell(writer: JsonByteWriter, plan: ColumnPlan, row: number): void {
  const { column } = plan;
  if (column.nulls !== null && column.nulls[row] === 1) {
    writer.ascii(NULL_TEXT);
    return;
  }
  switch (plan.kind) {
    case CellKind.Boolean:
      writer.ascii(column.values[row] === 1 ? 'true' : 'false');
      return;
    case CellKind.SmallInteger:
      writer.integer(column.values[row] as number);
      return;
    case CellKind.Bigint: {
      const value = safeInt64(plan.halves!, row);
      if (value === undefined) break;
      writer.integer(value);
      return;
    }
    case CellKind.Double: {
      const value = column.values[row] as number;
      if (!Number.isFinite(value)) break;
      writer.ascii(String(value));
      return;
    }
    case CellKind.Text:
      writer.string(column.values[row] as string);
      return;
    case CellKind.Utf8Text: {
      const { offsets, bytes, jsonPlain } = plan.utf8!;
      writer.utf8String(bytes, offsets[row], offsets[row + 1], jsonPlain);
      return;
    }
    case CellKind.Char:
      writer.string(padChar(column.values[row] as string, (plan.type as SqlType & { kind: 'char' }).length));
      return;
    case CellKind.ShortDecimal: {
      const unscaled = safeInt64(plan.halves!, row);
      if (unscaled === undefined) break;
      writeDecimal(writer, unscaled, (plan.type as SqlType & { kind: 'decimal' }).scale);
      return;
    }
    case CellKind.Date:
      writer.string(dateText(column.values[row] as number));
      return;
    case CellKind.Generic:
      break;
  }
  writer.text(stringifyJson(resultJsonValue(getScalar(column, row), plan.type, plan.variants)));
}

/** A decimal's unscaled value (within ±2^53, scale at most MAX_FAST_SCALE) in quotes, as formatDecimal writes it: "-0.05", "12.50". */
function writeDecimal(writer: JsonByteWriter, unscaled: number, scale: number): void {
  writer.byte(0x22);
  let magnitude = unscaled;
  if (unscaled < 0) {
    writer.byte(0x2d);
    magnitude = -unscaled;
  }
  if (scale === 0) writer.integer(magnitude);
  else {
    const unit = POWERS_OF_TEN[scale];
    let whole = Math.floor(magnitude / unit);
    // The quotient is rounded: it may be one above the exact one just below a multiple of the unit.
    if (whole * unit > magnitude) whole--;
    writer.integer(whole);
    writer.byte(0x2e);
    writer.fraction(magnitude - whole * unit, scale);
  }
  writer.byte(0x22);
}

/** The date as formatDate writes it, remembered: a result holds few distinct dates. */
function dateText(days: number): string {
  let text = DATE_TEXTS.get(days);
  if (text === undefined) {
    if (DATE_TEXTS.size >= MAX_DATE_TEXTS) DATE_TEXTS.clear();
    text = formatDate(days);
    DATE_TEXTS.set(days, text);
  }
  return text;
}
