// A change of a table's definition (ALTER TABLE, COMMENT ON): what the engine asks a connector to do
// after it checked the statement (the table exists, the columns named exist or not, as needed).

import type { ColumnMetadata } from './connector.js';

export type TableChange =
  | { kind: 'addColumn'; column: ColumnMetadata }
  | { kind: 'dropColumn'; column: string }
  | { kind: 'renameColumn'; column: string; to: string }
  | { kind: 'rename'; schema: string; name: string }
  | { kind: 'setComment'; comment: string | undefined }
  | { kind: 'setColumnComment'; column: string; comment: string | undefined }
  | { kind: 'dropNotNull'; column: string };

/** What Trino names each change when a connector cannot make it ("This connector does not support <name>"). */
export const TABLE_CHANGE_NAMES: Readonly<Record<TableChange['kind'], string>> = {
  addColumn: 'adding columns',
  dropColumn: 'dropping columns',
  renameColumn: 'renaming columns',
  rename: 'renaming tables',
  setComment: 'setting table comments',
  setColumnComment: 'setting column comments',
  dropNotNull: 'dropping a not null constraint',
};
