// qdigest(T) to and from varbinary, as Trino has them: the bytes unchanged both ways; varbinary is
// read on the way in so that bytes that are no digest fail at the cast.

import type { Scalar } from '../scalar.js';
import { QDIGEST_NAMES, type QDigestName } from './qdigest-type.js';
import { QuantileDigest } from './qdigest.js';

type Cast = (value: Scalar) => Scalar;

const checked: Cast = (v) => {
  QuantileDigest.deserialize(v as Uint8Array);
  return v;
};

export const VARBINARY_TO_QDIGEST = Object.fromEntries(QDIGEST_NAMES.map((name) => [name, checked])) as Record<QDigestName, Cast>;
export const QDIGEST_TO_VARBINARY = Object.fromEntries(QDIGEST_NAMES.map((name) => [name, { varbinary: (v: Scalar) => v }])) as Record<
  QDigestName,
  { varbinary: Cast }
>;
