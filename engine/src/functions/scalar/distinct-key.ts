// A JS key equal for values that are not distinct (IS NOT DISTINCT FROM: NULL with NULL, NaN with
// NaN, 0 with -0, containers by content, maps whatever their entry order, zoned values by instant),
// for deduplicating in a JS Map or Set: array_distinct and its kin, DISTINCT in window aggregates.

import type { Scalar } from '../../types/scalar.js';
import { MapValue } from '../../types/map-value.js';
import type { SqlType } from '../../types/types.js';
import { zonedAsInstants } from '../../types/zoned-timestamp.js';

export type DistinctKey = (v: Scalar) => unknown;

function distinctKey(v: Scalar): unknown {
  if (v === null) return null;
  switch (typeof v) {
    case 'number':
      return v !== v ? 'NaN' : v;
    case 'bigint':
    case 'string':
    case 'boolean':
      return v;
    default:
      if (v instanceof Uint8Array) return `x${Buffer.from(v).toString('hex')}`;
      if (v instanceof MapValue) {
        const entries = v.keys.map((k, i) => JSON.stringify([keyPart(k), keyPart(v.values[i])])).sort();
        return `m${JSON.stringify(entries)}`;
      }
      return `a${JSON.stringify((v as readonly Scalar[]).map(keyPart))}`;
  }
}

function keyPart(v: Scalar): unknown {
  const k = distinctKey(v);
  return typeof k === 'bigint' ? `${k}n` : typeof k === 'string' ? `s${k}` : k;
}

/** The distinct key of values of `type`. */
export function distinctKeyOf(type: SqlType): DistinctKey {
  const instants = zonedAsInstants(type);
  return (v) => distinctKey(instants(v));
}
