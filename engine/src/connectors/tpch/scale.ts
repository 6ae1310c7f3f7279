// Scale factors: the schema names that select them and the table sizes they give. Sizes follow
// dbgen: base count times the scale factor, truncated (so fractional scale factors work too).

import { EngineError } from '../../errors/engine-error.js';

/** The schemas listed (any `sf<N>` with positive N can be queried). */
export const STANDARD_SCHEMAS: readonly string[] = ['tiny', 'sf1', 'sf10', 'sf100', 'sf300', 'sf1000'];

const TINY_SCALE_FACTOR = 0.01;
/**
 * The largest scale factor TPC-H defines (and dbgen generates). Beyond it nothing is served: row
 * counts and keys would soon leave the exact range of the generator's arithmetic, and a scan could
 * never finish anyway.
 */
export const MAX_SCALE_FACTOR = 100_000;

/**
 * The scale factor a schema name selects, or undefined when it names none; a scale factor above
 * MAX_SCALE_FACTOR fails with an error that says so.
 */
export function scaleFactorOfSchema(schema: string): number | undefined {
  if (schema === 'tiny') return TINY_SCALE_FACTOR;
  const match = /^sf(\d+(?:\.\d+)?)$/.exec(schema);
  if (match === null) return undefined;
  const scaleFactor = Number(match[1]);
  if (!(scaleFactor > 0)) return undefined;
  if (!(scaleFactor <= MAX_SCALE_FACTOR)) {
    throw new EngineError(
      'NOT_SUPPORTED',
      `Scale factor ${match[1]} of schema '${schema}' is not supported: the tpch connector generates scale factors up to ${MAX_SCALE_FACTOR}, the largest TPC-H defines`,
    );
  }
  return scaleFactor;
}

export const PART_BASE = 200_000;
export const SUPPLIER_BASE = 10_000;
export const CUSTOMER_BASE = 150_000;
export const ORDER_BASE = 1_500_000;
const CLERK_BASE = 1000;
/** From this scale factor on, dbgen draws customer and part keys from its 64-bit stream. */
const SCALE_FACTOR_64_BIT_KEYS = 30000;

/** Table sizes and key ranges at one scale factor. */
export class Scale {
  readonly parts: number;
  readonly suppliers: number;
  readonly customers: number;
  readonly orders: number;
  /** Clerks numbered 1..clerks in o_clerk. */
  readonly clerks: number;
  readonly uses64BitKeys: boolean;

  constructor(readonly scaleFactor: number) {
    this.parts = Math.floor(PART_BASE * scaleFactor);
    this.suppliers = Math.floor(SUPPLIER_BASE * scaleFactor);
    this.customers = Math.floor(CUSTOMER_BASE * scaleFactor);
    this.orders = Math.floor(ORDER_BASE * scaleFactor);
    this.clerks = Math.max(Math.floor(scaleFactor * CLERK_BASE), CLERK_BASE);
    this.uses64BitKeys = scaleFactor >= SCALE_FACTOR_64_BIT_KEYS;
  }
}
