// What the operators of one pipeline add up to, for the task (or root stage) that runs it.

import type { OperatorRecorder } from './operator-recorder.js';

export interface PipelineTotals {
  cpuMillis: number;
  blockedMillis: number;
  /** What its sources (the operators that take no pages from another) read: connector rows, exchanged pages. */
  sourceRows: number;
  sourceBytes: number;
}

export function pipelineTotals(operators: readonly OperatorRecorder[]): PipelineTotals {
  const totals: PipelineTotals = { cpuMillis: 0, blockedMillis: 0, sourceRows: 0, sourceBytes: 0 };
  for (const { figures: f } of operators) {
    totals.cpuMillis += f.addInput.cpuMillis + f.getOutput.cpuMillis + f.finish.cpuMillis;
    totals.blockedMillis += f.blockedWallMillis;
    if (f.addInput.calls === 0 && f.finish.calls === 0) {
      totals.sourceRows += f.inputPositions;
      totals.sourceBytes += f.inputBytes;
    }
  }
  return totals;
}
