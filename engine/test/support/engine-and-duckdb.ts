// The engine (in process) and DuckDB side by side, for tests whose oracle is DuckDB on the same rows:
// the same statements set both up, and a query's rows must be the same set on both.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { EngineHarness } from './engine-harness.js';

/** Rows as sorted `a|b|NULL` lines: the same set of rows compares equal whatever each side's order and number types. */
export function sortedRowTexts(rows: unknown[][]): string[] {
  return rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|')).sort();
}

/** Asserts that the query gives DuckDB's rows, in the same order, with DuckDB's types of values (and some rows). */
export async function expectDuckDbAnswer(engine: EngineHarness, duck: DuckDBConnection, sql: string): Promise<void> {
  const ours = await engine.query(sql);
  const theirs = await duckRows(duck, sql);
  expect(ours.rows.length, 'no rows: the comparison would be empty').to.be.greaterThan(0);
  const difference = firstDifference(
    ours.rows,
    ours.columns.map((c) => c.type),
    ours.columns.map((c) => c.name),
    theirs,
  );
  expect(difference, difference).to.equal(undefined);
}

export class EngineAndDuckDb {
  private constructor(
    readonly engine: EngineHarness,
    readonly duck: DuckDBConnection,
  ) {}

  static async open(): Promise<EngineAndDuckDb> {
    return new EngineAndDuckDb(new EngineHarness(), await openDuckDb(1));
  }

  /** Runs each statement on both, in order. */
  async runOnBoth(...statements: string[]): Promise<void> {
    for (const sql of statements) {
      await this.engine.run(sql);
      await this.duck.run(sql);
    }
  }

  /** Asserts that the query gives DuckDB's rows; returns them as sortedRowTexts. */
  async expectSame(sql: string): Promise<string[]> {
    const ours = sortedRowTexts(await this.engine.rows(sql));
    expect(ours).to.deep.equal(sortedRowTexts(await duckRows(this.duck, sql)), sql);
    return ours;
  }

  close(): void {
    this.duck.closeSync();
  }
}
