// Compares our result rows with DuckDB's: same row count and order, decimals digit for digit,
// doubles within 1e-9 relative. Where the engines' types differ by design, DuckDB's value is
// rounded to our type first:
//   - avg(decimal(p,s)) is decimal(p,s) in Trino and a double in DuckDB (Q1)
//   - DuckDB widens decimal sums and products to other scales (rescaled, half up, to ours)

import type { Scalar } from '../../src/types/scalar.js';
import { formatDecimal } from '../../src/types/decimal.js';
import { formatDate } from '../../src/types/datetime.js';
import type { SqlType } from '../../src/types/types.js';

/** The first difference between the two results, or undefined when they are equal. */
export function firstDifference(
  ours: Scalar[][],
  types: readonly SqlType[],
  names: readonly string[],
  theirs: unknown[][],
): string | undefined {
  if (ours.length !== theirs.length) return `row count ${ours.length} vs ${theirs.length}`;
  for (let r = 0; r < ours.length; r++) {
    for (let c = 0; c < types.length; c++) {
      const difference = valueDifference(ours[r][c], theirs[r][c], types[c]);
      if (difference) return `row ${r} column ${names[c]}: ${difference}`;
    }
  }
  return undefined;
}

function valueDifference(ours: Scalar, theirs: unknown, type: SqlType): string | undefined {
  if (ours === null || theirs === null) return ours === theirs ? undefined : `${String(ours)} vs ${String(theirs)}`;
  let a: string;
  let b: string;
  switch (type.kind) {
    case 'double':
    case 'real': {
      const o = ours as number;
      const t = Number(typeof theirs === 'object' ? String(theirs) : theirs);
      return Math.abs(o - t) <= 1e-9 * Math.max(1, Math.abs(t)) ? undefined : `${o} vs ${t}`;
    }
    case 'decimal':
      a = formatDecimal(ours as bigint, type.scale);
      b = duckDecimal(theirs, type.scale);
      break;
    case 'date':
      a = formatDate(ours as number);
      b = String(theirs);
      break;
    default:
      a = String(ours);
      b = String(theirs);
  }
  return a === b ? undefined : `${a} vs ${b}`;
}

/** A DuckDB decimal or double as text with `scale` digits, rounding half up. */
function duckDecimal(value: unknown, scale: number): string {
  if (typeof value === 'number') {
    const unscaled = BigInt(Math.sign(value) * Math.round(Math.abs(value) * 10 ** scale));
    return formatDecimal(unscaled, scale);
  }
  const v = value as { value: bigint; scale: number };
  let unscaled = v.value;
  if (v.scale > scale) {
    const factor = 10n ** BigInt(v.scale - scale);
    const half = factor / 2n;
    unscaled = unscaled >= 0n ? (unscaled + half) / factor : (unscaled - half) / factor;
  } else if (v.scale < scale) unscaled *= 10n ** BigInt(scale - v.scale);
  return formatDecimal(unscaled, scale);
}
