// The figures of `make bench`'s results, scaling and concurrency suites that are computed rather
// than timed: CPU profiles summed into top costs, /proc readings, and the suites' options.

import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeProfiles, topCostsByOwnCaller, topSelfCosts, type CpuProfile } from '../../scripts/bench/cpu-profile.js';
import { clusterWorkersText, parseBenchOptions } from '../../scripts/bench/options.js';
import { processUsage, usageBetween } from '../../scripts/bench/process-usage.js';

const frame = (functionName: string, line = 0) => ({
  functionName,
  url: functionName === '(idle)' ? '' : 'file:///x/engine/dist/src/server/a.js',
  lineNumber: line,
});

// Node 1 is the root, 2 encodes JSON, 3 is idle, 4 builds the text pool; deltas in microseconds.
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('encodePage', 9) },
    { id: 3, callFrame: frame('(idle)') },
    { id: 4, callFrame: frame('generateTextPoolBytes', 114) },
  ],
  samples: [2, 2, 3, 4, 2, 1],
  timeDeltas: [1000, 3000, 5000, 7000, 2000, 500],
};

describe('bench CPU profiles', () => {
  it('charge each sample its time delta, idle and left-out frames apart', () => {
    const summary = topSelfCosts(profile, 10, /^generateTextPoolBytes /);
    expect(summary.idleMillis).to.equal(5);
    expect(summary.leftOutMillis).to.equal(7);
    expect(summary.sampledMillis).to.equal(6.5);
    expect(summary.costs).to.deep.equal([
      { frame: 'encodePage (src/server/a.js:10)', selfMillis: 6, share: 6 / 6.5 },
      { frame: '(root) (src/server/a.js:1)', selfMillis: 0.5, share: 0.5 / 6.5 },
    ]);
    // Without a pattern to leave out, the text pool's 7 ms lead.
    expect(topSelfCosts(profile, 1).costs.map((c) => c.frame)).to.deep.equal(['generateTextPoolBytes (src/server/a.js:115)']);
  });

  it("charge a library's samples to the engine function that called it, and count from a time on", () => {
    // 1 root → 2 the engine's send → 3 a library's write → 4 Node's writev; 5 idle; 6 a library frame with no engine caller.
    const library = (functionName: string) => ({ functionName, url: 'file:///x/node_modules/undici/lib/a.js', lineNumber: 0 });
    const calls: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: 0 }, children: [2, 5, 6] },
        { id: 2, callFrame: frame('send', 4), children: [3] },
        { id: 3, callFrame: library('write'), children: [4] },
        { id: 4, callFrame: { functionName: 'writev', url: '', lineNumber: 0 } },
        { id: 5, callFrame: frame('(idle)') },
        { id: 6, callFrame: library('parse') },
      ],
      samples: [4, 3, 2, 5, 6, 4],
      timeDeltas: [1000, 2000, 3000, 4000, 500, 8000],
      startTime: 100_000,
    };
    const all = topCostsByOwnCaller(calls, 10, /\/dist\/src\//);
    expect(all.costs).to.deep.equal([{ frame: 'send (src/server/a.js:5)', selfMillis: 14, share: 14 / 14.5 }]);
    expect(all.unattributedMillis).to.equal(0.5);
    expect(all.sampledMillis).to.equal(14.5);
    // From 110 ms on (the clock of startTime): the last two samples, at 110.5 and 118.5 ms.
    expect(topCostsByOwnCaller(calls, 10, /\/dist\/src\//, 110_000).costs.map((c) => c.selfMillis)).to.deep.equal([8]);
    expect(topSelfCosts(calls, 10, undefined, 110_000).costs.map((c) => [c.frame, c.selfMillis])).to.deep.equal([
      ['writev', 8],
      ['parse (undici/lib/a.js:1)', 0.5],
    ]);
  });

  it('merge threads without mixing their nodes', () => {
    const other: CpuProfile = { nodes: [{ id: 1, callFrame: frame('scan', 4) }], samples: [1], timeDeltas: [4000] };
    const costs = topSelfCosts(mergeProfiles([profile, other]), 10).costs;
    expect(costs.map((c) => [c.frame, c.selfMillis])).to.deep.equal([
      ['generateTextPoolBytes (src/server/a.js:115)', 7],
      ['encodePage (src/server/a.js:10)', 6],
      ['scan (src/server/a.js:5)', 4],
      ['(root) (src/server/a.js:1)', 0.5],
    ]);
  });
});

