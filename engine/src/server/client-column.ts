// A result column as Trino describes it to a client. A client that did not send the NUMBER
// capability (Client-Capabilities header) sees a NUMBER column, or field or element, as varchar,
// as Trino's ProtocolUtil does; the values are the same strings either way.

import { type SqlType, type TypeSignature, type TypeSignatureArgument, typeSignature } from '../types/types.js';
import { clientTypeName } from '../types/row-type.js';

export interface ColumnJson {
  name: string;
  type: string;
  typeSignature: TypeSignature;
}

export function columnJson(name: string, type: SqlType, capabilities: readonly string[] = []): ColumnJson {
  if (capabilities.includes('NUMBER')) return { name, type: clientTypeName(type), typeSignature: typeSignature(type) };
  return { name, type: clientTypeName(numberAsVarchar(type)), typeSignature: signatureWithNumberAsVarchar(typeSignature(type)) };
}

/** Trino's bare `varchar` signature (no length) in place of each `number`. */
function signatureWithNumberAsVarchar(signature: TypeSignature): TypeSignature {
  if (signature.rawType === 'number') return { rawType: 'varchar', arguments: [] };
  const argument = (a: TypeSignatureArgument): TypeSignatureArgument => {
    if (a.kind === 'TYPE') return { kind: 'TYPE', value: signatureWithNumberAsVarchar(a.value as TypeSignature) };
    if (a.kind !== 'NAMED_TYPE') return a;
    const field = a.value as { typeSignature: TypeSignature };
    return { kind: 'NAMED_TYPE', value: { ...field, typeSignature: signatureWithNumberAsVarchar(field.typeSignature) } };
  };
  return { rawType: signature.rawType, arguments: signature.arguments.map(argument) };
}

/** `type` with NUMBER named varchar (a type known by its name only), for the column's type name. */
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
