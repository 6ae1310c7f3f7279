// Casts of uuid and ipaddress, as Trino has them: to and from varchar and varbinary only. To
// varchar a uuid fails when it does not fit the length (as any value); an ipaddress likewise.

import { EngineError } from '../errors/engine-error.js';
import type { Scalar } from './scalar.js';
import { formatIpAddress, ipAddressFromBytes, ipAddressFromText, ipAddressToBytes } from './ipaddress-type.js';
import { type SqlType, typeName } from './types.js';
import { uuidFromBytes, uuidFromText, uuidToBytes } from './uuid-type.js';

type AddressKind = 'uuid' | 'ipaddress';

export function isAddressType(type: SqlType): boolean {
  return type.kind === 'uuid' || type.kind === 'ipaddress';
}

/** Whether CAST(from AS to) exists, one of them uuid or ipaddress. */
export function canCastAddress(from: SqlType, to: SqlType): boolean {
  if (from.kind === to.kind) return true;
  const other = isAddressType(from) ? to : from;
  return other.kind === 'varchar' || other.kind === 'varbinary';
}

const ADDRESS_CASTS: Record<
  AddressKind,
  {
    fromText: (v: string) => string;
    fromBytes: (v: Uint8Array) => string;
    toText: (v: string) => string;
    toBytes: (v: string) => Uint8Array;
  }
> = {
  uuid: { fromText: uuidFromText, fromBytes: uuidFromBytes, toText: (v) => v, toBytes: uuidToBytes },
  ipaddress: { fromText: ipAddressFromText, fromBytes: ipAddressFromBytes, toText: formatIpAddress, toBytes: ipAddressToBytes },
};

/** The cast of one non-null value (the cast exists: canCastAddress). */
export function addressCast(from: SqlType, to: SqlType): (value: Scalar) => Scalar {
  if (isAddressType(to)) {
    const casts = ADDRESS_CASTS[to.kind as AddressKind];
    return from.kind === 'varbinary' ? (v) => casts.fromBytes(v as Uint8Array) : (v) => casts.fromText(v as string);
  }
  const casts = ADDRESS_CASTS[from.kind as AddressKind];
  if (to.kind === 'varbinary') return (v) => casts.toBytes(v as string);
  const length = to.kind === 'varchar' ? to.length : undefined;
  return (v) => {
    const text = casts.toText(v as string);
    if (length !== undefined && text.length > length)
      throw new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast '${text}' to ${typeName(to)}`);
    return text;
  };
}

/** A value as the client and CAST to varchar show it. */
export function formatAddress(value: string, type: SqlType): string {
  return ADDRESS_CASTS[type.kind as AddressKind].toText(value);
}