describe('bench process usage', () => {
  it("reads this process's CPU time and the bytes it writes from /proc", () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-usage-'));
    try {
      const before = processUsage(process.pid);
      writeFileSync(join(dir, 'f'), Buffer.alloc(1 << 20));
      const used = usageBetween(before, processUsage(process.pid))!;
      expect(used.writtenBytes).to.be.at.least(1 << 20);
      expect(used.cpuMillis).to.be.at.least(0);
      expect(processUsage(undefined)).to.equal(undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts the pages it touches first and the times its threads wait', () => {
    const before = processUsage(process.pid);
    // 8 MB of fresh memory, every page written: at least a fault per 4 kB page not yet resident.
    new Uint8Array(8 << 20).fill(1);
    // A wait of the thread: a voluntary context switch.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    const used = usageBetween(before, processUsage(process.pid))!;
    expect(used.minorFaults).to.be.at.least(1000);
    expect(used.contextSwitches!.voluntary).to.be.at.least(1);
    expect(used.systemMillis).to.be.at.least(0).and.at.most(used.cpuMillis);
  });
});

describe('bench options of the results, scaling and concurrency suites', () => {
  it('stop scaling at sf1 unless asked for sf10, by --scaling-max or --scale 10', () => {
    expect(parseBenchOptions([]).scalingMax).to.equal(1);
    expect(parseBenchOptions(['--scale', '10']).scalingMax).to.equal(10);
    expect(parseBenchOptions(['--scaling-max', '10']).scalingMax).to.equal(10);
    expect(parseBenchOptions(['--scale', '10', '--scaling-max', '0.1']).scalingMax).to.equal(0.1);
  });

  it('run 8 clients for 60 s by default, and refuse what is not a positive count', () => {
    expect(parseBenchOptions([])).to.include({ concurrency: 8, concurrencySeconds: 60 });
    expect(parseBenchOptions(['--concurrency', '3', '--concurrency-seconds', '1.5'])).to.include({
      concurrency: 3,
      concurrencySeconds: 1.5,
    });
    expect(() => parseBenchOptions(['--concurrency', '0'])).to.throw("--concurrency must be a positive integer, got '0'");
    expect(() => parseBenchOptions(['--scaling-max', 'x'])).to.throw("--scaling-max must be a positive number, got 'x'");
  });

  it("give each cluster worker its share of the machine's cores as threads, unless told", () => {
    const cores = availableParallelism();
    expect(parseBenchOptions([]).clusterWorkerThreads).to.equal(Math.max(1, Math.floor(cores / 2)));
    expect(parseBenchOptions(['--cluster-workers', String(cores + 1)]).clusterWorkerThreads).to.equal(1);
    expect(parseBenchOptions(['--cluster-worker-threads', '3']).clusterWorkerThreads).to.equal(3);
    expect(() => parseBenchOptions(['--cluster-worker-threads', '0'])).to.throw(
      "--cluster-worker-threads must be a positive integer, got '0'",
    );
    expect(clusterWorkersText(parseBenchOptions(['--cluster-worker-threads', '1']))).to.equal('2 workers of 1 thread each');
    expect(clusterWorkersText(parseBenchOptions(['--cluster-workers', '3', '--cluster-worker-threads', '2']))).to.equal(
      '3 workers of 2 threads each',
    );
  });

  it('know the results and scaling suites, and run them by default', () => {
    expect(parseBenchOptions(['--suites', 'scaling,results']).suites).to.deep.equal(['results', 'scaling']);
    expect(parseBenchOptions([]).suites).to.include.members(['results', 'scaling']);
  });
});
