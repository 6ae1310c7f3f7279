// An operator's figures as a task's info carries them (INTERFACE.md, operator summary;
// internode/task-info.ts), and back. Per-operator user time is not measured (Node has no per-thread
// clock to split user from system time): the *User fields are zero (docs/statistics.md).

import type { OperatorSummary } from '../../internode/task-info.js';
import type { OperatorFigures, OperatorRecorder, PhaseFigures } from './operator-recorder.js';

const NOT_MEASURED = 0;

/** Where a summary's `info` carries the operator's adaptive decisions (EXPLAIN ANALYZE prints them). */
interface DecisionsInfo {
  adaptiveDecisions?: Record<string, string>;
}

export function operatorSummary(operatorId: number, recorder: OperatorRecorder, operatorInfo?: object): OperatorSummary {
  const f = recorder.figures;
  const info = f.decisions === undefined ? operatorInfo : { ...operatorInfo, adaptiveDecisions: { ...f.decisions } };
  return {
    operatorId,
    planNodeId: String(f.planNodeId),
    operatorType: f.operatorType,
    addInputCalls: f.addInput.calls,
    getOutputCalls: f.getOutput.calls,
    finishCalls: f.finish.calls,
    addInputWall: f.addInput.wallMillis,
    addInputCpu: f.addInput.cpuMillis,
    addInputUser: NOT_MEASURED,
    getOutputWall: f.getOutput.wallMillis,
    getOutputCpu: f.getOutput.cpuMillis,
    getOutputUser: NOT_MEASURED,
    blockedWall: f.blockedWallMillis,
    finishWall: f.finish.wallMillis,
    finishCpu: f.finish.cpuMillis,
    finishUser: NOT_MEASURED,
    inputDataSize: f.inputBytes,
    outputDataSize: f.outputBytes,
    memoryReservation: recorder.memory.reservedBytes,
    peakUserMemoryReservation: recorder.memory.peakBytes,
    inputPositions: f.inputPositions,
    outputPositions: f.outputPositions,
    ...(Object.keys(f.connectorMetrics).length === 0 ? {} : { connectorMetrics: { ...f.connectorMetrics } }),
    ...(info === undefined ? {} : { info }),
  };
}

/** The figures of a summary another task wrote (for EXPLAIN ANALYZE); what it does not carry (output pages) is zero. */
export function summaryFigures(summary: OperatorSummary): OperatorFigures {
  const phase = (calls: number, wallMillis: number, cpuMillis: number): PhaseFigures => ({ calls, wallMillis, cpuMillis });
  return {
    planNodeId: Number(summary.planNodeId),
    operatorType: summary.operatorType,
    addInput: phase(summary.addInputCalls, summary.addInputWall, summary.addInputCpu),
    getOutput: phase(summary.getOutputCalls, summary.getOutputWall, summary.getOutputCpu),
    finish: phase(summary.finishCalls, summary.finishWall, summary.finishCpu),
    blockedWallMillis: summary.blockedWall,
    inputPositions: summary.inputPositions,
    inputBytes: summary.inputDataSize,
    outputPages: 0,
    outputPositions: summary.outputPositions,
    outputBytes: summary.outputDataSize,
    connectorMetrics: { ...(summary.connectorMetrics ?? {}) },
    decisions: (summary.info as DecisionsInfo | undefined)?.adaptiveDecisions,
  };
}
