// Rows of the statement protocol's JSON back to our scalars, by the column's type name, so that
// they compare with DuckDB's results like rows read in-process.

import type { Scalar } from '../../src/types/scalar.js';
import { parseTypeSpec } from '../../src/types/coercion.js';
import { parseDate } from '../../src/types/datetime.js';
import { parseDecimal, rescale } from '../../src/types/decimal.js';
import type { SqlType } from '../../src/types/types.js';
import type { JsonValue } from '../../src/types/exact-json.js';

export function typeOfName(name: string): SqlType {
  const m = /^([a-z ]+?)(?:\((\d+)(?:,\s*(\d+))?\))?$/.exec(name);
  if (!m) throw new Error(`Unexpected type name ${name}`);
  return parseTypeSpec(m[1], [m[2], m[3]].filter((x) => x !== undefined).map(Number));
}

export function jsonToScalar(value: JsonValue, type: SqlType): Scalar {
  if (value === null) return null;
  switch (type.kind) {
    case 'bigint':
      return BigInt(value as number | string);
    case 'decimal': {
      const d = parseDecimal(String(value))!;
      return rescale(d.unscaled, d.scale, type.scale);
    }
    case 'date':
      return parseDate(String(value))!;
    default:
      return value as Scalar;
  }
}
