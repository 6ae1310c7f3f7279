// Runs a query on a server and gathers every figure the server publishes about its memory: the
// statement stats, the query detail (and the peaks of its tasks in the stage tree), and the
// `query completed` log line.

import { expect } from 'chai';
import { formatDataSize, parseDataSize } from '../../src/config/data-size.js';
import type { LogLine, ServerProcess } from './server-process.js';
import { getJson, runStatement } from './statement-http.js';

export interface QueryMemoryFigures {
  statementPeakBytes: number;
  peakUserMemoryBytes: number;
  peakTotalMemoryBytes: number;
  peakTaskMemoryBytes: number;
  userMemoryBytes: number;
  loggedPeakBytes: number;
  /** The largest peakMemoryReservation among the query's tasks in its stage tree. */
  largestTaskPeakBytes: number;
  taskCount: number;
}

interface StageJson {
  tasks: { stats: { peakMemoryReservation: string } }[];
  subStages: StageJson[];
}

const bytes = (size: string): number => parseDataSize(size) ?? Number.NaN;

/** The sizes the engine writes round to two decimals: compare `exact` at that precision. */
export const asWritten = (exact: number): number => bytes(formatDataSize(exact));

export async function queryMemoryFigures(coordinator: ServerProcess, sql: string): Promise<QueryMemoryFigures> {
  const headers = { 'X-Engine-User': 'memory-test' };
  const run = await runStatement(coordinator.uri, sql, headers);
  expect(run.final.error, run.final.error?.message).to.equal(undefined);
  const queryId = run.final.id;
  const detail = await getJson<{ queryStats: Record<string, string>; outputStage: StageJson }>(`${coordinator.uri}/v1/query/${queryId}`, {
    headers,
  });
  const stages = (stage: StageJson): StageJson[] => [stage, ...stage.subStages.flatMap(stages)];
  const tasks = stages(detail.body.outputStage).flatMap((s) => s.tasks);
  const logged = await logLine(coordinator, queryId);
  const stats = detail.body.queryStats;
  return {
    statementPeakBytes: run.final.stats.peakMemoryBytes as number,
    peakUserMemoryBytes: bytes(stats.peakUserMemoryReservation),
    peakTotalMemoryBytes: bytes(stats.peakTotalMemoryReservation),
    peakTaskMemoryBytes: bytes(stats.peakTaskUserMemory),
    userMemoryBytes: bytes(stats.userMemoryReservation),
    loggedPeakBytes: logged?.peakMemoryBytes as number,
    largestTaskPeakBytes: Math.max(...tasks.map((t) => bytes(t.stats.peakMemoryReservation))),
    taskCount: tasks.length,
  };
}

/** The `query completed` line of the query (the log comes through a pipe: it may lag the response a little). */
async function logLine(server: ServerProcess, queryId: string): Promise<LogLine | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const line = server.logs.find((l) => l.msg === 'query completed' && l.queryId === queryId);
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/** What every node must show for a query whose tasks held real memory. */
export function expectQueryPeakCoversItsTasks(figures: QueryMemoryFigures, floorBytes: number): void {
  const largest = figures.largestTaskPeakBytes;
  expect(largest, 'largest task peak').to.be.greaterThan(floorBytes);
  expect(figures.peakUserMemoryBytes, 'peakUserMemoryReservation').to.be.at.least(largest);
  expect(figures.peakTotalMemoryBytes, 'peakTotalMemoryReservation').to.be.at.least(largest);
  expect(figures.peakTaskMemoryBytes, 'peakTaskUserMemory').to.equal(largest);
  expect(asWritten(figures.statementPeakBytes), 'stats.peakMemoryBytes').to.be.at.least(largest);
  expect(asWritten(figures.loggedPeakBytes), 'query completed log line').to.be.at.least(largest);
  // Once the query is over it holds nothing anywhere.
  expect(figures.userMemoryBytes, 'userMemoryReservation after the end').to.equal(0);
}
