// What GROUP BY, DISTINCT, distinct aggregates and set operations need of a table mapping key rows
// to dense group ids, and the choice between the general table and the integer-key one.

import type { Column } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { GroupByHash } from './group-by-hash.js';
import { hasIntegerKeys, IntegerGroupByHash } from './integer-group-by-hash.js';

export interface KeyGroupTable {
  readonly types: readonly SqlType[];
  readonly groupCount: number;
  /**
   * Writes the group id of rows [0, count) of the key columns into `groupIds`, adding a group for
   * each key not seen before (ids in first-seen order, so a row starts a new group exactly when its
   * id equals the group count before it). Keys compare with IS NOT DISTINCT semantics.
   */
  putRows(keyColumns: readonly Column[], count: number, groupIds: Int32Array): void;
  /** Like putRows but adds nothing: rows whose key is not present get -1. */
  getRows(keyColumns: readonly Column[], count: number, groupIds: Int32Array): void;
  /** The key columns of groups [start, end). */
  keyColumns(start: number, end: number): Column[];
  sizeInBytes(): number;
  /** Gives the table's big arrays back to the buffer pool (buffer-pool.ts) once no key is read any more. */
  release(): void;
}

/** The table for keys of `types`: typed-array words for one or two integer keys, else the general one. */
export function newKeyGroupTable(types: readonly SqlType[]): KeyGroupTable {
  return hasIntegerKeys(types) ? new IntegerGroupByHash(types) : new GroupByHash(types);
}
