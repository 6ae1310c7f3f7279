// Result values on the wire. Bigints beyond 2^53 stay exact: Trino writes every 64-bit integer as
// its exact digits, and JDBC or Python clients read them back into 64-bit integers.

import type { Scalar } from '../spi/page.js';
import type { SqlType } from '../types/types.js';
import { toJsonValue } from '../types/values.js';
import { mapRowValue } from '../types/row-type.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** A result value as JSON; a bigint outside the doubles' exact range stays a bigint. */
export function resultJsonValue(value: Scalar, type: SqlType): unknown {
  if (typeof value === 'bigint' && type.kind === 'bigint' && (value > MAX_SAFE || value < MIN_SAFE)) return value;
  if (type.kind === 'array' && value !== null) return (value as readonly Scalar[]).map((element) => resultJsonValue(element, type.element));
  if (type.kind === 'row' && value !== null) return mapRowValue(value, type, resultJsonValue);
  return toJsonValue(value, type);
}
