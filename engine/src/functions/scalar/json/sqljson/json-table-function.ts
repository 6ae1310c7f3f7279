// The rows of JSON_TABLE (functions/json.md, "json_table"), computed as one array of rows that the
// planner unnests: $json_table(spec, input, passing..., defaults...). The root path gives the root
// rows; each NESTED PATH gives child rows per parent item, joined to its parent OUTER (a parent with no
// child rows keeps one row of NULLs) or INNER, and siblings combined by UNION or CROSS.

import type { Scalar } from '../../../../types/scalar.js';
import { BIGINT, type SqlType, VARCHAR } from '../../../../types/types.js';
import { functionOf } from '../../function-parameters.js';
import { type ScalarFunctionDefinition, body } from '../../signature.js';
import type { JsonPath } from './path-ast.js';
import { evaluatePath } from './path-evaluator.js';
import type { Item } from './path-items.js';
import {
  type LazyDefault,
  type QueryBehavior,
  type SqlJsonSpec,
  type ValueBehavior,
  isInputOrPathError,
  pathInputs,
  pathOf,
  queryResult,
  raised,
  specOf,
  valueResult,
} from './sqljson-functions.js';

export type TableColumnSpec =
  | { kind: 'ordinality' }
  | ({ kind: 'value'; path: string; emptyDefault?: number; errorDefault?: number } & ValueBehavior)
  | ({ kind: 'query'; path: string } & QueryBehavior)
  | { kind: 'nested'; path: string; name: string; columns: TableColumnSpec[] };

/** A child path's name, or its rows and others' combined by UNION (one after the other) or CROSS (every pairing). */
export type ChildCombination = string | { readonly op: 'UNION' | 'CROSS'; readonly parts: readonly ChildCombination[] };

export interface JsonTableSpec extends SqlJsonSpec {
  readonly rootName: string;
  readonly columns: TableColumnSpec[];
  /** ERROR or EMPTY ON ERROR of the table (EMPTY by default). */
  readonly tableOnError?: string;
  /** Per parent path name: how its children join it (OUTER by default), and how they combine (all by UNION by default). */
  readonly joins: Record<string, 'OUTER' | 'INNER'>;
  readonly combinations: Record<string, ChildCombination>;
}

/** How many output columns a list of column definitions gives (nested ones flattened). */
export function columnCount(columns: readonly TableColumnSpec[]): number {
  return columns.reduce((n, c) => n + (c.kind === 'nested' ? columnCount(c.columns) : 1), 0);
}

interface Level {
  readonly spec: JsonTableSpec;
  readonly variables: ReadonlyMap<string, Item>;
  readonly types: readonly SqlType[];
  /** Column default i: the i-th field of defaults(i) (json-forms.ts, lazyDefaults). */
  readonly defaults: (index: bigint) => Scalar;
}

/** The rows of one path level for each of its items, `types` being the output types of its columns in order. */
function levelRows(level: Level, name: string, columns: readonly TableColumnSpec[], items: Item[], typesAt: number): Scalar[][] {
  const out: Scalar[][] = [];
  items.forEach((item, i) => {
    const own: Scalar[] = [];
    const children = new Map<string, ChildRows>();
    let at = typesAt;
    for (const column of columns) {
      if (column.kind === 'nested') {
        const childItems = evaluatePath(pathOf(column.path), item, level.variables);
        children.set(column.name, {
          at: own.length,
          width: columnCount(column.columns),
          rows: levelRows(level, column.name, column.columns, childItems, at),
        });
        own.push(...new Array<Scalar>(columnCount(column.columns)).fill(null));
        at += columnCount(column.columns);
        continue;
      }
      own.push(columnValue(level, column, item, i, level.types[at]));
      at++;
    }
    if (children.size === 0) {
      out.push(own);
      return;
    }
    const combination = level.spec.combinations[name] ?? { op: 'UNION', parts: [...children.keys()] };
    const combined = combine(combination, children).map((filled) =>
      filled.reduce((row, [child, values]) => withChild(row, child, values), own),
    );
    if (combined.length > 0) for (const row of combined) out.push(row);
    else if (level.spec.joins[name] !== 'INNER') out.push(own);
  });
  return out;
}

interface ChildRows {
  readonly at: number;
  readonly width: number;
  readonly rows: Scalar[][];
}

/** Each combined row as the child rows it takes (a child absent from it leaves its columns NULL). */
function combine(combination: ChildCombination, children: ReadonlyMap<string, ChildRows>): Array<Array<[ChildRows, Scalar[]]>> {
  if (typeof combination === 'string') {
    const child = children.get(combination) as ChildRows;
    return child.rows.map((values) => [[child, values]]);
  }
  const parts = combination.parts.map((part) => combine(part, children));
  if (combination.op === 'UNION') return parts.flat();
  return parts.reduce((acc, part) => acc.flatMap((left) => part.map((right) => [...left, ...right])), [[]] as Array<
    Array<[ChildRows, Scalar[]]>
  >);
}

function withChild(row: Scalar[], child: { at: number; width: number }, values: readonly Scalar[]): Scalar[] {
  const copy = [...row];
  for (let k = 0; k < child.width; k++) copy[child.at + k] = values[k];
  return copy;
}

function columnValue(level: Level, column: TableColumnSpec, item: Item, index: number, type: SqlType): Scalar {
  switch (column.kind) {
    case 'ordinality':
      return BigInt(index + 1);
    case 'value': {
      const lazy = (i: number | undefined): LazyDefault | undefined =>
        i === undefined ? undefined : () => (level.defaults(BigInt(i)) as Scalar[])[i];
      const emptyDefault = lazy(column.emptyDefault);
      const errorDefault = lazy(column.errorDefault);
      return valueResult(() => evaluatePath(pathOf(column.path), item, level.variables), column, type, emptyDefault, errorDefault);
    }
    case 'query':
      return queryResult(() => evaluatePath(pathOf(column.path), item, level.variables), column, type);
    case 'nested':
      throw new Error('nested columns are expanded by levelRows');
  }
}

function jsonTableRows(argumentTypes: readonly SqlType[], returnType: SqlType) {
  const rowType = (returnType as { element: SqlType & { kind: 'row' } }).element;
  const types = rowType.fields.map((f) => f.type);
  return body(
    (specText: string, defaults: (index: bigint) => Scalar, ...args: Scalar[]): Scalar => {
      if (args[0] === null) return [];
      const { spec: plain, path } = specOf(specText);
      const spec = plain as JsonTableSpec;
      try {
        const { root, variables } = pathInputs(spec, argumentTypes.slice(2), args);
        const level: Level = { spec, variables, types, defaults };
        return levelRows(level, spec.rootName, spec.columns, evaluatePath(path as JsonPath, root, variables), 0);
      } catch (e) {
        // The input, the root path and the NESTED paths fail the table (EMPTY ON ERROR by default);
        // what a column's own ERROR ON ERROR raised goes through.
        if (!isInputOrPathError(e)) throw e;
        if (spec.tableOnError === 'ERROR') throw raised(e);
        return [];
      }
    },
    { acceptsNulls: true },
  );
}

export const JSON_TABLE_FUNCTION: ScalarFunctionDefinition = {
  names: ['$json_table'],
  description: 'The rows of JSON_TABLE',
  // $json_table(spec, defaults, input, passing...): `defaults` is the lambda of the columns' DEFAULT values.
  signatures: [
    {
      params: [{ family: 'varchar' }, functionOf([BIGINT], { variable: 'D' }), { anyType: true }],
      variadic: { minArgs: 3 },
      returnType: VARCHAR,
      implement: jsonTableRows,
    },
  ],
};
