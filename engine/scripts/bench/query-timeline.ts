// A finished query's stages as a timeline, from the coordinator's GET /v1/query/{queryId}: per task
// its node, when it was created and ended (ms after the query was created), its splits, CPU,
// blocked time and rows in and out; per exchange (a RemoteSource read by a stage's tasks) the rows,
// bytes and HTTP requests that crossed it, and when each producer's last page came; per SOURCE stage
// of several tasks the spread of their end times (the last task holds up the stages above it).
// Counts of rows, bytes and requests do not depend on the machine's load, times do.
//
//   node engine/dist/scripts/bench/query-timeline.js <coordinator url> <query id> [user]

import { pathToFileURL } from 'node:url';
import { parseDataSize } from '../../src/config/data-size.js';
import { parseDuration } from '../../src/config/duration.js';

/** The parts of GET /v1/query/{queryId} read here. */
export interface QueryInfoJson {
  queryId: string;
  queryStats: { createTime: string; endTime?: string; analysisTime?: string };
  outputStage?: StageJson;
}

interface StageJson {
  tasks: TaskJson[];
  subStages: StageJson[];
}

interface TaskJson {
  taskId: string;
  nodeId?: string;
  stats: {
    createTime: string;
    endTime?: string;
    totalCpuTime: string;
    totalBlockedTime: string;
    rawInputPositions: number;
    outputPositions: number;
    totalSplits: number;
    pipelines: { operatorSummaries: OperatorJson[] }[];
  };
}

interface OperatorJson {
  operatorType: string;
  planNodeId: string;
  inputPositions: number;
  inputDataSize: string;
  info?: { pageBufferClientStatuses?: { uri: string; requestsCompleted: number; lastUpdate: string }[] };
}

/** What crossed one exchange into one stage, summed over the stage's tasks. */
export interface ExchangeFigures {
  stage: string;
  planNodeId: string;
  rows: number;
  bytes: number;
  requests: number;
  /** Producer buffers read (one per producing task and consumer task). */
  clients: number;
}

const EXCHANGE_OPERATORS = new Set(['ExchangeClient', 'MergingExchangeClient']);

/** Every exchange of the query, in stage order. */
export function exchangeFigures(info: QueryInfoJson): ExchangeFigures[] {
  const figures = new Map<string, ExchangeFigures>();
  for (const stage of stages(info)) {
    for (const task of stage.tasks) {
      const stageId = stageIdOf(task.taskId);
      for (const operator of task.stats.pipelines.flatMap((p) => p.operatorSummaries)) {
        if (!EXCHANGE_OPERATORS.has(operator.operatorType)) continue;
        const key = `${stageId}/${operator.planNodeId}`;
        const entry = figures.get(key) ?? { stage: stageId, planNodeId: operator.planNodeId, rows: 0, bytes: 0, requests: 0, clients: 0 };
        const clients = operator.info?.pageBufferClientStatuses ?? [];
        entry.rows += operator.inputPositions;
        entry.bytes += parseDataSize(operator.inputDataSize) ?? 0;
        entry.requests += clients.reduce((sum, c) => sum + c.requestsCompleted, 0);
        entry.clients += clients.length;
        figures.set(key, entry);
      }
    }
  }
  return [...figures.values()];
}

/** The timeline as lines of text (see the file's comment). */
export function queryTimeline(info: QueryInfoJson): string[] {
  const created = Date.parse(info.queryStats.createTime);
  const at = (time: string | undefined) => (time === undefined ? '-' : String(Date.parse(time) - created));
  const lines = [`${info.queryId}: ended at ${at(info.queryStats.endTime)} ms, analysis ${info.queryStats.analysisTime ?? '-'}`];
  const visit = (stage: StageJson, depth: number): void => {
    const indent = '  '.repeat(depth);
    for (const task of stage.tasks) {
      const s = task.stats;
      lines.push(
        `${indent}task ${shortTaskId(task.taskId)} on ${task.nodeId ?? 'coordinator'}: created ${at(s.createTime)}, ended ${at(s.endTime)}, ` +
          `${s.totalSplits} splits, cpu ${millis(s.totalCpuTime)} ms, blocked ${millis(s.totalBlockedTime)} ms, rows in ${s.rawInputPositions} out ${s.outputPositions}`,
      );
      for (const operator of s.pipelines.flatMap((p) => p.operatorSummaries)) {
        for (const client of operator.info?.pageBufferClientStatuses ?? [])
          lines.push(`${indent}  <- ${producerOf(client.uri)}: ${client.requestsCompleted} requests, last at ${at(client.lastUpdate)}`);
      }
    }
    const ends = stage.tasks
      .filter((t) => t.stats.totalSplits > 0 && t.stats.endTime !== undefined)
      .map((t) => Date.parse(t.stats.endTime!));
    if (ends.length > 1) lines.push(`${indent}  source tasks ended ${Math.max(...ends) - Math.min(...ends)} ms apart`);
    for (const sub of stage.subStages) visit(sub, depth + 1);
  };
  if (info.outputStage !== undefined) visit(info.outputStage, 0);
  for (const e of exchangeFigures(info))
    lines.push(
      `exchange into stage ${e.stage} (node ${e.planNodeId}): ${e.rows} rows, ${e.bytes} bytes, ${e.requests} requests over ${e.clients} buffers`,
    );
  return lines;
}

function stages(info: QueryInfoJson): StageJson[] {
  const out: StageJson[] = [];
  const visit = (stage: StageJson): void => {
    out.push(stage);
    stage.subStages.forEach(visit);
  };
  if (info.outputStage !== undefined) visit(info.outputStage);
  return out;
}

/** `20261128_081946_00010_vmmya.3.1` → `3`. */
function stageIdOf(taskId: string): string {
  return taskId.split('.').at(-2) ?? taskId;
}

/** `.../v1/task/{query}.{stage}.{task}/results/{buffer}` → `stage.task`. */
function producerOf(uri: string): string {
  return `task ${shortTaskId(/\/v1\/task\/([^/]+)\//.exec(uri)?.[1] ?? uri)}`;
}

/** `20261128_081946_00010_vmmya.3.1` → `3.1` (stage.task: the query's id is the timeline's first line). */
function shortTaskId(taskId: string): string {
  return taskId.split('.').slice(1).join('.');
}

function millis(duration: string): string {
  return (parseDuration(duration) ?? Number.NaN).toFixed(0);
}

async function main(): Promise<void> {
  const [url, queryId, user = 'bench'] = process.argv.slice(2);
  if (url === undefined || queryId === undefined) {
    console.error('usage: query-timeline <coordinator url> <query id> [user]');
    process.exitCode = 2;
    return;
  }
  const response = await fetch(`${url}/v1/query/${encodeURIComponent(queryId)}`, { headers: { 'X-Engine-User': user } });
  if (!response.ok) throw new Error(`GET /v1/query/${queryId}: HTTP ${response.status} ${await response.text()}`);
  for (const line of queryTimeline((await response.json()) as QueryInfoJson)) console.log(line);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
