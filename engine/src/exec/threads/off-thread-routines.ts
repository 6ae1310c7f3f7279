// A filter or projection that calls a SQL routine with a loop runs in a worker thread, not on the
// task's main thread: a loop that never ends would hold the event loop there, so the node could not
// even receive the query's cancellation (a DELETE) and the routine ran on until its time limit. In a
// worker, the main thread stays free, and the routine's loop reads the query's shared cancel flag
// (routine-interrupts.ts), so a cancelled or failed query stops it within ROUNDS_PER_CHECK rounds.
//
// The input pages travel to one worker as splits of their own (read by PAGE_SPLIT_READER), in order,
// so the output keeps the input's order. The hand-offs are not the query's splits: they are kept out
// of its split counts and rows (the scan counted those), and only the worker's CPU time is added.

import type { PageSource } from '../../spi/connector.js';
import type { Page } from '../../columnar/page.js';
import { newQueryProgress } from '../../spi/query-progress.js';
import type { PreparedSplit, SplitReader } from '../../spi/worker-split.js';
import { children, type RowExpression } from '../../sql/planner/row-expression.js';
import type { RoutineStatement } from '../../sql/routines/routine.js';
import type { PageStream } from '../operators/operator.js';
import { decodePage, type EncodedPage, encodePage } from './page-transfer.js';
import { type ParallelEnvironment, parallelSource } from './parallel-source.js';
import type { FilterProjectStage } from './scan-pipeline.js';

export const PAGE_SPLIT_READER = 'page';

/** Opens a split that is one page handed over by the main thread. */
export const pageSplitReader: SplitReader = {
  open: (data) => onePage(decodePage(data as EncodedPage)),
};

async function* onePage(page: Page): AsyncGenerator<Page> {
  yield page;
}

/** Whether the stage calls a routine that loops (directly or through the routines it calls). */
export function callsLoopingRoutine(stage: FilterProjectStage): boolean {
  return [...(stage.filter === undefined ? [] : [stage.filter]), ...stage.projections].some(loops);
}

function loops(e: RowExpression): boolean {
  if (e.kind === 'routine' && e.routine.body.some(statementLoops)) return true;
  return children(e).some(loops);
}

function statementLoops(s: RoutineStatement): boolean {
  switch (s.kind) {
    case 'loop':
      return true;
    case 'block':
      return s.statements.some(statementLoops);
    case 'if':
      return loops(s.condition) || s.then.some(statementLoops) || s.otherwise.some(statementLoops);
    case 'declare':
      return s.value !== undefined && loops(s.value);
    case 'return':
    case 'set':
      return loops(s.value);
    case 'leave':
    case 'iterate':
      return false;
  }
}

/** filterAndProject's output, computed by one worker thread over `input`'s pages. */
export async function* filterAndProjectInThread(env: ParallelEnvironment, input: PageStream, stage: FilterProjectStage): PageStream {
  const progress = newQueryProgress();
  try {
    yield* parallelSource(
      { ...env, progress },
      { fragment: { columns: [], stages: [stage] }, splits: [], more: pageSplits(input), workers: 1 },
    );
  } finally {
    env.progress.cpuTimeMillis += progress.cpuTimeMillis;
  }
}

async function* pageSplits(input: PageStream): AsyncGenerator<PreparedSplit> {
  for await (const page of input) {
    const worker = { reader: PAGE_SPLIT_READER, data: encodePage(page).page };
    yield { ready: async () => {}, worker, local: (): PageSource => onePage(page) };
  }
}
