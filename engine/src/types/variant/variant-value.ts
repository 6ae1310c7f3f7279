// A VARIANT value decoded: the Parquet Variant type system (VariantEncoding.md), which Trino's VARIANT
// implements. Columns hold the encoding (variant-encoding.ts); functions and casts work on this tree.

/** The primitive types of the Variant encoding, by their type ids. */
export const PRIMITIVE_IDS = {
  null: 0,
  int8: 3,
  int16: 4,
  int32: 5,
  int64: 6,
  double: 7,
  decimal4: 8,
  decimal8: 9,
  decimal16: 10,
  date: 11,
  timestamp_utc_micros: 12,
  timestamp_ntz_micros: 13,
  float: 14,
  binary: 15,
  string: 16,
  time_ntz_micros: 17,
  timestamp_utc_nanos: 18,
  timestamp_ntz_nanos: 19,
  uuid: 20,
} as const;

export type IntegerKind = 'int8' | 'int16' | 'int32' | 'int64';
export type DecimalKind = 'decimal4' | 'decimal8' | 'decimal16';
/** Times and timestamps, each an integer count of its unit (micros of the day; micros or nanos since the epoch). */
export type TemporalKind =
  | 'time_ntz_micros'
  | 'timestamp_utc_micros'
  | 'timestamp_ntz_micros'
  | 'timestamp_utc_nanos'
  | 'timestamp_ntz_nanos';

export type VariantValue =
  | { readonly kind: 'null' }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: IntegerKind; readonly value: bigint }
  | { readonly kind: 'float' | 'double'; readonly value: number }
  | { readonly kind: DecimalKind; readonly unscaled: bigint; readonly scale: number }
  | { readonly kind: 'date'; readonly days: number }
  | { readonly kind: TemporalKind; readonly value: bigint }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'binary'; readonly value: Uint8Array }
  // Its 32 lowercase hex digits.
  | { readonly kind: 'uuid'; readonly hex: string }
  | { readonly kind: 'array'; readonly elements: readonly VariantValue[] }
  // Fields in any order; the encoding sorts them by name.
  | { readonly kind: 'object'; readonly fields: ReadonlyMap<string, VariantValue> };

export const VARIANT_NULL: VariantValue = { kind: 'null' };

/** The smallest integer kind holding `value` (an int64 holds every bigint the engine makes). */
export function integerVariant(value: bigint, kind?: IntegerKind): VariantValue {
  return {
    kind:
      kind ??
      (value >= -128n && value <= 127n
        ? 'int8'
        : value >= -32768n && value <= 32767n
          ? 'int16'
          : value >= -(2n ** 31n) && value < 2n ** 31n
            ? 'int32'
            : 'int64'),
    value,
  };
}

/** The smallest decimal kind holding `unscaled` digits (4, 8 or 16 bytes: precision 9, 18, 38). */
export function decimalVariant(unscaled: bigint, scale: number): VariantValue {
  const magnitude = unscaled < 0n ? -unscaled : unscaled;
  const kind = magnitude < 10n ** 9n ? 'decimal4' : magnitude < 10n ** 18n ? 'decimal8' : 'decimal16';
  return { kind, unscaled, scale };
}

/** Trino's name for the kind of a value in its messages ("VARIANT value is int32, not an array"). */
export function variantTypeName(value: VariantValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'boolean':
      return value.value ? 'boolean_true' : 'boolean_false';
    default:
      return value.kind;
  }
}
