// Writes of the memory connector. Its tables live in the coordinator's process, so its writers run
// there (the connector is not remotely accessible): each page sink keeps its pages, staged under the
// write's id when it finishes; the commit puts every writer's staged pages into the table at once
// (a new table first, for CREATE TABLE AS), and an abort drops them.

import { EngineError } from '../../errors/engine-error.js';
import type { TableMetadata } from '../../spi/connector.js';
import { pageSizeInBytes, type Page } from '../../columnar/page.js';
import type { ConnectorPageSink, WriteFragment, WriteHandle } from '../../spi/table-write.js';

export interface MemoryWriteHandle {
  writeId: number;
  schema: string;
  table: string;
  /** CREATE TABLE AS: the table to create at the commit. */
  create?: TableMetadata;
}

interface MemoryWriteFragment {
  sink: number;
}

export class MemoryWrites {
  private nextWriteId = 1;
  private nextSinkId = 1;
  /** Per write id, the pages of each writer that finished. */
  private readonly staged = new Map<number, Map<number, Page[]>>();

  begin(schema: string, table: string, create?: TableMetadata): MemoryWriteHandle {
    const writeId = this.nextWriteId++;
    this.staged.set(writeId, new Map());
    return { writeId, schema, table, ...(create === undefined ? {} : { create }) };
  }

  sink(handle: WriteHandle): ConnectorPageSink {
    const { writeId } = handle as MemoryWriteHandle;
    const sinkId = this.nextSinkId++;
    let pages: Page[] = [];
    let bytes = 0;
    return {
      appendPage: async (page) => {
        pages.push(page);
        bytes += pageSizeInBytes(page);
      },
      finish: async () => {
        const staged = this.staged.get(writeId);
        if (staged === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `Memory write ${writeId} is over`);
        staged.set(sinkId, pages);
        return [{ sink: sinkId } satisfies MemoryWriteFragment];
      },
      abort: async () => {
        pages = [];
        bytes = 0;
      },
      retainedBytes: () => bytes,
    };
  }

  /** The pages of the writers that reported `fragments`; the write is over after. */
  take(handle: WriteHandle, fragments: readonly WriteFragment[]): Page[] {
    const { writeId } = handle as MemoryWriteHandle;
    const staged = this.staged.get(writeId);
    this.staged.delete(writeId);
    if (staged === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `Memory write ${writeId} is over`);
    return fragments.flatMap((f) => {
      const pages = staged.get((f as MemoryWriteFragment).sink);
      if (pages === undefined)
        throw new EngineError('GENERIC_INTERNAL_ERROR', `Memory write ${writeId} has no writer ${(f as MemoryWriteFragment).sink}`);
      return pages;
    });
  }

  abort(handle: WriteHandle): void {
    this.staged.delete((handle as MemoryWriteHandle).writeId);
  }
}
