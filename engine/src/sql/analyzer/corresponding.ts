// `UNION | INTERSECT | EXCEPT ... CORRESPONDING`: the two inputs' columns matched by name instead of
// by position. The operation runs over the names both inputs have, in the left input's order, as
// Trino does; CORRESPONDING BY (columns) is not supported (nor is it in Trino).

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import type { Field } from './scope.js';

/** Each input's fields reduced to the corresponding columns, in the left input's order of them. */
export function correspondingFields(op: ast.SetOperation, fieldLists: readonly Field[][]): Field[][] {
  const corresponding = op.corresponding;
  if (corresponding === undefined) return [...fieldLists];
  if (corresponding.columns !== undefined) throw new EngineError('NOT_SUPPORTED', 'CORRESPONDING with columns is unsupported', op.location);
  const [left, right] = fieldLists.map((fields) => fieldsByName(op, fields));
  const names = [...left.keys()].filter((name) => right.has(name));
  if (names.length === 0) throw new EngineError('MISMATCHED_COLUMN_ALIASES', 'No corresponding columns', op.location);
  return [left, right].map((byName) => names.map((name) => byName.get(name)!));
}

function fieldsByName(op: ast.SetOperation, fields: readonly Field[]): Map<string, Field> {
  const byName = new Map<string, Field>();
  for (const field of fields) {
    if (field.name === undefined)
      throw new EngineError('MISSING_COLUMN_NAME', 'Anonymous columns are not allowed in set operations with CORRESPONDING', op.location);
    const name = field.name.toLowerCase();
    if (byName.has(name))
      throw new EngineError('AMBIGUOUS_NAME', `Duplicate columns found when using CORRESPONDING in set operations: ${name}`, op.location);
    byName.set(name, field);
  }
  return byName;
}
