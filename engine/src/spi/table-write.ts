// The connector side of a write (CREATE TABLE AS, INSERT), as Trino's: a write handle made when the
// write begins on the coordinator, a page sink per writer (on the node that runs it), and fragments:
// what each writer wrote, handed to the one commit on the coordinator.

import type { Page } from '../columnar/page.js';

/** A write as its connector describes it; plain JSON (it travels to workers in task requests). */
export type WriteHandle = unknown;

/** What one writer wrote (files, staged rows), as its connector describes it; plain JSON. */
export type WriteFragment = unknown;

/** One writer's rows. Nothing it writes is visible before the write commits. */
export interface ConnectorPageSink {
  /** Writes a page of the table's columns, in table order. */
  appendPage(page: Page): Promise<void>;
  /** Ends this writer; returns what it wrote, for the commit. */
  finish(): Promise<WriteFragment[]>;
  /** Ends this writer without a commit: removes what it wrote (best effort). */
  abort(): Promise<void>;
  /** Bytes of rows the sink holds in memory now (counted against the query's memory). */
  retainedBytes?(): number;
}
