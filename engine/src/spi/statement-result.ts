// The contract between the client protocol (server/, query manager) and statement execution.

import type { Page } from '../columnar/page.js';
import type { SqlType } from '../types/types.js';
import type { SessionChanges } from './session.js';

export interface OutputColumn {
  name: string;
  type: SqlType;
}

export interface StatementResult {
  columns: OutputColumn[];
  /** Result rows, streamed; pulled by the protocol as the client asks for them. */
  pages: AsyncIterable<Page>;
  /** For statements that are not queries: 'CREATE TABLE', 'INSERT', 'SET SESSION', ... (Trino's updateType). */
  updateType?: string;
  /** Rows written or deleted (INSERT, DELETE, CREATE TABLE AS); also returned as the single `rows` column. */
  updateCount?: number;
  sessionChanges: SessionChanges;
}
