// Memory figures of `make bench`: per query, the memory the engine counted (the query's peak
// reservation, from /v1/query) against what the server process really grew by while it ran (its
// resident set from /proc: the peak is reset before the run, VmHWM read after it, minus VmRSS
// before). The ratio shows how much of the real memory the accounting sees.

import { readFileSync, writeFileSync } from 'node:fs';
import { parseDataSize } from '../../src/config/data-size.js';
import { heapNeededFor } from '../../src/config/memory-budget.js';

export interface QueryMemory {
  /** The query's label: q01.. or the extra queries' names. */
  query: string;
  countedPeakBytes: number | undefined;
  rssGrowthBytes: number | undefined;
  /** rssGrowthBytes / countedPeakBytes. */
  ratio: number | undefined;
}

/** NODE_OPTIONS for a server whose node memory is `nodeMemoryBytes`: a V8 heap that holds it. */
export function serverHeapOptions(nodeMemoryBytes: number): string {
  return `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${Math.ceil(heapNeededFor(nodeMemoryBytes) / 1024 / 1024)}`.trim();
}

/** The distinct count a tester saw keep 280 MB per run: run by the bench on the generated lineitem. */
export function distinctCommentQuery(schema: string): string {
  return `SELECT count(DISTINCT l_comment) FROM tpch."${schema}".lineitem`;
}

interface ListedQuery {
  queryId: string;
  query: string;
  state: string;
  queryStats: { createTime?: string; peakTotalMemoryReservation?: string };
}

export class ServerMemoryProbe {
  readonly figures: QueryMemory[] = [];

  constructor(
    private readonly serverUrl: string,
    private readonly pid: number | undefined,
  ) {}

  /** Runs `execute` (which runs `sql`) and records its counted peak against the server's RSS growth. */
  async measure<T>(label: string, sql: string, execute: () => Promise<T>): Promise<T> {
    const baseline = this.resetPeak();
    const result = await execute();
    const peak = this.status('VmHWM');
    const counted = await this.countedPeak(sql);
    const growth = baseline === undefined || peak === undefined ? undefined : Math.max(0, peak - baseline);
    const ratio = counted === undefined || growth === undefined || counted === 0 ? undefined : growth / counted;
    this.figures.push({ query: label, countedPeakBytes: counted, rssGrowthBytes: growth, ratio });
    return result;
  }

  private resetPeak(): number | undefined {
    return resetPeakRss(this.pid);
  }

  private status(field: 'VmRSS' | 'VmHWM'): number | undefined {
    return processMemory(this.pid, field);
  }

  /** The peak memory of the newest finished query with this text. */
  private async countedPeak(sql: string): Promise<number | undefined> {
    const response = await fetch(new URL('/v1/query', this.serverUrl), { headers: { 'X-Engine-User': 'bench' } });
    if (!response.ok) return undefined;
    const queries = ((await response.json()) as ListedQuery[]).filter((q) => q.query === sql && q.state === 'FINISHED');
    const newest = queries[queries.length - 1];
    const peak = newest?.queryStats.peakTotalMemoryReservation;
    return peak === undefined ? undefined : parseDataSize(peak);
  }
}

/** Resets the process's peak resident set to its current one (Linux: clear_refs 5); returns the current. */
export function resetPeakRss(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Without the reset VmHWM is the peak since the start: the growth then reads 0 unless it is a new peak.
  }
  return processMemory(pid, 'VmRSS');
}

/** A process's resident set (VmRSS) or its peak (VmHWM), from /proc; undefined where unknown. */
export function processMemory(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function printMemory(figures: readonly QueryMemory[]): void {
  const mb = (b: number | undefined) => (b === undefined ? '-' : (b / 1024 / 1024).toFixed(1));
  console.log(`\nmemory per query (last run): counted peak vs the server's RSS growth during the query`);
  console.log(`${'query'.padEnd(18)}${'counted MB'.padStart(12)}${'RSS growth MB'.padStart(15)}${'RSS/counted'.padStart(13)}`);
  for (const f of figures) {
    console.log(
      `${f.query.padEnd(18)}${mb(f.countedPeakBytes).padStart(12)}${mb(f.rssGrowthBytes).padStart(15)}${(f.ratio === undefined ? '-' : f.ratio.toFixed(2)).padStart(13)}`,
    );
  }
}
