// The end of a task's pipeline: puts its pages into its output buffer, by the layout of the
// exchange above it — split by the hash of the partition columns (REPARTITION), to every consumer
// (REPLICATE) or to the one consumer (GATHER). Waits while the buffer is full, so that a slow
// consumer slows this task down. The small pages of a partition, or of a replicated output, go out
// together (partition-batches.ts).

import { PageSerializer } from '../exec/exchange/page-codec.js';
import { PagePartitioner } from '../exec/threads/partition-page.js';
import { turnDue, yieldIfDue } from '../columnar/cooperative.js';
import { SLICE_ROWS } from '../exec/operators/bounded-pages.js';
import type { Page } from '../columnar/page.js';
import type { BlockedTime } from '../columnar/cooperative.js';
import type { SqlType } from '../types/types.js';
import { OutputBuffer, type OutputBufferLayout, type OutputBufferOptions } from './output-buffer.js';
import { OutputPage } from './output-page.js';
import { PartitionBatches } from './partition-batches.js';
import type { OutputBuffersSpec } from '../internode/task-update-request.js';

export class TaskOutput {
  readonly buffer: OutputBuffer;
  private readonly serializer: PageSerializer;
  private readonly batches: PartitionBatches | undefined;
  /** Rows, pages and bytes put into the buffer. */
  rows = 0;
  pages = 0;
  bytes = 0;

  constructor(
    private readonly spec: OutputBuffersSpec,
    types: readonly SqlType[],
    options: OutputBufferOptions,
  ) {
    // A shared stage's readers may wait on one another (shared-stages.ts): its output is held whole, in the task's memory.
    const shared = spec.type === 'PARTITIONED' && spec.readers !== undefined;
    this.buffer = new OutputBuffer(bufferLayout(spec), shared ? { ...options, maxBufferedBytes: Number.POSITIVE_INFINITY } : options);
    this.serializer = new PageSerializer(types);
    // A replicated build side's pages are cut small by the filters and joins under it, too (q3's orders).
    if (spec.type !== 'GATHER')
      this.batches = new PartitionBatches(types, spec.type === 'PARTITIONED' ? spec.partitions : 1, options.memory);
  }

  /** `blocked`: where the waits for room in the buffer are counted (the task output's stats). */
  async add(page: Page, blocked?: BlockedTime): Promise<void> {
    if (page.rowCount === 0) return;
    const spec = this.spec;
    const enqueue = (piece: Page, partition: number | undefined) => {
      const room = this.enqueue(piece, partition);
      return blocked === undefined ? room : blocked.blockedOn(room);
    };
    // A piece joins its partition's batch; a full batch is enqueued (to `partition`; undefined: every reader).
    const batched = (piece: Page, batch: number, partition: number | undefined) => {
      const full = this.batches!.add(batch, piece);
      return full === undefined ? undefined : enqueue(full, partition);
    };
    if (spec.type === 'GATHER') return enqueue(page, 0);
    if (spec.type === 'BROADCAST') return batched(page, 0, undefined);
    if (spec.partitions === 1) return batched(page, 0, 0);
    // A long page is split a slice per turn of the event loop when one is due: hashing and gathering a
    // page of 8,192 rows of strings held a worker's loop 37-61 ms under 8 clients. Until a turn is due
    // the slices' rows wait, to be cut into one piece per partition, as a page needing no turn is.
    const partitioner = new PagePartitioner(page, spec.partitionChannels, spec.partitions);
    while (partitioner.assigned < page.rowCount) {
      partitioner.assign(Math.min(page.rowCount, partitioner.assigned + SLICE_ROWS));
      const last = partitioner.assigned === page.rowCount;
      if (!last && !turnDue()) continue;
      const parts = partitioner.take();
      for (let p = 0; p < parts.length; p++) if (parts[p].rowCount > 0) await batched(parts[p], p, p);
      if (!last) await yieldIfDue(undefined, blocked);
    }
  }

  private enqueue(page: Page, partition: number | undefined): Promise<void> {
    const output = new OutputPage(page, this.serializer);
    this.rows += page.rowCount;
    this.pages++;
    this.bytes += output.bytes;
    return this.buffer.enqueue([output], partition);
  }

  /** Puts what the partitions still hold into the buffer (past its bound: it is the last of the output), then ends the output. */
  finish(): void {
    const everyConsumer = this.spec.type === 'BROADCAST';
    for (const [partition, batch] of this.batches?.drain() ?? []) void this.enqueue(batch, everyConsumer ? undefined : partition);
    this.buffer.setNoMorePages();
  }
}

function bufferLayout(spec: OutputBuffersSpec): OutputBufferLayout {
  switch (spec.type) {
    case 'GATHER':
      return { kind: 'partitioned', partitions: 1 };
    case 'PARTITIONED':
      return { kind: 'partitioned', partitions: spec.partitions, readers: spec.readers };
    case 'BROADCAST':
      return { kind: 'broadcast', bufferIds: Array.from({ length: spec.partitions }, (_, i) => String(i)) };
  }
}
