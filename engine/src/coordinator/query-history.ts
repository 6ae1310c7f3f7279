// The query history on disk (queryHistory.directory): every query that ends is written by the
// coordinator — its summary appended to index.jsonl, its detail (what GET /v1/query/{queryId}
// answered at its end, with its plan) to queries/<queryId>.json.gz — and read back when the
// coordinator starts, so the web interface, GET /v1/query/{queryId} and system.runtime.queries show
// the queries of earlier runs. Bounded by count, age and bytes (the oldest go first). Writes happen
// one at a time off the query's path; a write that fails is logged and the query is not kept.

import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import type { Logger } from '../log/logger.js';
import type { QuerySummary } from './query-summary.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Query ids as the coordinator makes them: the only names that become file names. */
const QUERY_ID = /^[0-9]{8}_[0-9]{6}_[0-9]{5}_[a-z0-9]{5}$/;
const INDEX = 'index.jsonl';

export interface QueryHistoryOptions {
  directory: string;
  maxCount: number;
  maxAgeMillis: number;
  maxBytes: number;
}

interface Entry {
  summary: QuerySummary;
  /** The detail file's size and the index line's. */
  bytes: number;
}

export class QueryHistory {
  /** Oldest first (by end time). */
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;
  /** Index lines of entries dropped since the index was last written whole. */
  private deadLines = 0;
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: QueryHistoryOptions,
    private readonly logger: Logger,
  ) {}

  /** Reads the history of earlier runs (creating the directory), drops what is past its bounds, and rewrites the index. */
  static async open(options: QueryHistoryOptions, logger: Logger): Promise<QueryHistory> {
    const history = new QueryHistory(options, logger);
    await mkdir(join(options.directory, 'queries'), { recursive: true });
    await history.load();
    history.prune();
    await history.rewriteIndex();
    logger.info({ directory: options.directory, queries: history.entries.size, bytes: history.totalBytes }, 'query history loaded');
    return history;
  }

  /** The kept queries, oldest first; those past maxAge are left out even before they are deleted. */
  list(now = Date.now()): QuerySummary[] {
    const oldest = now - this.options.maxAgeMillis;
    return [...this.entries.values()].filter((e) => (e.summary.endTime ?? 0) >= oldest).map((e) => e.summary);
  }

  get(queryId: string): QuerySummary | undefined {
    return this.entries.get(queryId)?.summary;
  }

  /** The detail written when the query ended; undefined when it is not kept (or its file is gone). */
  async detail(queryId: string): Promise<unknown> {
    if (!this.entries.has(queryId) || !QUERY_ID.test(queryId)) return undefined;
    try {
      return JSON.parse((await gunzipAsync(await readFile(this.detailPath(queryId)))).toString('utf8'));
    } catch (e) {
      this.logger.warn({ queryId, err: e }, 'query history: detail not readable');
      return undefined;
    }
  }

  /** Keeps a query that ended; written in the background (see flush). */
  record(summary: QuerySummary, detail: unknown): void {
    if (!QUERY_ID.test(summary.queryId)) return;
    this.writes = this.writes
      .then(() => this.write(summary, detail))
      .catch((e: unknown) => this.logger.warn({ queryId: summary.queryId, err: e }, 'query history: could not write the query'));
  }

  /** Resolves once every query recorded so far is on disk. */
  flush(): Promise<void> {
    return this.writes;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  private async write(summary: QuerySummary, detail: unknown): Promise<void> {
    const compressed = await gzipAsync(Buffer.from(JSON.stringify(detail), 'utf8'));
    await writeFile(this.detailPath(summary.queryId), compressed);
    const line = `${JSON.stringify({ summary, bytes: compressed.byteLength })}\n`;
    await appendFile(join(this.options.directory, INDEX), line);
    this.add({ summary, bytes: compressed.byteLength + Buffer.byteLength(line) });
    const dropped = this.prune();
    await Promise.all(dropped.map((id) => rm(this.detailPath(id), { force: true })));
    if (this.deadLines > Math.max(100, this.entries.size)) await this.rewriteIndex();
  }

  private add(entry: Entry): void {
    const known = this.entries.get(entry.summary.queryId);
    if (known !== undefined) this.drop(entry.summary.queryId, known);
    this.entries.set(entry.summary.queryId, entry);
    this.totalBytes += entry.bytes;
  }

  private drop(queryId: string, entry: Entry): void {
    this.entries.delete(queryId);
    this.totalBytes -= entry.bytes;
    this.deadLines++;
  }

  /** Drops the oldest queries until the history is within its bounds; returns their ids. */
  private prune(now = Date.now()): string[] {
    const dropped: string[] = [];
    const oldest = now - this.options.maxAgeMillis;
    for (const [queryId, entry] of this.entries) {
      const within =
        this.entries.size <= this.options.maxCount && this.totalBytes <= this.options.maxBytes && (entry.summary.endTime ?? 0) >= oldest;
      if (within) break;
      this.drop(queryId, entry);
      dropped.push(queryId);
    }
    return dropped;
  }

  /** Reads index.jsonl: the last line of a query wins; a line that does not parse, or whose detail file is gone, is skipped. */
  private async load(): Promise<void> {
    const path = join(this.options.directory, INDEX);
    const present = await stat(path).catch(() => undefined);
    if (present === undefined) return;
    const loaded: Entry[] = [];
    for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
      const entry = parseIndexLine(line);
      if (entry !== undefined) loaded.push(entry);
    }
    loaded.sort((a, b) => (a.summary.endTime ?? 0) - (b.summary.endTime ?? 0));
    for (const entry of loaded) {
      const file = await stat(this.detailPath(entry.summary.queryId)).catch(() => undefined);
      if (file !== undefined)
        this.add({ ...entry, bytes: file.size + Buffer.byteLength(JSON.stringify({ summary: entry.summary, bytes: file.size })) + 1 });
    }
  }

  /** Writes the index anew with the kept queries only (to a temporary file, then renamed over it). */
  private async rewriteIndex(): Promise<void> {
    const path = join(this.options.directory, INDEX);
    const lines = [...this.entries.values()].map((e) => `${JSON.stringify({ summary: e.summary, bytes: e.bytes })}\n`).join('');
    await writeFile(`${path}.tmp`, lines);
    await rename(`${path}.tmp`, path);
    this.deadLines = 0;
  }

  private detailPath(queryId: string): string {
    return join(this.options.directory, 'queries', `${queryId}.json.gz`);
  }
}

function parseIndexLine(line: string): Entry | undefined {
  if (line.trim() === '') return undefined;
  try {
    const parsed = JSON.parse(line) as Partial<Entry>;
    const summary = parsed.summary;
    if (summary === undefined || typeof summary.queryId !== 'string' || !QUERY_ID.test(summary.queryId) || typeof summary.user !== 'string')
      return undefined;
    return { summary, bytes: typeof parsed.bytes === 'number' ? parsed.bytes : 0 };
  } catch {
    return undefined;
  }
}
