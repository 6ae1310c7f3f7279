// What generated code reads besides its bound values (value readers, empty values): the names its
// prologue declares, and the values behind them, passed in as `B`.

import type { Scalar } from '../../types/scalar.js';
import { readListRow } from '../../columnar/list-column.js';
import { readMapRow } from '../../columnar/map-column.js';
import { EMPTY_MAP } from '../../types/map-value.js';
import { readRowValue } from '../../columnar/row-column.js';

const EMPTY_BYTES = new Uint8Array(0);
const EMPTY_ARRAY: readonly Scalar[] = Object.freeze([]);

export const RUNTIME_PROLOGUE =
  'const EMPTY_BYTES = B.EMPTY_BYTES; const EMPTY_ARRAY = B.EMPTY_ARRAY; const readListRow = B.readListRow; const EMPTY_MAP = B.EMPTY_MAP; const readMapRow = B.readMapRow; const readRowValue = B.readRowValue;';
export const RUNTIME_VALUES = { EMPTY_BYTES, EMPTY_ARRAY, readListRow, EMPTY_MAP, readMapRow, readRowValue };
