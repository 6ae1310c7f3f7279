// Exchange throughput on a real cluster: a query whose plan hash-repartitions almost every row of
// lineitem (a GROUP BY on nearly unique keys: the partial aggregation cannot shrink the rows, so each
// source task sends ~all it scans to the task owning its hash), run on the coordinator. EXPLAIN
// names the fragment whose output is `HASH`-partitioned; the query detail (GET /v1/query/{id}) gives
// its tasks' output bytes (Arrow IPC as sent) and rows and their start and end. The figures are
// those over the stage's wall time, which includes generating the rows in the source tasks: the rate
// the repartition sustained in a real query, not the codec's ceiling (bench/exchange-throughput.ts
// measures that in one process).

import { parseDataSize } from '../../src/config/data-size.js';
import { parseDuration } from '../../src/config/duration.js';
import type { StatementOutcome } from '../sqllogictest/statement-client.js';
import { median } from './statistics.js';

export interface RepartitionThroughput {
  sql: string;
  /** The measured run's query (the run with the median wall time of the repartitioning stage). */
  queryId: string;
  runs: number;
  /** The fragments whose output is HASH-partitioned (their stages' outputs are summed). */
  fragmentIds: number[];
  tasks: number;
  rows: number;
  bytes: number;
  /** First task start to last task end of the repartitioning stage(s). */
  stageWallMillis: number;
  /** CPU of the repartitioning stage's tasks, summed. */
  stageCpuMillis: number;
  queryElapsedMillis: number;
  megabytesPerSecond: number;
  rowsPerSecond: number;
}

interface TaskDetail {
  taskId: string;
  stats: { outputDataSize: string; outputPositions: number; totalCpuTime: string; startTime?: string; endTime?: string };
}

interface StageDetail {
  stageId: string;
  tasks: TaskDetail[];
  subStages: StageDetail[];
}

interface QueryDetail {
  queryStats: { elapsedTime: string };
  outputStage?: StageDetail;
}

export function repartitionQuery(schema: string): string {
  return `SELECT count(*) FROM (SELECT l_orderkey, l_partkey, l_suppkey FROM tpch."${schema}".lineitem GROUP BY l_orderkey, l_partkey, l_suppkey)`;
}

/**
 * Runs the repartition query `runs` times on the coordinator through `execute` and reads the stage
 * figures of each from `coordinatorUrl`'s query detail as `user`; returns the median run's.
 */
export async function measureRepartition(
  coordinatorUrl: string,
  user: string,
  schema: string,
  runs: number,
  execute: (sql: string) => Promise<StatementOutcome>,
): Promise<RepartitionThroughput> {
  const sql = repartitionQuery(schema);
  const plan = (await execute(`EXPLAIN ${sql}`)).rows.map((r) => String(r[0])).join('\n');
  const fragmentIds = hashPartitionedFragments(plan);
  if (fragmentIds.length === 0) throw new Error(`the plan has no HASH-partitioned fragment:\n${plan}`);
  const measured: RepartitionThroughput[] = [];
  for (let i = 0; i < runs; i++) {
    const outcome = await execute(sql);
    if (outcome.queryId === undefined) throw new Error('the statement response had no query id');
    const detail = await queryDetail(coordinatorUrl, user, outcome.queryId);
    measured.push(stageFigures(sql, outcome.queryId, runs, fragmentIds, detail));
  }
  const middle = median(measured.map((m) => m.stageWallMillis));
  return measured.reduce((best, m) => (Math.abs(m.stageWallMillis - middle) < Math.abs(best.stageWallMillis - middle) ? m : best));
}

/** The ids of the fragments EXPLAIN prints with `Output partitioning: HASH [...]`. */
export function hashPartitionedFragments(plan: string): number[] {
  const ids: number[] = [];
  for (const section of plan.split(/^(?=Fragment \d+ )/m)) {
    const id = /^Fragment (\d+) /.exec(section);
    if (id && /^\s*Output partitioning: HASH\b/m.test(section)) ids.push(Number(id[1]));
  }
  return ids;
}

async function queryDetail(coordinatorUrl: string, user: string, queryId: string): Promise<QueryDetail> {
  const response = await fetch(new URL(`/v1/query/${encodeURIComponent(queryId)}`, coordinatorUrl), { headers: { 'X-Engine-User': user } });
  if (!response.ok) throw new Error(`GET /v1/query/${queryId}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as QueryDetail;
}

function stageFigures(sql: string, queryId: string, runs: number, fragmentIds: number[], detail: QueryDetail): RepartitionThroughput {
  const stageIds = new Set(fragmentIds.map((id) => `${queryId}.${id}`));
  const tasks: TaskDetail[] = [];
  const visit = (stage: StageDetail) => {
    if (stageIds.has(stage.stageId)) tasks.push(...stage.tasks);
    stage.subStages.forEach(visit);
  };
  if (detail.outputStage) visit(detail.outputStage);
  if (tasks.length === 0) throw new Error(`query ${queryId}: no tasks of stages ${[...stageIds].join(', ')} in its detail`);
  const times = (pick: (t: TaskDetail) => string | undefined) =>
    tasks
      .map(pick)
      .filter((t): t is string => t !== undefined)
      .map((t) => Date.parse(t));
  const starts = times((t) => t.stats.startTime);
  const ends = times((t) => t.stats.endTime);
  if (starts.length === 0 || ends.length < tasks.length)
    throw new Error(`query ${queryId}: the repartitioning tasks have no start or end time`);
  const stageWallMillis = Math.max(1, Math.max(...ends) - Math.min(...starts));
  const bytes = tasks.reduce((sum, t) => sum + (parseDataSize(t.stats.outputDataSize) ?? 0), 0);
  const rows = tasks.reduce((sum, t) => sum + t.stats.outputPositions, 0);
  return {
    sql,
    queryId,
    runs,
    fragmentIds,
    tasks: tasks.length,
    rows,
    bytes,
    stageWallMillis,
    stageCpuMillis: tasks.reduce((sum, t) => sum + (parseDuration(t.stats.totalCpuTime) ?? 0), 0),
    queryElapsedMillis: parseDuration(detail.queryStats.elapsedTime) ?? NaN,
    megabytesPerSecond: bytes / 2 ** 20 / (stageWallMillis / 1000),
    rowsPerSecond: rows / (stageWallMillis / 1000),
  };
}

export function printRepartition(figures: RepartitionThroughput): void {
  const mb = (figures.bytes / 2 ** 20).toFixed(1);
  console.log(
    `\nrepartition throughput (fragment ${figures.fragmentIds.join(', ')} -> HASH, ${figures.tasks} tasks; median of ${figures.runs} runs, query ${figures.queryId})`,
  );
  console.log(`  ${figures.sql}`);
  console.log(
    `  moved ${figures.rows.toLocaleString('en-US')} rows, ${mb} MB in ${(figures.stageWallMillis / 1000).toFixed(2)} s of the stage (query ${(figures.queryElapsedMillis / 1000).toFixed(2)} s, stage CPU ${(figures.stageCpuMillis / 1000).toFixed(2)} s)`,
  );
  console.log(
    `  ${figures.megabytesPerSecond.toFixed(1)} MB/s, ${Math.round(figures.rowsPerSecond).toLocaleString('en-US')} rows/s (the stage's wall time includes generating lineitem)`,
  );
}
