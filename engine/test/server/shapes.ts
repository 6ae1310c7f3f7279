// Assertions on the shapes INTERFACE.md gives: every listed field present with its type.

import { expect } from 'chai';

export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const DURATION = /^\d+\.\d{2}(ns|us|ms|s|m|h|d)$/;
export const DATA_SIZE = /^\d+(\.\d{2})?(B|kB|MB|GB|TB|PB)$/;
export const QUERY_ID = /^\d{8}_\d{6}_\d{5}_[a-z0-9]{5}$/;

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'timestamp' | 'duration' | 'size';

export function expectFields(value: unknown, fields: Record<string, Kind>, where: string): void {
  expect(value, where).to.be.an('object');
  const object = value as Record<string, unknown>;
  for (const [name, kind] of Object.entries(fields)) {
    const v = object[name];
    const label = `${where}.${name}`;
    switch (kind) {
      case 'integer':
        expect(Number.isInteger(v), `${label} = ${JSON.stringify(v)} is an integer`).to.equal(true);
        break;
      case 'array':
        expect(v, label).to.be.an('array');
        break;
      case 'timestamp':
        expect(v, label).to.be.a('string').and.match(ISO_TIMESTAMP);
        break;
      case 'duration':
        expect(v, label).to.be.a('string').and.match(DURATION);
        break;
      case 'size':
        expect(v, label).to.be.a('string').and.match(DATA_SIZE);
        break;
      default:
        expect(v, label).to.be.a(kind);
    }
  }
}

const STAGE_FIELDS = {
  stageId: 'string',
  state: 'string',
  done: 'boolean',
  nodes: 'integer',
  totalSplits: 'integer',
  queuedSplits: 'integer',
  runningSplits: 'integer',
  completedSplits: 'integer',
  cpuTimeMillis: 'integer',
  wallTimeMillis: 'integer',
  processedRows: 'integer',
  processedBytes: 'integer',
  subStages: 'array',
} as const;

export function expectStatementStats(stats: unknown): void {
  expectFields(
    stats,
    {
      state: 'string',
      queued: 'boolean',
      scheduled: 'boolean',
      nodes: 'integer',
      totalSplits: 'integer',
      queuedSplits: 'integer',
      runningSplits: 'integer',
      completedSplits: 'integer',
      cpuTimeMillis: 'integer',
      wallTimeMillis: 'integer',
      queuedTimeMillis: 'integer',
      elapsedTimeMillis: 'integer',
      planningTimeMillis: 'integer',
      processedRows: 'integer',
      processedBytes: 'integer',
      peakMemoryBytes: 'integer',
      progressPercentage: 'number',
      rootStage: 'object',
    },
    'stats',
  );
  const root = (stats as { rootStage: Record<string, unknown> }).rootStage;
  expectFields(root, STAGE_FIELDS, 'stats.rootStage');
  expect(root.stageId).to.equal('0');
}

export function expectTask(task: unknown, where: string): void {
  expectFields(
    task,
    {
      taskId: 'string',
      version: 'integer',
      state: 'string',
      self: 'string',
      lastHeartbeat: 'timestamp',
      outputBuffers: 'object',
      noMoreSplits: 'array',
      stats: 'object',
      failures: 'array',
      outputs: 'object',
    },
    where,
  );
  const t = task as Record<string, Record<string, unknown>>;
  expectFields(
    t.outputBuffers,
    { state: 'string', masterSequenceId: 'integer', pagesAdded: 'integer', buffers: 'array' },
    `${where}.outputBuffers`,
  );
  for (const buffer of t.outputBuffers!.buffers as unknown[]) {
    expectFields(
      buffer,
      { bufferId: 'string', finished: 'boolean', bufferedPages: 'integer', pagesSent: 'integer' },
      `${where}.outputBuffers.buffers[]`,
    );
  }
  expectFields(
    t.stats,
    {
      createTime: 'timestamp',
      elapsedTime: 'duration',
      queuedTime: 'duration',
      totalScheduledTime: 'duration',
      totalCpuTime: 'duration',
      totalBlockedTime: 'duration',
      totalDrivers: 'integer',
      queuedDrivers: 'integer',
      runningDrivers: 'integer',
      completedDrivers: 'integer',
      memoryReservation: 'size',
      rawInputDataSize: 'size',
      processedInputDataSize: 'size',
      outputDataSize: 'size',
      rawInputPositions: 'integer',
      processedInputPositions: 'integer',
      outputPositions: 'integer',
      pipelines: 'array',
    },
    `${where}.stats`,
  );
}

export function expectQueryStats(stats: unknown, finished: boolean): void {
  expectFields(
    stats,
    {
      createTime: 'timestamp',
      executionStartTime: 'timestamp',
      lastHeartbeat: 'timestamp',
      ...(finished ? { endTime: 'timestamp' as const } : {}),
      elapsedTime: 'duration',
      queuedTime: 'duration',
      analysisTime: 'duration',
      distributedPlanningTime: 'duration',
      totalScheduledTime: 'duration',
      totalCpuTime: 'duration',
      totalBlockedTime: 'duration',
      totalTasks: 'integer',
      runningTasks: 'integer',
      completedTasks: 'integer',
      totalDrivers: 'integer',
      queuedDrivers: 'integer',
      runningDrivers: 'integer',
      completedDrivers: 'integer',
      totalMemoryReservation: 'size',
      rawInputDataSize: 'size',
      processedInputDataSize: 'size',
      outputDataSize: 'size',
      rawInputPositions: 'integer',
      processedInputPositions: 'integer',
      outputPositions: 'integer',
    },
    'queryStats',
  );
}
