// A type as written (an AST TypeSpec) to the SqlType it names.

import { EngineError } from '../../errors/engine-error.js';
import { parseTypeSpec } from '../../types/coercion.js';
import { type SqlType, arrayOf, mapOf, rowOf } from '../../types/types.js';
import type { TypeSpec } from '../parser/ast.js';
import { formatType } from '../parser/expression-formatter.js';
import { qdigestTypeOf } from '../../types/sketch/qdigest-type.js';

/** Types whose parameters are types: array, map and row are built here. */
const CONTAINER_TYPES: ReadonlySet<string> = new Set(['array', 'map', 'row']);

export function sqlTypeOf(spec: TypeSpec): SqlType {
  if (spec.name === 'qdigest')
    return qdigestTypeOf(
      spec.parameters.length > 0 ? [] : (spec.typeParameters ?? []).map(sqlTypeOf),
      (m) => new EngineError('TYPE_NOT_FOUND', m, spec.location),
    );
  if ((spec.typeParameters || spec.fields) && !CONTAINER_TYPES.has(spec.name)) {
    throw new EngineError('TYPE_NOT_FOUND', `Unknown type: ${formatType(spec)}`, spec.location);
  }
  if (spec.name === 'array' && spec.typeParameters?.length === 1 && spec.parameters.length === 0)
    return arrayOf(sqlTypeOf(spec.typeParameters[0]));
  if (spec.name === 'map' && spec.typeParameters?.length === 2 && spec.parameters.length === 0)
    return mapOf(sqlTypeOf(spec.typeParameters[0]), sqlTypeOf(spec.typeParameters[1]));
  if (spec.name === 'row' && spec.fields !== undefined)
    return rowOf(
      spec.fields.map((f) => (f.name === undefined ? { type: sqlTypeOf(f.type) } : { name: f.name.value, type: sqlTypeOf(f.type) })),
    );
  return parseTypeSpec(spec.name, spec.parameters, spec.location);
}
