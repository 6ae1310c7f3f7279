// The JS value of one row of one column (the table in columnar/page.ts gives it per SQL type): what
// casts, functions and constants read and write one value at a time.

import type { MapValue } from './map-value.js';

export type Scalar = boolean | number | bigint | string | Uint8Array | null | readonly Scalar[] | MapValue;
