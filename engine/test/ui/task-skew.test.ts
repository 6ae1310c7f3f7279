// The stages tab marks a task far slower or larger than its siblings (issue 18): wall time or rows
// read over twice its stage's median, past a floor. The browser's own module, as built, on task
// objects as GET /v1/query/{queryId} writes them.

import { expect } from 'chai';

interface TaskLike {
  taskId: string;
  state: string;
  stats: Record<string, unknown>;
}

interface QueryStagesModule {
  taskFigures(stage: { stageId: string; state: string; tasks: TaskLike[]; subStages: unknown[] }, coordinator: string): unknown[];
  skewedTasks(tasks: unknown[]): Set<string>;
}

/** dist/test/ui -> dist/ui, the compiled browser code. */
const stages = (await import(new URL('../../ui/query-stages.js', import.meta.url).href)) as QueryStagesModule;

function task(n: number, elapsed: string, rows: number): TaskLike {
  return {
    taskId: `q.1.${n}`,
    state: 'FINISHED',
    stats: {
      elapsedTime: elapsed,
      totalCpuTime: '1.00ms',
      totalBlockedTime: '0.00ns',
      rawInputPositions: rows,
      rawInputDataSize: '1.00kB',
      outputPositions: 1,
      outputDataSize: '10B',
      memoryReservation: '0B',
      peakMemoryReservation: '1.00kB',
      totalSplits: 1,
      completedSplits: 1,
      runningSplits: 0,
      queuedSplits: 0,
    },
  };
}

const skewed = (tasks: TaskLike[]) => [
  ...stages.skewedTasks(stages.taskFigures({ stageId: 'q.1', state: 'FINISHED', tasks, subStages: [] }, 'coordinator')),
];

describe('skewed tasks of a stage', () => {
  it('marks the task that ran far longer than its siblings', () => {
    expect(skewed([task(0, '1.00s', 1000), task(1, '1.10s', 1000), task(2, '5.00s', 1000), task(3, '0.90s', 1000)])).to.deep.equal([
      'q.1.2',
    ]);
  });

  it('marks the task that read far more rows than its siblings', () => {
    expect(skewed([task(0, '1.00s', 50_000), task(1, '1.00s', 400_000), task(2, '1.00s', 60_000)])).to.deep.equal(['q.1.1']);
  });

  it('marks nothing among even tasks, tiny differences of tiny tasks, or a stage of one task', () => {
    expect(skewed([task(0, '1.00s', 1000), task(1, '1.20s', 1100)])).to.deep.equal([]);
    expect(skewed([task(0, '10.00ms', 10), task(1, '90.00ms', 900)])).to.deep.equal([]);
    expect(skewed([task(0, '9.00s', 9_000_000)])).to.deep.equal([]);
  });
});
