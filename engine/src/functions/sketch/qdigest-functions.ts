// The scalar functions of qdigest(T): value_at_quantile, values_at_quantiles and quantile_at_value,
// one signature per element type (bigint, double, real), answering in the element type.

import { DOUBLE, type SqlType, arrayOf } from '../../types/types.js';
import type { Scalar } from '../../types/scalar.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from '../scalar/signature.js';
import { type Key, bigintOfKey, doubleOfKey, keyOfBigint, keyOfDouble, keyOfReal, realOfKey } from '../../types/sketch/qdigest-bits.js';
import { type QDigestElement, qdigestType } from '../../types/sketch/qdigest-type.js';
import { QuantileDigest } from '../../types/sketch/qdigest.js';

interface ElementCodec {
  readonly type: SqlType;
  toKey(value: Scalar): Key;
  fromKey(key: Key): Scalar;
}

const ELEMENTS: Record<QDigestElement, ElementCodec> = {
  bigint: { type: { kind: 'bigint' }, toKey: (v) => keyOfBigint(v as bigint), fromKey: bigintOfKey },
  double: { type: DOUBLE, toKey: (v) => keyOfDouble(v as number), fromKey: doubleOfKey },
  real: { type: { kind: 'real' }, toKey: (v) => keyOfReal(v as number), fromKey: realOfKey },
};

function perElement(template: (element: ElementCodec, digestType: SqlType) => SignatureTemplate): SignatureTemplate[] {
  return (Object.keys(ELEMENTS) as QDigestElement[]).map((element) => template(ELEMENTS[element], qdigestType(element)));
}

const valueAtDescription = 'find the value whose rank in the sorted sequence of the n values represented by the qdigest is qn';

export const QDIGEST_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['value_at_quantile'],
    description: `Given an input q between [0, 1], ${valueAtDescription}`,
    signatures: perElement((element, digestType) => ({
      params: [digestType, DOUBLE],
      returnType: element.type,
      implement: () => body((bytes: Uint8Array, q: number) => element.fromKey(QuantileDigest.deserialize(bytes).valueAt(q))),
    })),
  },
  {
    names: ['values_at_quantiles'],
    description: `For each input q between [0, 1], ${valueAtDescription}`,
    signatures: perElement((element, digestType) => ({
      params: [digestType, arrayOf(DOUBLE)],
      returnType: arrayOf(element.type),
      implement: () =>
        body((bytes: Uint8Array, quantiles: readonly (number | null)[]) => {
          const digest = QuantileDigest.deserialize(bytes);
          return quantiles.map((q) => element.fromKey(digest.valueAt(q ?? NaN)));
        }),
    })),
  },
  {
    names: ['quantile_at_value'],
    description: 'Given an input x between min/max values of qdigest, find which quantile is represented by that value',
    signatures: perElement((element, digestType) => ({
      params: [digestType, element.type],
      returnType: DOUBLE,
      implement: () =>
        body((bytes: Uint8Array, value: Scalar) => QuantileDigest.deserialize(bytes).quantileAt(element.toKey(value)) ?? null, {
          mayReturnNull: true,
        }),
    })),
  },
];
