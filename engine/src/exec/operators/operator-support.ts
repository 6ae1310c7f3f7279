// What operators share: cancellation checks, memory reservations that follow a retained size, and
// the compaction of small output pages into pages of about TARGET_PAGE_ROWS rows.

import { EngineError } from '../../errors/engine-error.js';
import type { MemoryContext } from '../memory.js';
import { concatPages, type Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import type { OperatorContext } from './operator.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';

export function throwIfCanceled(ctx: OperatorContext): void {
  if (ctx.signal.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
}

/** One operator's share of a MemoryContext; `set` reserves or frees the difference. */
export class MemoryReservation {
  private bytes = 0;

  constructor(private readonly memory: MemoryContext) {}

  get reservedBytes(): number {
    return this.bytes;
  }

  /** Makes the reservation `bytes`; throws EXCEEDED_LOCAL_MEMORY_LIMIT (changing nothing) when over. */
  set(bytes: number): void {
    if (bytes > this.bytes) this.memory.reserve(bytes - this.bytes);
    else this.memory.free(this.bytes - bytes);
    this.bytes = bytes;
  }

  add(bytes: number): void {
    this.set(this.bytes + bytes);
  }

  release(): void {
    this.set(0);
  }
}

/** Gathers small pages until they make a page of about TARGET_PAGE_ROWS rows. */
export class PageCompactor {
  private pending: Page[] = [];
  private rows = 0;

  constructor(private readonly types: readonly SqlType[]) {}

  /** Takes a page; returns the pages ready to go out (often none). */
  add(page: Page): Page[] {
    if (page.rowCount === 0) return [];
    if (page.rowCount >= TARGET_PAGE_ROWS / 2) return [...this.finish(), page];
    this.pending.push(page);
    this.rows += page.rowCount;
    return this.rows >= TARGET_PAGE_ROWS ? this.finish() : [];
  }

  /** What is still pending, as one page (or nothing). */
  finish(): Page[] {
    if (this.rows === 0) return [];
    const page = this.pending.length === 1 ? this.pending[0] : concatPages(this.types, this.pending);
    this.pending = [];
    this.rows = 0;
    return [page];
  }
}
