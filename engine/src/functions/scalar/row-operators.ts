// The row operators of the syntax, which are no SQL-callable functions: ROW(a, b) and (a, b) build a
// row from its field values; r.x and r[1] read a field (the analyzer turns both into the field's
// index, a constant). Their bodies do not depend on the field types.

import type { Scalar } from '../../types/scalar.js';
import { type ScalarImplementation, body } from './signature.js';

export const ROW_CONSTRUCTOR = 'row_constructor';
export const ROW_FIELD = 'row_field';

const IMPLEMENTATIONS: ReadonlyMap<string, ScalarImplementation> = new Map([
  [ROW_CONSTRUCTOR, body((...fields: Scalar[]) => fields, { acceptsNulls: true })],
  [ROW_FIELD, body((row: readonly Scalar[], index: number) => row[index], { mayReturnNull: true })],
]);

/** The body of a row operator call, or undefined when `name` is no row operator. */
export function rowOperatorImplementation(name: string): ScalarImplementation | undefined {
  return IMPLEMENTATIONS.get(name);
}

/** A row operator call as EXPLAIN shows it (`ROW(a, b)`, `r[1]`), from its formatted arguments; undefined for any other call. */
export function formatRowOperator(name: string, args: readonly string[]): string | undefined {
  if (name === ROW_CONSTRUCTOR) return `ROW(${args.join(', ')})`;
  if (name === ROW_FIELD) return `${args[0]}[${Number(args[1]) + 1}]`;
  return undefined;
}
