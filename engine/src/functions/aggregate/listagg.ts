// listagg(x, separator [ON OVERFLOW ...]) WITHIN GROUP (ORDER BY ...): the group's non-NULL values in
// the call's order, joined by the separator, at most 1,048,576 bytes of UTF-8 as in Trino: past that
// ON OVERFLOW ERROR fails the query, TRUNCATE ends with the filler and, WITH COUNT, "(omitted)".
// The planner passes the separator and the overflow choice as constant arguments after the value
// (Trino's own shape); the intermediate state carries them, so the final step needs no plan constant.

import type { Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { EngineError } from '../../errors/engine-error.js';
import { BOOLEAN, VARCHAR, arrayOf, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn } from './accumulator-support.js';
import { ArrayAggAccumulator, type AggregateOrdering } from './array-agg.js';

export const LISTAGG_MAX_OUTPUT_BYTES = 1_048_576;
const MAX_FILLER_BYTES = 65_536;

/** The constant arguments after the value: separator, ON OVERFLOW ERROR, filler, WITH COUNT. */
export const LISTAGG_OPTION_TYPES: readonly SqlType[] = [VARCHAR, BOOLEAN, VARCHAR, BOOLEAN];

interface Options {
  separator: string;
  overflowError: boolean;
  filler: string;
  withCount: boolean;
}

function readOptions(columns: readonly Column[], start: number, end: number): Options | undefined {
  const [separator, overflowError, filler, withCount] = columns;
  for (let i = start; i < end; i++) {
    if (separator.nulls !== null && separator.nulls[i] === 1) continue;
    const text = (filler.values as string[])[i];
    if (Buffer.byteLength(text) > MAX_FILLER_BYTES) {
      throw new EngineError(
        'INVALID_FUNCTION_ARGUMENT',
        `Overflow filler length ${Buffer.byteLength(text)} exceeds maximum length ${MAX_FILLER_BYTES}`,
      );
    }
    return {
      separator: (separator.values as string[])[i],
      overflowError: (overflowError.values as Uint8Array)[i] === 1,
      filler: text,
      withCount: (withCount.values as Uint8Array)[i] === 1,
    };
  }
  return undefined;
}

/** The values joined within the byte limit, as Trino writes them. */
export function joinWithinLimit(values: readonly string[], options: Options, limit = LISTAGG_MAX_OUTPUT_BYTES): string {
  const separatorBytes = Buffer.byteLength(options.separator);
  let bytes = 0;
  let out = '';
  for (let emitted = 0; emitted < values.length; emitted++) {
    const valueBytes = Buffer.byteLength(values[emitted]);
    const needed = valueBytes + (emitted > 0 ? separatorBytes : 0);
    if (bytes + needed > limit) {
      if (options.overflowError) {
        throw new EngineError(
          'EXCEEDED_FUNCTION_MEMORY_LIMIT',
          `Concatenated string has the length in bytes larger than the maximum output length ${limit}`,
        );
      }
      return out + (emitted > 0 ? options.separator : '') + options.filler + (options.withCount ? `(${values.length - emitted})` : '');
    }
    out += (emitted > 0 ? options.separator : '') + values[emitted];
    bytes += needed;
  }
  return out;
}

class ListaggAccumulator implements GroupedAccumulator {
  private readonly values: ArrayAggAccumulator;
  private options: Options | undefined;

  constructor(
    private readonly keyTypes: readonly SqlType[],
    ordering: readonly AggregateOrdering[],
  ) {
    this.values = new ArrayAggAccumulator([VARCHAR, ...keyTypes], ordering);
  }

  ensureCapacity(groupCount: number): void {
    this.values.ensureCapacity(groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    this.options ??= readOptions(args.slice(1, 5), start, end);
    this.values.addInput(groupIds, [args[0], ...args.slice(5)], start, end);
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const valueColumns = 1 + this.keyTypes.length;
    this.options ??= readOptions(intermediates.slice(valueColumns), start, end);
    this.values.addIntermediate(groupIds, intermediates.slice(0, valueColumns), start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    const length = end - start;
    const options = this.options;
    const constant = (type: SqlType, value: string | boolean | undefined): Column => ({
      type,
      length,
      values:
        typeof value === 'boolean' || value === undefined
          ? new Uint8Array(length).fill(value ? 1 : 0)
          : new Array<string>(length).fill(value),
      nulls: options === undefined ? new Uint8Array(length).fill(1) : null,
    });
    const separator = constant(VARCHAR, options?.separator ?? '');
    const filler = constant(VARCHAR, options?.filler ?? '');
    return [
      ...this.values.writeIntermediate(start, end),
      separator,
      constant(BOOLEAN, options?.overflowError),
      filler,
      constant(BOOLEAN, options?.withCount),
    ];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(VARCHAR, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const values = (this.values.orderedValues(group) ?? []).filter((v): v is string => v !== null);
    if (values.length === 0 || this.options === undefined) {
      out.nulls[row] = 1;
      return;
    }
    (out.values as Scalar[])[row] = joinWithinLimit(values, this.options);
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.values.sizeInBytes();
  }
}

/** listagg over (value, separator, overflow error, filler, with count, ...ORDER BY keys). */
export function listaggFunction(types: readonly SqlType[], ordering: readonly AggregateOrdering[]): AggregateFunction | undefined {
  const [value, ...rest] = types;
  if (value.kind !== 'varchar' && value.kind !== 'unknown') return undefined;
  const options = rest.slice(0, LISTAGG_OPTION_TYPES.length);
  if (
    options.length !== LISTAGG_OPTION_TYPES.length ||
    options.some((t, i) => t.kind !== LISTAGG_OPTION_TYPES[i].kind && t.kind !== 'unknown')
  )
    return undefined;
  const keyTypes = rest.slice(LISTAGG_OPTION_TYPES.length);
  if (keyTypes.length !== ordering.length) return undefined;
  return {
    name: 'listagg',
    argumentTypes: [VARCHAR, ...LISTAGG_OPTION_TYPES, ...keyTypes],
    returnType: VARCHAR,
    intermediateTypes: [arrayOf(VARCHAR), ...keyTypes.map(arrayOf), ...LISTAGG_OPTION_TYPES],
    ordering,
    createAccumulator: () => new ListaggAccumulator(keyTypes, ordering),
  };
}
