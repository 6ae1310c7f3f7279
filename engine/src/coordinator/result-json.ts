// Result values on the wire. Bigints beyond 2^53 stay exact: Trino writes every 64-bit integer as
// its exact digits, and JDBC or Python clients read them back into 64-bit integers.

import type { Scalar } from '../types/scalar.js';
import type { SqlType } from '../types/types.js';
import { formatValueAsText, toJsonValue } from '../types/values.js';
import { OrderedJsonObject } from '../types/exact-json.js';
import type { MapValue } from '../types/map-value.js';
import { mapRowValue } from '../types/row-type.js';
import { variantWireValue, type VariantWireForm } from '../types/variant/variant-client.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** A result value as JSON; a bigint outside the doubles' exact range stays a bigint; variants in the client's form (variant-client.ts). */
export function resultJsonValue(value: Scalar, type: SqlType, variants: VariantWireForm = 'json-text'): unknown {
  if (typeof value === 'bigint' && type.kind === 'bigint' && (value > MAX_SAFE || value < MIN_SAFE)) return value;
  if (type.kind === 'variant' && value !== null && variants !== 'json-text') return variantWireValue(value as Uint8Array, variants);
  if (type.kind === 'array' && value !== null)
    return (value as readonly Scalar[]).map((element) => resultJsonValue(element, type.element, variants));
  if (type.kind === 'map' && value !== null) return mapJson(value as MapValue, type, variants);
  if (type.kind === 'row' && value !== null)
    return mapRowValue(value, type, (field, fieldType) => resultJsonValue(field, fieldType, variants));
  return toJsonValue(value, type);
}

/** A map as Trino writes it: an object in entry order, each key as Java prints it (values.ts mapJsonObject), each value in its own JSON form. */
function mapJson(map: MapValue, type: SqlType & { kind: 'map' }, variants: VariantWireForm): OrderedJsonObject {
  return new OrderedJsonObject(
    map.keys.map((key, i) => [formatValueAsText(key, type.key), resultJsonValue(map.values[i], type.value, variants)]),
  );
}
