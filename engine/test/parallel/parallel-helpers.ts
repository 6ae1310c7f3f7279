// Shared by the parallel execution tests: a memory table of several splits, running a statement
// with or without worker threads, comparing results, and holding a query open to interleave work.

import { expect } from 'chai';
import { MessageChannel } from 'node:worker_threads';
import { decodePage, encodePage, type EncodedPage } from '../../src/exec/threads/page-transfer.js';
import { MAX_SPLIT_ROWS } from '../../src/connectors/memory/memory-connector.js';
import { newQueryProgress, type QueryProgress } from '../../src/spi/query-progress.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { MemoryContext } from '../../src/exec/memory.js';
import { getScalar, type Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { resolveAggregateFunction } from '../../src/functions/aggregate/registry.js';
import type { ScanPipeline } from '../../src/exec/threads/scan-pipeline.js';
import { inputRef, type RowExpression } from '../../src/sql/planner/row-expression.js';
import { INTEGER, VARCHAR, type SqlType } from '../../src/types/types.js';

/** Session properties that keep every scan in the main thread. */
export const IN_MAIN_THREAD = { parallel_min_splits: '0' };
/** Session properties that send every scan that can go to worker threads there, even of one split. */
export const IN_WORKERS = { parallel_min_splits: '1' };

/** Makes `h` run scans of any number of splits on the threads, in the memory catalog's default schema. */
export function useThreadsOnMemory(h: EngineHarness): void {
  for (const [name, value] of Object.entries(IN_WORKERS)) h.session.properties.set(name, value);
  h.session.catalog = 'memory';
  h.session.schema = 'default';
}

/** Ten rows 0..9 (`CREATE TABLE digits AS ${DIGITS}`), and an id 0..999,999 made of six of them (SIX_DIGITS in FROM, ID in SELECT). */
export const DIGITS = 'SELECT * FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) t(x)';
export const ID = 'f.x * 100000 + a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x';
export const SIX_DIGITS = 'digits a, digits b, digits c, digits d, digits e, digits f';

/** Rows of `big`: a bit over three splits, so that several workers share a scan. */
export const BIG_ROWS = 200_000;

/**
 * Creates `digits` (0..9) and `big`: BIG_ROWS rows of varied types (ids 0..BIG_ROWS-1, NULLs in
 * `n`, strings, short and long decimals, doubles exact in any summation order, booleans, dates,
 * varbinary).
 */
export async function createBigTable(h: EngineHarness): Promise<void> {
  expect(BIG_ROWS).to.be.greaterThan(3 * MAX_SPLIT_ROWS);
  await h.run(
    'CREATE TABLE digits AS SELECT * FROM (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) t(x)',
    `CREATE TABLE big AS
     SELECT id, s, price, big_price, n, flag, dbl, day, bytes FROM (
       SELECT a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x + f.x * 100000 AS id,
              CAST(b.x AS varchar) || '-' || CAST(c.x AS varchar) AS s,
              CAST(d.x AS decimal(12,2)) / 4 AS price,
              CAST(c.x AS decimal(30,2)) + 123456789012345678901.25 AS big_price,
              IF(e.x = 3, NULL, a.x) AS n,
              e.x % 2 = 0 AS flag,
              CAST(a.x AS double) / 8 AS dbl,
              date_add('day', b.x * 10 + c.x, DATE '2020-01-01') AS day,
              to_utf8(CAST(d.x AS varchar)) AS bytes
       FROM digits a, digits b, digits c, digits d, digits e, (SELECT x FROM digits WHERE x < 2) f)`,
  );
}

/** Runs `sql` with extra session properties; returns its rows. */
export async function rowsWith(h: EngineHarness, sql: string, properties: Record<string, string>): Promise<Scalar[][]> {
  const saved = new Map(h.session.properties);
  for (const [k, v] of Object.entries(properties)) h.session.properties.set(k, v);
  try {
    return await h.rows(sql);
  } finally {
    h.session.properties.clear();
    for (const [k, v] of saved) h.session.properties.set(k, v);
  }
}

/** Rows in a canonical order, for comparing results of queries without ORDER BY. */
export function sortedRows(rows: Scalar[][]): Scalar[][] {
  const key = (row: Scalar[]) =>
    JSON.stringify(row, (_, v: unknown) =>
      typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
    );
  return rows
    .map((row) => ({ row, key: key(row) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.row);
}

/**
 * Runs `sql` in the main thread and on worker threads, checks the workers were used and the
 * results are the same (in order when the query orders them); returns the rows.
 */
export async function expectSameResults(h: EngineHarness, sql: string): Promise<Scalar[][]> {
  const local = await rowsWith(h, sql, IN_MAIN_THREAD);
  const before = sharedThreadPool().stats().tasksStarted;
  const parallel = await rowsWith(h, sql, IN_WORKERS);
  expect(sharedThreadPool().stats().tasksStarted, `${sql} ran on worker threads`).to.be.greaterThan(before);
  if (/\border by\b/i.test(sql)) expect(parallel).to.deep.equal(local);
  else expect(sortedRows(parallel)).to.deep.equal(sortedRows(local));
  return parallel;
}

/** The error a statement fails with. */
export async function errorOf(h: EngineHarness, sql: string, properties: Record<string, string>): Promise<EngineError> {
  try {
    await rowsWith(h, sql, properties);
  } catch (e) {
    expect(e).to.be.instanceOf(EngineError);
    return e as EngineError;
  }
  throw new Error(`expected ${sql} to fail`);
}

/** A query held open: its pages are read one at a time, it can be cancelled, its progress watched. */
export interface OpenQuery {
  next(): Promise<Page | undefined>;
  /** Stops reading (as LIMIT or a client going away does). */
  close(): Promise<void>;
  abort: AbortController;
  progress: QueryProgress;
}

export async function openQuery(h: EngineHarness, sql: string, properties: Record<string, string>): Promise<OpenQuery> {
  const abort = new AbortController();
  const progress = newQueryProgress();
  const memory = new MemoryContext('open query', 1 << 30);
  const session = { ...h.session, properties: new Map([...h.session.properties, ...Object.entries(properties)]) };
  const result = await h.executor.execute(sql, session, { signal: abort.signal, memory, progress });
  const iterator = result.pages[Symbol.asyncIterator]();
  return {
    abort,
    progress,
    next: async () => {
      const step = await iterator.next();
      return step.done ? undefined : step.value;
    },
    close: async () => {
      await iterator.return?.();
    },
  };
}

export function pageRows(page: Page): Scalar[][] {
  const rows: Scalar[][] = [];
  for (let r = 0; r < page.rowCount; r++) rows.push(page.columns.map((c) => getScalar(c, r)));
  return rows;
}

/** Resolves once the worker threads have no task running (the tasks of stopped queries wound down). */
export async function workersIdle(): Promise<void> {
  while (sharedThreadPool().stats().runningTasks > 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * The scan pipeline of `SELECT key, count(*), sum(n) FROM big WHERE filter GROUP BY key` over
 * `columns` (id, s, n), finished by the threads: a partial aggregation (given back when it does
 * not reduce, if `abandonable`) and the final step above it; `partialTypes`: the partial's output.
 */
export function countAndSumPipeline(
  columns: string[],
  filter: RowExpression,
  key: { channel: number; type: SqlType },
  abandonable: boolean,
): { fragment: ScanPipeline; partialTypes: SqlType[] } {
  const count = resolveAggregateFunction('count', []);
  const sum = resolveAggregateFunction('sum', [INTEGER]);
  const scanTypes: SqlType[] = [INTEGER, VARCHAR, INTEGER];
  const partialTypes: SqlType[] = [key.type, ...count.intermediateTypes, ...sum.intermediateTypes];
  const aggregates = (channels: number[][]) => [
    { function: { name: 'count', argumentTypes: [] }, argumentChannels: channels[0] },
    { function: { name: 'sum', argumentTypes: [INTEGER] }, argumentChannels: channels[1] },
  ];
  const fragment: ScanPipeline = {
    columns,
    stages: [
      { kind: 'filterProject', inputTypes: scanTypes, filter, projections: [inputRef(key.channel, key.type), inputRef(2, INTEGER)] },
    ],
    aggregation: { abandonable, inputTypes: [key.type, INTEGER], groupChannels: [0], aggregates: aggregates([[], [1]]) },
    finalAggregation: { step: 'final', inputTypes: partialTypes, groupChannels: [0], aggregates: aggregates([[1], [2]]) },
  };
  return { fragment, partialTypes };
}

/** Posts a page through a real message channel, as a worker thread does, and decodes what arrives. */
export async function roundTrip(page: Page): Promise<Page> {
  const { port1, port2 } = new MessageChannel();
  try {
    const arrived = new Promise<EncodedPage>((resolve) => port2.once('message', resolve));
    const encoded = encodePage(page);
    port1.postMessage(encoded.page, encoded.transfer);
    return decodePage(await arrived);
  } finally {
    port1.close();
    port2.close();
  }
}
