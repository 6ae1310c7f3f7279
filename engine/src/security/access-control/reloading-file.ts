// A configuration file read at start and read again when it changes, at most once per refresh
// period, when its contents are next needed (as Trino's memoized rules). A file that cannot be used
// at start stops the server; a change that cannot be used keeps the last good contents, and the
// log says why, once per bad version.

import { readFileSync } from 'node:fs';
import { ConfigError } from '../../config/config-error.js';
import type { Logger } from '../../log/logger.js';

export class ReloadingFile<T> {
  private value: T;
  private text: string;
  private checkedAt: number;
  /** The text of the last version refused, so that it is logged once. */
  private refusedText: string | undefined;

  constructor(
    private readonly path: string,
    /** What the file is, for messages: "access rules file". */
    private readonly what: string,
    private readonly parse: (text: string) => T,
    private readonly refreshMillis: number,
    private readonly logger: Logger | undefined,
    private readonly now: () => number = Date.now,
  ) {
    try {
      this.text = readFileSync(path, 'utf8');
      this.value = parse(this.text);
    } catch (e) {
      throw new ConfigError(`Invalid ${what} ${path}: ${(e as Error).message}`);
    }
    this.checkedAt = now();
  }

  /** The contents in force: re-read first when the refresh period has passed since the last read. */
  current(): T {
    if (this.now() - this.checkedAt >= this.refreshMillis) this.reload();
    return this.value;
  }

  private reload(): void {
    this.checkedAt = this.now();
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      this.refuse(`${e instanceof Error ? e.message : String(e)}`, '');
      return;
    }
    if (text === this.text) return;
    try {
      this.value = this.parse(text);
      this.text = text;
      this.refusedText = undefined;
      this.logger?.info({ file: this.path }, `reloaded ${this.what}`);
    } catch (e) {
      this.refuse((e as Error).message, text);
    }
  }

  private refuse(reason: string, text: string): void {
    if (this.refusedText === text) return;
    this.refusedText = text;
    this.logger?.warn({ file: this.path }, `${this.what} ${this.path} not reloaded, keeping the last good version: ${reason}`);
  }
}
