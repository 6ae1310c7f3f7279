// The items a SQL/JSON path works on: JSON values of the input (json-node.ts), and the SQL values that
// literals, arithmetic, item methods and PASSING arguments make: exact numbers (a decimal's unscaled
// value and scale), doubles (JS numbers) and other typed SQL values (dates, timestamps ...).

import type { Scalar } from '../../../../types/scalar.js';
import { formatDecimal, parseDecimal } from '../../../../types/decimal.js';
import { JsonNumber, JsonObject, type JsonNode } from '../../../../types/json/json-node.js';
import { formatDoubleAsText } from '../../../../types/number-format.js';
import { BIGINT, BOOLEAN, DOUBLE, INTEGER, type SqlType, VARCHAR, decimal, typeName } from '../../../../types/types.js';
import { formatValueAsText } from '../../../../types/values.js';

/** An exact number: unscaled × 10^-scale (integers have scale 0). */
export class ExactNumber {
  constructor(
    readonly unscaled: bigint,
    readonly scale: number,
  ) {}

  static fromText(text: string): ExactNumber {
    const parsed = parseDecimal(text) as { unscaled: bigint; scale: number };
    return new ExactNumber(parsed.unscaled, parsed.scale);
  }
}

/** A SQL value of a type with no JSON counterpart (a date, a timestamp), kept with its type. */
export class TypedItem {
  constructor(
    readonly type: SqlType,
    readonly value: Scalar,
  ) {}
}

export type Item = JsonNode | number | ExactNumber | TypedItem;
export type Numeric = number | ExactNumber;

/** A failure while evaluating a path (Trino's PathEvaluationException): ON ERROR handles it. */
export class PathEvaluationError extends Error {}

export function pathError(message: string): PathEvaluationError {
  return new PathEvaluationError(message);
}

/** The item as a number, or undefined when it is not one. */
export function numericOf(item: Item): Numeric | undefined {
  if (typeof item === 'number' || item instanceof ExactNumber) return item;
  if (item instanceof JsonNumber) return item.integral ? new ExactNumber(BigInt(item.text), 0) : Number(item.text);
  return undefined;
}

export function doubleOf(n: Numeric): number {
  return typeof n === 'number' ? n : Number(formatDecimal(n.unscaled, n.scale));
}

export function isStructured(item: Item): item is JsonNode[] | JsonObject {
  return Array.isArray(item) || item instanceof JsonObject;
}

/** The type name .type() gives an item. */
export function itemTypeName(item: Item): string {
  if (item === null) return 'null';
  if (Array.isArray(item)) return 'array';
  if (item instanceof JsonObject) return 'object';
  if (typeof item === 'string') return 'string';
  if (typeof item === 'boolean') return 'boolean';
  if (item instanceof TypedItem) {
    const kind = item.type.kind;
    if (kind === 'time' || kind === 'timestamp') return `${kind} without time zone`;
    return kind;
  }
  return 'number';
}

/** An item's type as Trino's path errors name it: a JSON node's kind (ARRAY, NUMBER ...), else the SQL type. */
export function itemTypeForError(item: Item): string {
  if (item instanceof TypedItem) return typeName(item.type);
  if (typeof item === 'number' || item instanceof ExactNumber) return typeName(itemAsSqlValue(item).type);
  return itemTypeName(item).toUpperCase();
}

/** A JSON number written exactly as its text (an exact or double result of the path). */
class WrittenNumber extends JsonNumber {}

/** The item as a JSON value for output (json_query). */
export function itemAsJson(item: Item): JsonNode {
  if (typeof item === 'number')
    return Number.isFinite(item) ? new WrittenNumber(formatDoubleAsText(item), false) : formatDoubleAsText(item);
  if (item instanceof ExactNumber) return new WrittenNumber(formatDecimal(item.unscaled, item.scale), item.scale === 0);
  if (item instanceof TypedItem) return formatValueAsText(item.value, item.type);
  return item;
}

/** How json_query writes numbers: its own results as computed, input fractions as Jackson's doubles. */
export function outputNumberText(n: JsonNumber): string {
  if (n instanceof WrittenNumber || n.integral) return n.text;
  return formatDoubleAsText(Number(n.text));
}

const INT32 = 2n ** 31n;
const INT64 = 2n ** 63n;

/** A scalar item as a SQL value of its own type (json_value's result before the RETURNING cast); null for JSON null. */
export function itemAsSqlValue(item: Item): { type: SqlType; value: Scalar } {
  if (item === null) return { type: VARCHAR, value: null };
  if (typeof item === 'string') return { type: VARCHAR, value: item };
  if (typeof item === 'boolean') return { type: BOOLEAN, value: item };
  if (item instanceof TypedItem) return { type: item.type, value: item.value };
  const n = numericOf(item);
  if (n === undefined) throw pathError(`JSON path result is not a scalar: ${itemTypeName(item)}`);
  if (typeof n === 'number') return { type: DOUBLE, value: n };
  if (n.scale === 0 && n.unscaled >= -INT32 && n.unscaled < INT32) return { type: INTEGER, value: Number(n.unscaled) };
  if (n.scale === 0 && n.unscaled >= -INT64 && n.unscaled < INT64) return { type: BIGINT, value: n.unscaled };
  const digits = (n.unscaled < 0n ? -n.unscaled : n.unscaled).toString().length;
  const precision = Math.max(digits, n.scale + 1);
  if (precision > 38) throw pathError(`JSON number out of range of decimal(38): ${formatDecimal(n.unscaled, n.scale)}`);
  return { type: decimal(precision, n.scale), value: n.unscaled };
}

/** A SQL value passed to a path (PASSING, or an input converted to an item). */
export function sqlValueAsItem(value: Scalar, type: SqlType): Item {
  if (value === null) return null;
  switch (type.kind) {
    case 'boolean':
      return value as boolean;
    case 'tinyint':
    case 'smallint':
    case 'integer':
      return new ExactNumber(BigInt(value as number), 0);
    case 'bigint':
      return new ExactNumber(value as bigint, 0);
    case 'decimal':
      return new ExactNumber(value as bigint, type.scale);
    case 'real':
    case 'double':
      return value as number;
    case 'varchar':
    case 'char':
      return formatValueAsText(value, type);
    default:
      return new TypedItem(type, value);
  }
}
