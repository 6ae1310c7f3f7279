// Write ids: a write (CTAS, INSERT) names every file it writes `<write id>_<writer>_<n>.<extension>`
// (each writer, on whichever node it runs, has a random id of its own), and a file named so is
// visible only once its write id is committed (metastore/commit-log.ts). A write id is the query id
// and a random suffix, so that two writes of one query never share one. Files named
// `<write id>_<n>.<extension>` (one writer, as earlier versions wrote) are a write's too.

import { randomBytes } from 'node:crypto';

const WRITE_FILE = /^([A-Za-z0-9_]*_w[0-9a-f]{12})_(?:[0-9a-f]{8}_)?\d+(?:\.|$)/;

export function newWriteId(queryId: string): string {
  return `${queryId.replace(/[^A-Za-z0-9_]/g, '_')}_w${randomBytes(6).toString('hex')}`;
}

/** The write id a file's name starts with; undefined for a file that no write of ours named (always visible). */
export function writeIdOfFile(fileName: string): string | undefined {
  return WRITE_FILE.exec(fileName)?.[1];
}

/** A writer's id, unique among the writers of a write. */
export function newWriterId(): string {
  return randomBytes(4).toString('hex');
}

export function writeFileName(writeId: string, writerId: string, sequence: number, extension: string): string {
  return `${writeId}_${writerId}_${sequence}${extension}`;
}
