// Operators are counted and timed where they run: each page an operator receives is one addInput
// call, each request for output one getOutput call, each end of an input one finish call; each
// operator's time is its own (not that of the operators it reads from), and what it waits for is
// blocked time, not CPU.

import { expect } from 'chai';
import { MemoryContext } from '../../src/exec/memory.js';
import { hashAggregation } from '../../src/exec/operators/hash-aggregation.js';
import type { PageStream } from '../../src/exec/operators/operator.js';
import { OperatorRecorders, type OperatorRecorder } from '../../src/exec/stats/operator-recorder.js';
import { recordedEdge } from '../../src/exec/stats/recorded-edge.js';
import { resolveCalls } from '../aggregates/aggregate-helpers.js';
import { BIGINT } from '../../src/types/types.js';
import { collectPages, pagesOf } from '../operators/helpers.js';

/** Keeps the thread busy for `millis` (synchronous work, as an operator's). */
function busy(millis: number): void {
  const end = performance.now() + millis;
  while (performance.now() < end);
}

describe('operator statistics', () => {
  const signal = new AbortController().signal;
  const rows = Array.from({ length: 10 }, (_, i) => [BigInt(i % 3)]);
  const pages = pagesOf([BIGINT], rows, 4);

  const setup = () => {
    const cpu = { cpuTimeMillis: 0 };
    const recorders = new OperatorRecorders(new MemoryContext('task', 1 << 30), cpu);
    return { cpu, source: recorders.of(1), consumer: recorders.of(2) };
  };

  it('counts each page an operator receives, each request for its output and the end of its input', async () => {
    const { cpu, source, consumer } = setup();
    source.named('pages');
    consumer.named(hashAggregation.name);
    async function* sourcePages(): PageStream {
      yield* pages;
    }
    const input = recordedEdge(sourcePages(), source, consumer, signal);
    const spec = {
      inputTypes: [BIGINT],
      groupChannels: [0],
      aggregates: resolveCalls([BIGINT], [{ name: 'count', args: [] }]),
      step: 'single' as const,
    };
    const output = await collectPages(
      recordedEdge(
        hashAggregation({ memory: consumer.memory, signal, timeZone: 'UTC', stats: consumer }, input, spec),
        consumer,
        undefined,
        signal,
      ),
    );

    expect(pages.length).to.equal(3);
    expect(source.figures).to.deep.include({ outputPages: 3, outputPositions: 10 });
    expect(source.figures.getOutput.calls).to.equal(4);
    const f = consumer.figures;
    expect(f.addInput.calls).to.equal(3);
    expect(f.finish.calls).to.equal(1);
    expect(f.inputPositions).to.equal(10);
    expect(f.outputPages).to.equal(output.length);
    expect(f.outputPositions).to.equal(3);
    expect(f.getOutput.calls).to.equal(output.length + 1);
    // The aggregation's hash table was reserved in its own memory, and released.
    expect(consumer.memory.peakBytes).to.be.greaterThan(0);
    expect(consumer.memory.reservedBytes).to.equal(0);
    const phases = (r: OperatorRecorder) => r.figures.addInput.cpuMillis + r.figures.getOutput.cpuMillis + r.figures.finish.cpuMillis;
    expect(cpu.cpuTimeMillis).to.be.closeTo(phases(source) + phases(consumer), 1e-9);
  });

  it("times each operator's own work: neither includes the other's", async () => {
    const { source, consumer } = setup();
    async function* slowSource(): PageStream {
      for (const page of pages) {
        busy(20);
        yield page;
      }
    }
    async function* slowConsumer(input: PageStream): PageStream {
      for await (const page of input) {
        busy(20);
        yield page;
      }
    }
    const started = performance.now();
    await collectPages(recordedEdge(slowConsumer(recordedEdge(slowSource(), source, consumer, signal)), consumer, undefined, signal));
    const elapsed = performance.now() - started;
    const wall = (r: OperatorRecorder) => r.figures.addInput.wallMillis + r.figures.getOutput.wallMillis + r.figures.finish.wallMillis;
    expect(source.figures.getOutput.cpuMillis).to.be.at.least(60);
    expect(consumer.figures.addInput.cpuMillis).to.be.at.least(60);
    // Their stretches never overlap: together they fit in the time the whole took.
    expect(wall(source) + wall(consumer)).to.be.at.most(elapsed);
  });

  it('counts the waits an operator announces as blocked time, not CPU', async () => {
    const { source } = setup();
    async function* waitingSource(): PageStream {
      for (const page of pages) {
        await source.blockedOn(new Promise((resolve) => setTimeout(resolve, 30)));
        yield page;
      }
    }
    await collectPages(recordedEdge(waitingSource(), source, undefined, signal));
    const f = source.figures;
    // Three waits of 30 ms (a timer may fire a fraction of a millisecond early by this clock).
    const waited = 3 * 29;
    expect(f.blockedWallMillis).to.be.at.least(waited);
    expect(f.getOutput.wallMillis).to.be.at.least(waited);
    expect(f.getOutput.cpuMillis).to.be.at.most(f.getOutput.wallMillis - waited);
  });
});
