// Trino's qdigest(T) for T in bigint, double and real: a sketch type per element type, named as
// Trino prints it, with the element type as its signature's parameter. Only type imports here:
// types.ts reads this file.

import type { EngineError } from '../../errors/engine-error.js';
import type { SqlType, TypeSignature } from '../types.js';

export const QDIGEST_NAMES = ['qdigest(bigint)', 'qdigest(double)', 'qdigest(real)'] as const;
export type QDigestName = (typeof QDIGEST_NAMES)[number];
export type QDigestElement = 'bigint' | 'double' | 'real';

export function qdigestType(element: QDigestElement): SqlType {
  return { kind: 'sketch', sketch: `qdigest(${element})` };
}

/** The element type of a qdigest type, undefined for any other type. */
export function qdigestElement(type: SqlType): QDigestElement | undefined {
  if (type.kind !== 'sketch') return undefined;
  const name = type.sketch;
  return name === 'qdigest(bigint)' ? 'bigint' : name === 'qdigest(double)' ? 'double' : name === 'qdigest(real)' ? 'real' : undefined;
}

/** `qdigest(T)` as written in a CAST: the element must be bigint, double or real. */
export function qdigestTypeOf(parameters: readonly SqlType[], fail: (message: string) => EngineError): SqlType {
  const element = parameters.length === 1 ? parameters[0].kind : undefined;
  if (element === 'bigint' || element === 'double' || element === 'real') return qdigestType(element);
  throw fail(
    parameters.length === 1
      ? `Unsupported qdigest element type: ${parameters[0].kind}`
      : 'QDIGEST type expects exactly one type as a parameter',
  );
}

/** Trino's typeSignature of a qdigest type: rawType qdigest with the element type as parameter. */
export function qdigestTypeSignature(name: string, signatureOf: (type: SqlType) => TypeSignature): TypeSignature | undefined {
  const element = qdigestElement({ kind: 'sketch', sketch: name as QDigestName });
  return element === undefined ? undefined : { rawType: 'qdigest', arguments: [{ kind: 'TYPE', value: signatureOf({ kind: element }) }] };
}
