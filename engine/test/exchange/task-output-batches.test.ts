// A repartitioning task output sends each partition's rows in pages of a useful size, not one small
// piece per partition of every page that comes in (a replicating one gathers its small pages too):
// every row still reaches exactly the partition of its key, once, and nothing is left behind at the
// end of the output.

import { expect } from 'chai';
import { columnFromScalars, estimatedPageBytes, getScalar, type Page } from '../../src/columnar/page.js';
import { MemoryContext } from '../../src/exec/memory.js';
import { SLICE_ROWS } from '../../src/exec/operators/bounded-pages.js';
import { BIGINT, VARCHAR } from '../../src/types/types.js';
import { PARTITION_BATCH_ROWS } from '../../src/worker/partition-batches.js';
import { TaskOutput } from '../../src/worker/task-output.js';
import type { OutputBuffersSpec } from '../../src/internode/task-update-request.js';

const ALL = Number.MAX_SAFE_INTEGER;

function keysPage(first: number, rows: number): Page {
  return {
    rowCount: rows,
    columns: [
      columnFromScalars(
        BIGINT,
        Array.from({ length: rows }, (_, i) => BigInt(first + i)),
      ),
    ],
  };
}

/** Every page of buffer `id` once the output is finished, and the keys they hold. */
async function readBuffer(output: TaskOutput, id: string): Promise<{ pages: number; keys: bigint[] }> {
  const result = await output.buffer.get(id, 0, ALL);
  const keys = result.pages.flatMap((p) => Array.from({ length: p.rowCount }, (_, row) => getScalar(p.page.columns[0], row) as bigint));
  return { pages: result.pages.length, keys };
}

describe('TaskOutput batches (REPARTITION, REPLICATE)', () => {
  it('sends a partition its pieces gathered into pages, each key to one partition, every row once', async () => {
    const output = new TaskOutput({ type: 'PARTITIONED', partitions: 2, partitionChannels: [0] }, [BIGINT], {});
    const pieceRows = 1000;
    const pieces = 40; // 40,000 rows: 80 pieces over two partitions, unbatched
    for (let i = 0; i < pieces; i++) await output.add(keysPage(i * pieceRows, pieceRows));
    output.finish();
    const [first, second] = [await readBuffer(output, '0'), await readBuffer(output, '1')];

    const all = [...first.keys, ...second.keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(all).to.deep.equal(Array.from({ length: pieces * pieceRows }, (_, i) => BigInt(i)));
    const inFirst = new Set(first.keys);
    expect(second.keys.some((k) => inFirst.has(k))).to.equal(false);
    // About 20,000 rows each: a page per PARTITION_BATCH_ROWS and the rest at the end (two each), not 40 each.
    for (const buffer of [first, second]) expect(buffer.pages).to.be.at.most(Math.ceil(buffer.keys.length / PARTITION_BATCH_ROWS) + 1);
    expect(output.rows).to.equal(pieces * pieceRows);
  });

  it('sends every consumer of a replicated output all rows, its small pages gathered', async () => {
    const output = new TaskOutput({ type: 'BROADCAST', partitions: 2 }, [BIGINT], {});
    for (let i = 0; i < 40; i++) await output.add(keysPage(i * 1000, 1000));
    output.finish();
    for (const id of ['0', '1']) {
      const { pages, keys } = await readBuffer(output, id);
      expect(keys).to.deep.equal(Array.from({ length: 40_000 }, (_, i) => BigInt(i)));
      expect(pages).to.be.at.most(Math.ceil(40_000 / PARTITION_BATCH_ROWS) + 1);
    }
  });

  it('keeps the same partition for a key whichever page it comes in, as the consumers of other producers expect', async () => {
    const a = new TaskOutput({ type: 'PARTITIONED', partitions: 3, partitionChannels: [0] }, [BIGINT], {});
    const b = new TaskOutput({ type: 'PARTITIONED', partitions: 3, partitionChannels: [0] }, [BIGINT], {});
    await a.add(keysPage(0, 5000));
    for (let i = 0; i < 50; i++) await b.add(keysPage(i * 100, 100));
    a.finish();
    b.finish();
    for (const id of ['0', '1', '2']) {
      const fromA = new Set((await readBuffer(a, id)).keys);
      const fromB = (await readBuffer(b, id)).keys;
      expect(fromB.length).to.equal(fromA.size);
      expect(fromB.every((k) => fromA.has(k))).to.equal(true);
    }
  });

  it('splits a page longer than a slice (string and NULL keys) as it splits the same rows in small pages', async () => {
    const rows = 3 * SLICE_ROWS + 123;
    const key = (i: number) => (i % 7 === 0 ? null : `k${i % 5000}`);
    const page = (first: number, count: number): Page => ({
      rowCount: count,
      columns: [
        columnFromScalars(
          VARCHAR,
          Array.from({ length: count }, (_, i) => key(first + i)),
        ),
        columnFromScalars(
          BIGINT,
          Array.from({ length: count }, (_, i) => BigInt(first + i)),
        ),
      ],
    });
    const spec: OutputBuffersSpec = { type: 'PARTITIONED', partitions: 3, partitionChannels: [0] };
    const long = new TaskOutput(spec, [VARCHAR, BIGINT], {});
    const small = new TaskOutput(spec, [VARCHAR, BIGINT], {});
    await long.add(page(0, rows));
    for (let first = 0; first < rows; first += 100) await small.add(page(first, Math.min(100, rows - first)));
    long.finish();
    small.finish();
    const seen: bigint[] = [];
    for (const id of ['0', '1', '2']) {
      const rowsOf = async (output: TaskOutput) =>
        (await output.buffer.get(id, 0, ALL)).pages
          .flatMap((p) => Array.from({ length: p.rowCount }, (_, row) => getScalar(p.page.columns[1], row) as bigint))
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const fromLong = await rowsOf(long);
      expect(fromLong).to.deep.equal(await rowsOf(small));
      seen.push(...fromLong);
    }
    expect(seen.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).to.deep.equal(Array.from({ length: rows }, (_, i) => BigInt(i)));
  });

  it("counts the rows a partition holds back in the task's memory until they go into the buffer", async () => {
    const memory = new MemoryContext('task', 1 << 30);
    const output = new TaskOutput({ type: 'PARTITIONED', partitions: 2, partitionChannels: [0] }, [BIGINT], { memory });
    const page = keysPage(0, 1000);
    await output.add(page);
    expect(output.buffer.bufferedBytes).to.equal(0);
    const held = memory.reservedBytes;
    // Both partitions' pieces of the page, held back: about the page's own bytes.
    expect(held).to.be.above(estimatedPageBytes(page) / 2);
    output.finish();
    expect(memory.reservedBytes).to.equal(output.buffer.bufferedBytes);
  });

  it('fails the producer when the rows it holds back go over the memory limit', async () => {
    const memory = new MemoryContext('task', 4096);
    const output = new TaskOutput({ type: 'BROADCAST', partitions: 2 }, [BIGINT], { memory });
    let error: unknown;
    try {
      await output.add(keysPage(0, 1000));
    } catch (e) {
      error = e;
    }
    expect(error).to.have.property('errorName', 'EXCEEDED_LOCAL_MEMORY_LIMIT');
  });
});
