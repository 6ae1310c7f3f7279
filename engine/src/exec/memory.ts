// Memory accounting: a query's operators reserve what they retain; past the limit the query fails
// with EXCEEDED_LOCAL_MEMORY_LIMIT while the server stays up. Contexts nest (node -> query).

import { EngineError } from '../errors/engine-error.js';

export class MemoryContext {
  private reserved = 0;
  private peak = 0;

  constructor(
    readonly name: string,
    readonly limitBytes: number,
    private readonly parent?: MemoryContext,
  ) {}

  get reservedBytes(): number {
    return this.reserved;
  }

  get peakBytes(): number {
    return this.peak;
  }

  /** Reserves `bytes`; throws EXCEEDED_LOCAL_MEMORY_LIMIT (and reserves nothing) when over a limit. */
  reserve(bytes: number): void {
    if (bytes <= 0) return;
    if (this.reserved + bytes > this.limitBytes) {
      throw new EngineError(
        'EXCEEDED_LOCAL_MEMORY_LIMIT',
        `Query exceeded per-node memory limit of ${formatBytes(this.limitBytes)} [Allocated: ${formatBytes(this.reserved + bytes)}]`,
      );
    }
    this.parent?.reserve(bytes);
    this.reserved += bytes;
    if (this.reserved > this.peak) this.peak = this.reserved;
  }

  free(bytes: number): void {
    const amount = Math.min(bytes, this.reserved);
    if (amount <= 0) return;
    this.reserved -= amount;
    this.parent?.free(amount);
  }

  /** Releases everything this context holds (at the end of a query). */
  close(): void {
    this.free(this.reserved);
  }

  child(name: string, limitBytes = this.limitBytes): MemoryContext {
    return new MemoryContext(name, limitBytes, this);
  }
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v}B` : `${v.toFixed(2)}${units[u]}`;
}
