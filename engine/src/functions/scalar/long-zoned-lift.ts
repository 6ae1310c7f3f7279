// The functions on `timestamp(p) with time zone` for p 4..12. Trino's long variants of date_add,
// date_trunc, extract, at_timezone, format_datetime... compute on the epoch millis and the zone and
// then carry the picoseconds of the milli over unchanged (date_add, at_timezone, interval
// arithmetic) or set them to zero (date_trunc: its smallest unit is the millisecond). So each
// millisecond body serves the long values too: arguments go in as their short values, and a long
// result gets the first zoned argument's picoseconds back (or none).

import type { Scalar } from '../../types/scalar.js';
import { isLongZoned, packLongZoned, toShortZoned, zonedParts } from '../../types/long-zoned-timestamp.js';
import { UTC_ZONE_KEY } from '../../types/time-zones.js';
import { type SqlType, timestampWithTimeZone } from '../../types/types.js';
import { packZoned, zonedMillis } from '../../types/zoned-timestamp.js';
import type { ScalarFunctionDefinition, ScalarImplementation, SignatureTemplate } from './signature.js';

/** What a lifted function does with sub-millisecond digits. */
export interface LongZonedRule {
  /** The long result's picoseconds are zero (date_trunc), not the first zoned argument's. */
  readonly dropsFraction?: boolean;
  /** Arguments are read in UTC (Trino's long date_diff uses the UTC chronology). */
  readonly inUtc?: boolean;
  /** The function handles long values itself (to_iso8601, to_unixtime): not lifted. */
  readonly own?: boolean;
}

const isLong = (t: SqlType): boolean => t.kind === 'timestamp with time zone' && isLongZoned(t.precision);
const asShort = (t: SqlType): SqlType => (isLong(t) ? timestampWithTimeZone(3) : t);

function lift(template: SignatureTemplate, rule: LongZonedRule): SignatureTemplate {
  return {
    ...template,
    implement: (types, returnType) => {
      if (!types.some(isLong) && !isLong(returnType)) return template.implement(types, returnType);
      const inner = template.implement(types.map(asShort), asShort(returnType));
      const precisions = types.map((t) => (isLong(t) ? (t as { precision: number }).precision : undefined));
      const firstZoned = precisions.findIndex((p) => p !== undefined);
      const longResult = isLong(returnType);
      const toShort = (v: bigint, p: number): bigint => {
        const short = toShortZoned(v, p);
        return rule.inUtc ? packZoned(zonedMillis(short), UTC_ZONE_KEY) : short;
      };
      const implementation: ScalarImplementation = {
        mayReturnNull: inner.mayReturnNull,
        acceptsNulls: inner.acceptsNulls,
        invoke: (...args: Scalar[]) => {
          const shortArgs = args.map((a, i) => (precisions[i] === undefined || a === null ? a : toShort(a as bigint, precisions[i])));
          const result = inner.invoke(...shortArgs);
          if (!longResult || result === null) return result;
          const parts = zonedParts(result as bigint, 3);
          const picos =
            rule.dropsFraction || firstZoned < 0 ? 0 : zonedParts(args[firstZoned] as bigint, precisions[firstZoned] as number).picos;
          return packLongZoned(parts.millis, picos, parts.key);
        },
      };
      return implementation;
    },
  };
}

/** The definitions with every signature also serving long zoned timestamps (rules by function name). */
export function liftToLongZoned(
  definitions: readonly ScalarFunctionDefinition[],
  rules: Readonly<Record<string, LongZonedRule>>,
): ScalarFunctionDefinition[] {
  return definitions.map((d) => {
    const rule = rules[d.names[0]] ?? {};
    if (rule.own) return d;
    return { ...d, signatures: d.signatures.map((s) => lift(s, rule)) };
  });
}
