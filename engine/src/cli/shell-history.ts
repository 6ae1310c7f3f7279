// The interactive shell's history file (~/.engine_history): one statement a line, oldest first, with
// the newlines and backslashes inside a statement escaped. Each statement is appended as it is
// entered, so a shell that is killed keeps what it ran, and shells open at once add to the file
// rather than overwrite each other's. The file is private (0600): statements may hold secrets. When
// it grows to twice the entries kept, it is rewritten with the newest ones.

import { closeSync, fchmodSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';

/** Entries kept, and recalled with Up. */
export const HISTORY_SIZE = 1000;
const PRIVATE = 0o600;

export class HistoryFile {
  constructor(readonly path: string) {}

  /** The newest entries, newest first (readline's order). */
  load(): string[] {
    let lines: string[];
    try {
      lines = readFileSync(this.path, 'utf8')
        .split('\n')
        .filter((l) => l !== '');
    } catch {
      return [];
    }
    const kept = lines.slice(-HISTORY_SIZE);
    if (lines.length >= 2 * HISTORY_SIZE) this.rewrite(kept);
    return kept.map(unescapeEntry).reverse();
  }

  append(entry: string): void {
    try {
      const fd = openSync(this.path, 'a', PRIVATE);
      try {
        // A file an older version wrote is readable by others (0644).
        fchmodSync(fd, PRIVATE);
        writeSync(fd, `${escapeEntry(entry)}\n`);
      } finally {
        closeSync(fd);
      }
    } catch {
      // History is a convenience: a read-only home must not break the shell.
    }
  }

  /** Replaces the file at once (a shell appending meanwhile loses at most that entry). */
  private rewrite(lines: readonly string[]): void {
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, `${lines.join('\n')}\n`, { mode: PRIVATE });
      renameSync(temporary, this.path);
    } catch {
      // Left long: it is read the same way.
    }
  }
}

function escapeEntry(entry: string): string {
  return entry.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function unescapeEntry(line: string): string {
  return line.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}
