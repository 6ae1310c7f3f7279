// What one operator did, counted and timed where it runs. Operators are async generators that pull
// pages from their inputs and yield pages to their consumer, so Trino's three calls map onto the
// stretches of an operator's own code (see recorded-edge.ts, which marks them):
//   getOutput — from the consumer asking for a page until the operator asks its input for one or
//               yields (output it makes without new input: more groups, more join matches);
//   addInput  — from a page arriving from an input until the operator asks for the next or yields;
//   finish    — from an input reporting its end until the operator asks for more or yields (a sort
//               sorting, an aggregation making its first output page, a join building its table).
// Time spent inside an input (its operators' own stretches) is never the consumer's. Each stretch's
// wall time is its length; its CPU time is that wall time minus the waits the operator announces
// (blockedOn: turns of the event loop it gives away, pages from other nodes or worker threads, splits,
// room in an output buffer), which are its blocked time. Node cannot read one thread's CPU clock, so
// the CPU of synchronous work is taken as its wall time (docs/statistics.md).

import type { ConnectorMetrics } from '../../spi/connector.js';
import type { MemoryContext } from '../memory.js';
import type { BlockedTime } from '../../columnar/cooperative.js';
import { logLongTask, longTaskMillis } from '../../process/long-task-log.js';

export type OperatorPhase = 'addInput' | 'getOutput' | 'finish';

export interface PhaseFigures {
  calls: number;
  wallMillis: number;
  cpuMillis: number;
}

export interface OperatorFigures {
  planNodeId: number;
  /** The name of our operator's function or class (hashAggregation, ExchangeClient, TaskOutput, ...). */
  operatorType: string;
  addInput: PhaseFigures;
  getOutput: PhaseFigures;
  finish: PhaseFigures;
  blockedWallMillis: number;
  /** Pages and rows received from inputs; a source's rows and bytes read from its connector, exchange or worker threads. */
  inputPositions: number;
  inputBytes: number;
  outputPages: number;
  outputPositions: number;
  outputBytes: number;
  /** A scan's connector metrics (bytes read from storage, files, ...), summed over its splits. */
  connectorMetrics: Record<string, number>;
  /** What the operator chose in its physical node's adaptive decisions (sql/planner/physical), by decision name. */
  decisions?: Record<string, string>;
}

/** Adds `metrics` into `total`. */
export function addMetrics(total: Record<string, number>, metrics: ConnectorMetrics | undefined): void {
  if (metrics === undefined) return;
  for (const [name, value] of Object.entries(metrics)) total[name] = (total[name] ?? 0) + value;
}

/** The query's or task's CPU total, to which every operator's CPU is added as it accrues. */
export interface CpuTotal {
  cpuTimeMillis: number;
}

const newPhase = (): PhaseFigures => ({ calls: 0, wallMillis: 0, cpuMillis: 0 });

export class OperatorRecorder implements BlockedTime {
  readonly figures: OperatorFigures;
  private phase: OperatorPhase | undefined;
  /** Counts phases started, so that a wait is charged only to the stretch it happened in. */
  private stretch = 0;
  private stretchStart = 0;
  private stretchBlocked = 0;
  /** Where the stretch's current synchronous part started (its start, or its last announced wait's end). */
  private segmentStart = 0;
  /** The rows of the last page from an input, for the long-task log. */
  private lastInputRows = 0;

  constructor(
    planNodeId: number,
    /** The operator's own memory (a child of the task's): its reservations and their peak. */
    readonly memory: MemoryContext,
    private readonly cpuTotal: CpuTotal,
  ) {
    this.figures = {
      planNodeId,
      operatorType: '',
      addInput: newPhase(),
      getOutput: newPhase(),
      finish: newPhase(),
      blockedWallMillis: 0,
      inputPositions: 0,
      inputBytes: 0,
      outputPages: 0,
      outputPositions: 0,
      outputBytes: 0,
      connectorMetrics: {},
    };
  }

  /** Names the operator once the planner made it (some are chosen only when first read). */
  named(operatorType: string): void {
    this.figures.operatorType = operatorType;
    this.memory.tag = operatorType;
  }

  get isNamed(): boolean {
    return this.figures.operatorType !== '';
  }

