// A result column as Trino describes it to a client. A client that did not send the NUMBER
// capability (Client-Capabilities header) sees a NUMBER column, or field or element, as varchar,
// as Trino's ProtocolUtil does; the values are the same strings either way.

import { type SqlType, type TypeSignature, typeSignature } from '../types/types.js';
import { clientTypeName } from '../types/row-type.js';

export interface ColumnJson {
  name: string;
  type: string;
  typeSignature: TypeSignature;
}

export function columnJson(name: string, type: SqlType, capabilities: readonly string[] = []): ColumnJson {
  const visible = capabilities.includes('NUMBER') ? type : numberAsVarchar(type);
  return { name, type: clientTypeName(visible), typeSignature: typeSignature(visible) };
}

/** `type` with NUMBER named varchar: a type known by name only, whose signature is Trino's bare `varchar` (no length). */
function numberAsVarchar(type: SqlType): SqlType {
  switch (type.kind) {
    case 'number':
      return { kind: 'unsupported', name: 'varchar' };
    case 'array':
      return { kind: 'array', element: numberAsVarchar(type.element) };
    case 'map':
      return { kind: 'map', key: numberAsVarchar(type.key), value: numberAsVarchar(type.value) };
    case 'row':
      return { kind: 'row', fields: type.fields.map((f) => ({ ...f, type: numberAsVarchar(f.type) })) };
    default:
      return type;
  }
}
