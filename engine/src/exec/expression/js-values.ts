// How values of each SQL type appear in generated JavaScript: literals, defaults for NULL slots,
// reads from and writes to column storage (page.ts).

import type { Scalar } from '../../types/scalar.js';
import type { SqlType } from '../../types/types.js';

/** The placeholder a NULL row carries in its value variable. */
export function defaultLiteral(type: SqlType): string {
  switch (type.kind) {
    case 'boolean':
      return 'false';
    case 'bigint':
      return '0n';
    case 'decimal':
      return '0n';
    case 'varchar':
    case 'char':
    case 'json':
    case 'uuid':
    case 'ipaddress':
    case 'color':
    case 'number':
      return "''";
    case 'varbinary':
    case 'sketch':
    case 'variant':
      return 'EMPTY_BYTES';
    case 'unknown':
      return 'null';
    case 'array':
    case 'row':
      return 'EMPTY_ARRAY';
    case 'map':
      return 'EMPTY_MAP';
    default:
      return '0';
  }
}

/** A JS literal of a primitive scalar, or undefined when it must be bound (byte arrays). */
export function scalarLiteral(value: Scalar): string | undefined {
  switch (typeof value) {
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (Number.isNaN(value)) return 'NaN';
      if (value === Infinity) return 'Infinity';
      if (value === -Infinity) return '-Infinity';
      return Object.is(value, -0) ? '-0' : String(value);
    default:
      return value === null ? 'null' : undefined;
  }
}

/** The expression reading row `row` of a column's values array as a scalar. */
export function readExpression(type: SqlType, values: string, row: string): string {
  if (type.kind === 'array') return `readListRow(${values}, ${values}E, ${row})`;
  if (type.kind === 'map') return `readMapRow(${values}, ${values}E, ${values}V, ${row})`;
  if (type.kind === 'row') return `readRowValue(${values}R, ${row})`;
  return type.kind === 'boolean' ? `(${values}[${row}] === 1)` : `${values}[${row}]`;
}

/** The expression storing scalar `value` into a values array slot. */
export function storedExpression(type: SqlType, value: string): string {
  return type.kind === 'boolean' ? `(${value} ? 1 : 0)` : value;
}