  /** The operator's code runs from now on, in `phase` (one more call of it). */
  start(phase: OperatorPhase): void {
    this.stop();
    this.phase = phase;
    this.figures[phase].calls++;
    this.stretch++;
    this.stretchStart = performance.now();
    this.segmentStart = this.stretchStart;
    this.stretchBlocked = 0;
  }

  /** The operator's code stopped running: it asked an input for a page, or handed one out. */
  stop(): void {
    const phase = this.phase;
    if (phase === undefined) return;
    const now = performance.now();
    this.logIfLong(phase, now);
    this.phase = undefined;
    const wall = now - this.stretchStart;
    const cpu = Math.max(0, wall - this.stretchBlocked);
    const figures = this.figures[phase];
    figures.wallMillis += wall;
    figures.cpuMillis += cpu;
    this.figures.blockedWallMillis += this.stretchBlocked;
    this.cpuTotal.cpuTimeMillis += cpu;
  }

  async blockedOn<T>(wait: Promise<T>): Promise<T> {
    const stretch = this.stretch;
    const started = performance.now();
    if (this.phase !== undefined) this.logIfLong(this.phase, started);
    try {
      return await wait;
    } finally {
      if (this.phase !== undefined && this.stretch === stretch) {
        this.segmentStart = performance.now();
        this.stretchBlocked += this.segmentStart - started;
      }
    }
  }

  /** Logs the synchronous part of the stretch ending `now` when the long-task log is on and it was long. */
  private logIfLong(phase: OperatorPhase, now: number): void {
    if (longTaskMillis === undefined || now - this.segmentStart < longTaskMillis) return;
    const { operatorType, planNodeId } = this.figures;
    logLongTask(now - this.segmentStart, `${operatorType} ${phase} (plan node ${planNodeId}, last input page ${this.lastInputRows} rows)`);
  }

  /** A page from an input; for a source, what it read from outside the pipeline (a connector, other tasks, worker threads). */
  input(rows: number, bytes: number): void {
    this.lastInputRows = rows;
    this.figures.inputPositions += rows;
    this.figures.inputBytes += bytes;
  }

  /** Records what the operator chose in one of its physical node's adaptive decisions. */
  decide(decision: string, choice: string): void {
    (this.figures.decisions ??= {})[decision] = choice;
  }

  /** What a page source reported about reading a split. */
  connectorMetrics(metrics: ConnectorMetrics | undefined): void {
    addMetrics(this.figures.connectorMetrics, metrics);
  }

  output(rows: number, bytes: number): void {
    this.figures.outputPages++;
    this.figures.outputPositions += rows;
    this.figures.outputBytes += bytes;
  }

  /**
   * CPU time spent on the operator's output outside its calls: on its worker threads (measured there,
   * see busy-clock.ts), or decoding pages that arrived from other nodes. It counts as getOutput CPU.
   */
  addBackgroundCpu(millis: number): void {
    this.figures.getOutput.cpuMillis += millis;
    this.cpuTotal.cpuTimeMillis += millis;
  }
}

/** The operators of one pipeline (a task's fragment, or the root stage's), in the order they were made. */
export class OperatorRecorders {
  private readonly byNode = new Map<number, OperatorRecorder>();
  private readonly made: OperatorRecorder[] = [];

  constructor(
    private readonly memory: MemoryContext,
    private readonly cpuTotal: CpuTotal,
  ) {}

  /** The recorder of the operator planned for `planNodeId` (the same one each time a subquery is planned again). */
  of(planNodeId: number): OperatorRecorder {
    let recorder = this.byNode.get(planNodeId);
    if (recorder === undefined) {
      recorder = this.make(planNodeId);
      this.byNode.set(planNodeId, recorder);
    }
    return recorder;
  }

  /** An operator no plan node stands for alone, such as the task output after the fragment's root: named at once. */
  extra(planNodeId: number, operatorType: string): OperatorRecorder {
    const recorder = this.make(planNodeId);
    recorder.named(operatorType);
    return recorder;
  }

  /** The operators that ran (were named), in the order they were made: a consumer before its inputs. */
  all(): OperatorRecorder[] {
    return this.made.filter((r) => r.isNamed);
  }

  private make(planNodeId: number): OperatorRecorder {
    const recorder = new OperatorRecorder(planNodeId, this.memory.child(`operator ${planNodeId}`), this.cpuTotal);
    this.made.push(recorder);
    return recorder;
  }
}
