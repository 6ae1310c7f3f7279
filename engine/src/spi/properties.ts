// Properties: named, typed settings that statements give by name. Session properties (SET SESSION,
// the Session header), and a connector's table and schema properties (CREATE TABLE / CREATE SCHEMA
// ... WITH (name = value)). Each is declared with its type, default and what it does; a name that
// is not declared is refused, as Trino refuses it.

import type { Scalar } from '../types/scalar.js';
import type { SqlType } from '../types/types.js';

/** The types a property value may have. */
export type PropertyType = Extract<SqlType, { kind: 'boolean' | 'integer' | 'bigint' | 'double' | 'varchar' }>;

export interface PropertyMetadata {
  name: string;
  /** What setting it does: shown by SHOW SESSION and in error messages. */
  description: string;
  type: PropertyType;
  /** The value when the property is not given; undefined: none. */
  defaultValue?: Scalar;
  /** Throws (with a message saying why) when a value of the right type is still not acceptable. */
  validate?: (value: Scalar) => void;
  /**
   * The value is a list, `ARRAY[...]` of constants of `type` (Trino's array-typed properties, such as
   * the lake's `partitioned_by`); `validate` checks each item. The engine has no array type yet:
   * properties are the one place an ARRAY constructor is read.
   */
  list?: boolean;
}

/** What a connector declares: the properties its catalog takes. Absent lists mean none. */
export interface ConnectorProperties {
  table?: readonly PropertyMetadata[];
  column?: readonly PropertyMetadata[];
  schema?: readonly PropertyMetadata[];
  session?: readonly PropertyMetadata[];
}
