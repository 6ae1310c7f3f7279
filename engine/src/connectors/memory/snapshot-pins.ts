// Keeps the snapshots that splits refer to. Splits are plain JSON (they may travel), so they name a
// pin instead of holding the snapshot; the pin keeps a superseded snapshot alive until every split
// handed out for it has been read, or until it expires (a query that stopped early never reads the
// rest of its splits).

import type { TableSnapshot } from './table-snapshot.js';

export interface SnapshotPinOptions {
  /** How long an unfinished pin keeps its snapshot. */
  retentionMillis: number;
  now: () => number;
}

interface Pin {
  snapshot: TableSnapshot;
  unreadSplits: number;
  expiresAt: number;
}

export class SnapshotPins {
  private nextId = 1;
  private readonly pins = new Map<number, Pin>();

  constructor(private readonly options: SnapshotPinOptions) {}

  /** Pins `snapshot` for `splitCount` splits; returns the pin id the splits carry. */
  pin(snapshot: TableSnapshot, splitCount: number): number {
    this.dropExpired();
    const id = this.nextId++;
    this.pins.set(id, { snapshot, unreadSplits: splitCount, expiresAt: this.options.now() + this.options.retentionMillis });
    return id;
  }

  get(id: number): TableSnapshot | undefined {
    return this.pins.get(id)?.snapshot;
  }

  /** One split of the pin has been read to its end or abandoned. */
  splitDone(id: number): void {
    const pin = this.pins.get(id);
    if (pin !== undefined && --pin.unreadSplits <= 0) this.pins.delete(id);
  }

  /** Pins currently held (for tests and diagnostics). */
  get size(): number {
    return this.pins.size;
  }

  private dropExpired(): void {
    const now = this.options.now();
    for (const [id, pin] of this.pins) if (pin.expiresAt < now) this.pins.delete(id);
  }
}
