// A change of a table's definition (ALTER TABLE, COMMENT ON): what the engine asks a connector to do
// after it checked the statement (the table exists, the columns named exist or not, as needed).

import type { ColumnMetadata } from './connector.js';

export type TableChange =
  | { kind: 'addColumn'; column: ColumnMetadata }
  | { kind: 'dropColumn'; column: string }
  | { kind: 'renameColumn'; column: string; to: string }
  | { kind: 'rename'; schema: string; name: string }
  | { kind: 'setComment'; comment: string | undefined }
  | { kind: 'setColumnComment'; column: string; comment: string | undefined };
