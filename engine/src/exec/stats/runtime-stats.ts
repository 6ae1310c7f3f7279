// EXPLAIN ANALYZE's figures per plan node: what the operators that ran the node did, in every task.

import type { NodeRuntimeStats } from '../../sql/planner/plan-printer.js';
import { addMetrics, type OperatorFigures } from './operator-recorder.js';

export function addRuntimeStats(stats: Map<number, NodeRuntimeStats>, figures: OperatorFigures): void {
  const entry = stats.get(figures.planNodeId) ?? {
    operatorTypes: [],
    inputRows: 0,
    outputRows: 0,
    cpuMillis: 0,
    wallMillis: 0,
    blockedMillis: 0,
    connectorMetrics: {},
  };
  if (!entry.operatorTypes.includes(figures.operatorType)) entry.operatorTypes.push(figures.operatorType);
  const phases = [figures.addInput, figures.getOutput, figures.finish];
  entry.inputRows += figures.inputPositions;
  entry.outputRows += figures.outputPositions;
  for (const phase of phases) {
    entry.cpuMillis += phase.cpuMillis;
    entry.wallMillis += phase.wallMillis;
  }
  entry.blockedMillis += figures.blockedWallMillis;
  addMetrics(entry.connectorMetrics, figures.connectorMetrics);
  for (const [decision, choice] of Object.entries(figures.decisions ?? {})) addChoice(entry, decision, choice);
  stats.set(figures.planNodeId, entry);
}

/** A decision's choices over the tasks that made it, each named once. */
function addChoice(entry: NodeRuntimeStats, decision: string, choice: string): void {
  const choices = (entry.decisions ??= {});
  const made = choices[decision];
  if (made === undefined) choices[decision] = choice;
  else if (!made.split('; ').includes(choice)) choices[decision] = `${made}; ${choice}`;
}
