// What each plan node did, added up over every task of the query: the operators' summaries carry
// the id of the plan node they ran (the task output stands for no node of its own).

import type { QueryDetail } from './api-types.js';
import { durationMillis } from './format.js';
import { flattenStages } from './query-stages.js';

export interface PlanNodeFigures {
  outputRows: number;
  inputRows: number;
  cpuMillis: number;
  wallMillis: number;
  blockedMillis: number;
  operators: Set<string>;
}

export function planNodeFigures(detail: QueryDetail): Map<number, PlanNodeFigures> {
  const figures = new Map<number, PlanNodeFigures>();
  for (const stage of flattenStages(detail)) {
    for (const task of stage.tasks) {
      for (const op of (task.stats.pipelines ?? []).flatMap((p) => p.operatorSummaries)) {
        if (op.operatorType === 'TaskOutput') continue;
        const id = Number(op.planNodeId);
        let f = figures.get(id);
        if (f === undefined) figures.set(id, (f = { outputRows: 0, inputRows: 0, cpuMillis: 0, wallMillis: 0, blockedMillis: 0, operators: new Set() }));
        f.outputRows += op.outputPositions;
        f.inputRows += op.inputPositions;
        f.cpuMillis += durationMillis(op.addInputCpu) + durationMillis(op.getOutputCpu) + durationMillis(op.finishCpu);
        f.wallMillis += durationMillis(op.addInputWall) + durationMillis(op.getOutputWall) + durationMillis(op.finishWall);
        f.blockedMillis += durationMillis(op.blockedWall);
        f.operators.add(op.operatorType);
      }
    }
  }
  return figures;
}
