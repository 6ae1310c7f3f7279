// CASTs to json that Trino's analyzer accepts but its cast then refuses. A cast operator binds on
// the outer shape (an array of what casts to json; a map whose keys cast to varchar and values to
// json; any row), and only building the cast checks every type inside: an array or map then fails
// INVALID_CAST_ARGUMENT "Cannot cast <type> to JSON" (ArrayToJsonCast, MapToJsonCast), a row
// INVALID_FUNCTION_ARGUMENT "Unsupported type: <the first type no JSON writer takes>" (RowToJsonCast).
// Casts that do not bind are TYPE_MISMATCH at analysis, the caller's.

import { EngineError } from '../../errors/engine-error.js';
import { typeName, type SqlType } from '../types.js';
import { OBJECT_KEY_TYPES, TO_JSON_SCALARS, canCastToJson } from './json-casts.js';

/** Trino's error for CAST(value of `from` AS json) where the cast binds but cannot be built; undefined otherwise. */
export function castToJsonRefusal(from: SqlType, castsToVarchar: (type: SqlType) => boolean): EngineError | undefined {
  if (canCastToJson(from) || !bindsToJson(from, castsToVarchar)) return undefined;
  if (from.kind === 'row') return new EngineError('INVALID_FUNCTION_ARGUMENT', `Unsupported type: ${typeName(firstUnwritable(from)!)}`);
  return new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast ${typeName(from)} to JSON`);
}

/** Whether a cast operator to json binds on `type` (Trino's castable-to-json type constraints). */
function bindsToJson(type: SqlType, castsToVarchar: (type: SqlType) => boolean): boolean {
  switch (type.kind) {
    case 'array':
      return bindsToJson(type.element, castsToVarchar);
    case 'map':
      return castsToVarchar(type.key) && bindsToJson(type.value, castsToVarchar);
    case 'row':
    case 'variant':
      return true;
    default:
      return TO_JSON_SCALARS.has(type.kind);
  }
}

/** The first type, depth first, that Trino's JSON writers (and map key writers) do not take. */
function firstUnwritable(type: SqlType): SqlType | undefined {
  switch (type.kind) {
    case 'array':
      return firstUnwritable(type.element);
    case 'map':
      if (type.key.kind !== 'unknown' && !OBJECT_KEY_TYPES.has(type.key.kind)) return type.key;
      return firstUnwritable(type.value);
    case 'row':
      for (const field of type.fields) {
        const found = firstUnwritable(field.type);
        if (found !== undefined) return found;
      }
      return undefined;
    default:
      return TO_JSON_SCALARS.has(type.kind) ? undefined : type;
  }
}
