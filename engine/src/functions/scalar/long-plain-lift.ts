// Where the datetime functions meet long plain values (long-plain-temporal.ts). A call that reads
// a plain timestamp goes to its exact body (exact-timestamp-lift.ts). A long `time(p)` (p 7..12):
// as Trino's long variants compute on the millis of the day and carry the rest of the fraction
// (date_add, interval arithmetic) or set it to zero (date_trunc), each micros body serves it: long
// arguments go in as whole millis, in micros (always exact for a time of day), and a long result
// gets the first long argument's picoseconds of the milli back (or none). A function that reads a
// long value through a `timestamp`/`time` family parameter and has no body here is refused
// (NOT_SUPPORTED) when the call is analyzed: never a wrong answer from a body that expects micros.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { PICOS_PER_MICRO, floorDiv, isLongPlain, maxShortPrecision } from '../../types/long-plain-temporal.js';
import { type SqlType, typeName } from '../../types/types.js';
import { exactTimestampImplementation, hasExactTimestampBody, isTimestampCall } from './exact-timestamp-lift.js';
import type { BoundSignature, ScalarImplementation, SignatureTemplate } from './signature.js';

const PICOS_PER_MILLI = 1000n * PICOS_PER_MICRO;

/** What a lifted function does with the fraction below the milli: carry it to a long result or drop it. */
type Rule = 'carry' | 'drop';

const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ...['hour', 'minute', 'second', 'millisecond'].map((name) => [name, 'carry'] as const),
  ['date_add', 'carry'],
  ['date_diff', 'carry'],
  ['add', 'carry'],
  ['subtract', 'carry'],
  ['date_trunc', 'drop'],
]);

/** Functions with their own long bodies (below). */
const OWN: ReadonlyMap<string, (types: readonly SqlType[]) => ScalarImplementation | undefined> = new Map([['subtract', subtractValues]]);

/** 'precision above 3' for a long timestamp argument, 'precision above 6' for a long time. */
function aboveShort(types: readonly SqlType[], returnType: SqlType): string {
  const long = [...types, returnType].find(isLongPlain) as { kind: 'timestamp' | 'time' };
  return `precision above ${maxShortPrecision(long.kind)}`;
}

const asShort = (t: SqlType): SqlType =>
  isLongPlain(t) ? ({ kind: t.kind, precision: maxShortPrecision(t.kind as 'timestamp' | 'time') } as SqlType) : t;

/** Whether the template reads a value of `which` type through a family parameter (a type variable passes values through untouched). */
function readsThroughFamily(
  template: SignatureTemplate,
  types: readonly SqlType[],
  returnType: SqlType,
  which: (t: SqlType) => boolean,
): boolean {
  const familyAt = (i: number): boolean => {
    const p = template.params[Math.min(i, template.params.length - 1)];
    return p !== undefined && 'family' in p;
  };
  return (
    types.some((t, i) => which(t) && familyAt(i)) ||
    (which(returnType) && types.some((t, i) => familyAt(i) && (t.kind === 'timestamp' || t.kind === 'time')))
  );
}

const readsLongThroughFamily = (template: SignatureTemplate, types: readonly SqlType[], returnType: SqlType): boolean =>
  readsThroughFamily(template, types, returnType, isLongPlain);

/** NOT_SUPPORTED at analysis for a call this file does not lift. */
export function checkLongPlainCall(name: string, bound: BoundSignature, location?: SourceLocation): void {
  if (!readsLongThroughFamily(bound.template, bound.argumentTypes, bound.returnType)) return;
  if (isTimestampCall(bound.argumentTypes, bound.returnType) ? hasExactTimestampBody(name) : RULES.has(name) || OWN.has(name)) return;
  const shown = bound.argumentTypes.map(typeName).join(', ');
  throw new EngineError(
    'NOT_SUPPORTED',
    `${name}(${shown}) is not supported: ${aboveShort(bound.argumentTypes, bound.returnType)}`,
    location,
  );
}

/** The body of `template` for these types: exact for a plain timestamp at any year, lifted when a long time goes through a family parameter. */
export function implementWithLongPlain(
  name: string,
  template: SignatureTemplate,
  types: readonly SqlType[],
  returnType: SqlType,
): ScalarImplementation {
  const unsupported = () =>
    new EngineError('NOT_SUPPORTED', `${name}(${types.map(typeName).join(', ')}) is not supported: ${aboveShort(types, returnType)}`);
  if (isTimestampCall(types, returnType) && readsThroughFamily(template, types, returnType, (t) => t.kind === 'timestamp')) {
    const exact = exactTimestampImplementation(name, types, returnType, () => template.implement(types.map(asShort), asShort(returnType)));
    if (exact !== undefined) return exact;
    if (readsLongThroughFamily(template, types, returnType)) throw unsupported();
  }
  if (!readsLongThroughFamily(template, types, returnType)) return template.implement(types, returnType);
  const own = OWN.get(name)?.(types);
  if (own !== undefined) return own;
  const rule = RULES.get(name);
  if (rule === undefined) throw unsupported();
  const inner = template.implement(types.map(asShort), asShort(returnType));
  const long = types.map(isLongPlain);
  const first = long.indexOf(true);
  const longResult = isLongPlain(returnType);
  const toMillis = (v: bigint) => floorDiv(v, PICOS_PER_MILLI);
  return {
    mayReturnNull: inner.mayReturnNull,
    acceptsNulls: inner.acceptsNulls,
    invoke: (...args: Scalar[]) => {
      const result = inner.invoke(...args.map((a, i) => (long[i] && a !== null ? Number(toMillis(a as bigint)) * 1000 : a)));
      if (!longResult || result === null) return result;
      const below =
        rule === 'drop' || first < 0 || args[first] === null
          ? 0n
          : (args[first] as bigint) - floorDiv(args[first] as bigint, PICOS_PER_MILLI) * PICOS_PER_MILLI;
      return BigInt(result as number) * PICOS_PER_MICRO + below;
    },
  };
}

/** time - time: the difference of whole micros rounded half up to millis (Trino). */
function subtractValues(types: readonly SqlType[]): ScalarImplementation | undefined {
  if (!types.every(isLongPlain)) return undefined;
  const invoke = (a: bigint, b: bigint) => Number(floorDiv(floorDiv(a, PICOS_PER_MICRO) - floorDiv(b, PICOS_PER_MICRO) + 500n, 1000n));
  return { mayReturnNull: false, acceptsNulls: false, invoke: invoke as (...args: Scalar[]) => Scalar };
}
