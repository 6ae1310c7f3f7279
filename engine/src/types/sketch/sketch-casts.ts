// Casts of the sketch types, as Trino has them: HyperLogLog and SetDigest to and from varbinary (the
// bytes unchanged, read only when used), HyperLogLog to P4HyperLogLog (made dense) and back, SetDigest
// to HyperLogLog (its HyperLogLog part), tdigest and qdigest(T) to and from varbinary (read, so checked, on the way in).

import type { Scalar } from '../scalar.js';
import { HYPER_LOG_LOG, type SketchName, type SqlType } from '../types.js';
import { HyperLogLog } from './hyperloglog.js';
import { setDigestHyperLogLogBytes } from './setdigest.js';
import { TDigestSketch } from './tdigest-sketch.js';
import { QDIGEST_TO_VARBINARY, VARBINARY_TO_QDIGEST } from './qdigest-casts.js';

type Cast = (value: Scalar) => Scalar;

const same: Cast = (v) => v;
const toP4: Cast = (v) => {
  const hll = HyperLogLog.deserialize(v as Uint8Array);
  hll.makeDense();
  return hll.serialize();
};

/** The casts that exist, by `from` then `to` (a sketch name or varbinary). */
const CASTS: Partial<Record<SketchName | 'varbinary', Partial<Record<SketchName | 'varbinary', Cast>>>> = {
  varbinary: {
    HyperLogLog: same,
    SetDigest: same,
    tdigest: (v) => TDigestSketch.deserialize(v as Uint8Array).serialize(),
    ...VARBINARY_TO_QDIGEST,
  },
  HyperLogLog: { varbinary: same, P4HyperLogLog: toP4 },
  P4HyperLogLog: { HyperLogLog: same },
  SetDigest: { varbinary: same, HyperLogLog: (v) => setDigestHyperLogLogBytes(v as Uint8Array) },
  tdigest: { varbinary: same },
  ...QDIGEST_TO_VARBINARY,
};

function castKey(type: SqlType): SketchName | 'varbinary' | undefined {
  return type.kind === 'sketch' ? type.sketch : type.kind === 'varbinary' ? 'varbinary' : undefined;
}

export function isSketchType(type: SqlType): boolean {
  return type.kind === 'sketch';
}

/** The cast of one non-null value, undefined when Trino has no such cast (one side is a sketch). */
export function sketchCast(from: SqlType, to: SqlType): Cast | undefined {
  const fromKey = castKey(from);
  const toKey = castKey(to);
  return fromKey === undefined || toKey === undefined ? undefined : CASTS[fromKey]?.[toKey];
}

/** Trino coerces P4HyperLogLog to HyperLogLog implicitly; no other two sketch types meet. */
export function sketchSuperType(a: SqlType, b: SqlType): SqlType | undefined {
  const names = new Set([a, b].map((t) => (t.kind === 'sketch' ? t.sketch : undefined)));
  return names.size === 2 && names.has('HyperLogLog') && names.has('P4HyperLogLog') ? HYPER_LOG_LOG : undefined;
}
