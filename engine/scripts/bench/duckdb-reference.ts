// DuckDB as the oracle and speed reference of the TPC-H benchmarks: each query's rows and median
// time, run once per bench run whichever suites ask for them, and the comparison of our statement
// results with its rows.

import type { DuckDBConnection } from '@duckdb/node-api';
import type { StatementOutcome } from '../sqllogictest/statement-client.js';
import { duckRows } from '../tpch/duckdb-tpch.js';
import { tpchQuery } from '../tpch/queries.js';
import { firstDifference } from '../tpch/result-comparison.js';
import { jsonToScalar, typeOfName } from './json-rows.js';
import { median } from './statistics.js';

export interface DuckDbAnswer {
  rows: unknown[][];
  medianMillis: number;
}

export class DuckDbReference {
  private readonly answers = new Map<number, DuckDbAnswer>();

  constructor(
    private readonly db: DuckDBConnection,
    private readonly runs: { warmup: number; runs: number },
  ) {}

  /** TPC-H query `q`'s rows and median time (warm-up runs first), measured on first use. */
  async answer(q: number): Promise<DuckDbAnswer> {
    const known = this.answers.get(q);
    if (known) return known;
    const sql = tpchQuery(q);
    const times: number[] = [];
    let rows: unknown[][] = [];
    for (let i = 0; i < this.runs.warmup + this.runs.runs; i++) {
      const t = performance.now();
      rows = await duckRows(this.db, sql);
      if (i >= this.runs.warmup) times.push(performance.now() - t);
    }
    const answer = { rows, medianMillis: median(times) };
    this.answers.set(q, answer);
    return answer;
  }
}

/** The first difference between our statement's rows and DuckDB's, or undefined when equal. */
export function differenceFromDuckDb(outcome: StatementOutcome, duckRows: unknown[][]): string | undefined {
  const types = outcome.columns.map((c) => typeOfName(c.type));
  const rows = outcome.rows.map((r) => r.map((v, c) => jsonToScalar(v, types[c])));
  return firstDifference(
    rows,
    types,
    outcome.columns.map((c) => c.name),
    duckRows,
  );
}
