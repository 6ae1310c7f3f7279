// An operator's figures as the task resource writes them (INTERFACE.md, operator summary), and back:
// durations and sizes as airlift writes them. Per-operator user time is not measured (Node has no
// per-thread clock to split user from system time): the *User fields are zero (docs/statistics.md).

import { formatDataSize, parseDataSize } from '../../config/data-size.js';
import { formatDuration, parseDuration } from '../../config/duration.js';
import type { OperatorFigures, OperatorRecorder, PhaseFigures } from './operator-recorder.js';

export interface OperatorSummary {
  operatorId: number;
  planNodeId: string;
  operatorType: string;
  addInputCalls: number;
  getOutputCalls: number;
  finishCalls: number;
  addInputWall: string;
  addInputCpu: string;
  addInputUser: string;
  getOutputWall: string;
  getOutputCpu: string;
  getOutputUser: string;
  blockedWall: string;
  finishWall: string;
  finishCpu: string;
  finishUser: string;
  inputDataSize: string;
  outputDataSize: string;
  memoryReservation: string;
  peakUserMemoryReservation: string;
  inputPositions: number;
  outputPositions: number;
  /** A scan's connector metrics by name (Trino's connectorMetrics, as plain counts). */
  connectorMetrics?: Record<string, number>;
  info?: object;
}

const NOT_MEASURED = formatDuration(0);

export function operatorSummary(operatorId: number, recorder: OperatorRecorder, info?: object): OperatorSummary {
  const f = recorder.figures;
  return {
    operatorId,
    planNodeId: String(f.planNodeId),
    operatorType: f.operatorType,
    addInputCalls: f.addInput.calls,
    getOutputCalls: f.getOutput.calls,
    finishCalls: f.finish.calls,
    addInputWall: formatDuration(f.addInput.wallMillis),
    addInputCpu: formatDuration(f.addInput.cpuMillis),
    addInputUser: NOT_MEASURED,
    getOutputWall: formatDuration(f.getOutput.wallMillis),
    getOutputCpu: formatDuration(f.getOutput.cpuMillis),
    getOutputUser: NOT_MEASURED,
    blockedWall: formatDuration(f.blockedWallMillis),
    finishWall: formatDuration(f.finish.wallMillis),
    finishCpu: formatDuration(f.finish.cpuMillis),
    finishUser: NOT_MEASURED,
    inputDataSize: formatDataSize(f.inputBytes),
    outputDataSize: formatDataSize(f.outputBytes),
    memoryReservation: formatDataSize(recorder.memory.reservedBytes),
    peakUserMemoryReservation: formatDataSize(recorder.memory.peakBytes),
    inputPositions: f.inputPositions,
    outputPositions: f.outputPositions,
    ...(Object.keys(f.connectorMetrics).length === 0 ? {} : { connectorMetrics: { ...f.connectorMetrics } }),
    ...(info === undefined ? {} : { info }),
  };
}

/** The figures of a summary another task wrote (for EXPLAIN ANALYZE); what it does not carry (output pages) is zero. */
export function summaryFigures(summary: OperatorSummary): OperatorFigures {
  const millis = (duration: string) => parseDuration(duration) ?? 0;
  const phase = (calls: number, wall: string, cpu: string): PhaseFigures => ({ calls, wallMillis: millis(wall), cpuMillis: millis(cpu) });
  return {
    planNodeId: Number(summary.planNodeId),
    operatorType: summary.operatorType,
    addInput: phase(summary.addInputCalls, summary.addInputWall, summary.addInputCpu),
    getOutput: phase(summary.getOutputCalls, summary.getOutputWall, summary.getOutputCpu),
    finish: phase(summary.finishCalls, summary.finishWall, summary.finishCpu),
    blockedWallMillis: millis(summary.blockedWall),
    inputPositions: summary.inputPositions,
    inputBytes: parseDataSize(summary.inputDataSize) ?? 0,
    outputPages: 0,
    outputPositions: summary.outputPositions,
    outputBytes: parseDataSize(summary.outputDataSize) ?? 0,
    connectorMetrics: { ...(summary.connectorMetrics ?? {}) },
  };
}
