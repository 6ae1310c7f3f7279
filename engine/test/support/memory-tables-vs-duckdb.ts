// Queries over the same rows in memory tables and in DuckDB, for tests whose oracle is DuckDB: the
// tables are created and filled on both in batches, and each query must give DuckDB's rows, in the
// same order (every query is ordered by its first three columns), with DuckDB's types of values.

import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { expectDuckDbAnswer } from './engine-and-duckdb.js';
import { EngineHarness } from './engine-harness.js';

const ROWS_PER_INSERT = 2_000;

/** Deterministic pseudo-random integers in [0, 65536), the same from the same seed. */
export function seededIntegers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    return (state >>> 8) & 0xffff;
  };
}

/**
 * A mocha suite: `tables` (name → its rows as SQL tuples, all of the `columns` given) in memory
 * tables and in DuckDB, then one test per query (each selecting at least three columns).
 */
export function queriesEqualDuckDb(
  title: string,
  columns: string,
  tables: Record<string, string[]>,
  queries: Record<string, string>,
): void {
  describe(title, function () {
    this.timeout(300_000);
    let engine: EngineHarness;
    let duck: DuckDBConnection;

    before(async () => {
      engine = new EngineHarness();
      duck = await openDuckDb(1);
      for (const [table, values] of Object.entries(tables)) {
        await engine.run(`CREATE TABLE memory.default.${table} ${columns}`);
        await duck.run(`CREATE TABLE ${table} ${columns}`);
        for (let i = 0; i < values.length; i += ROWS_PER_INSERT) {
          const rows = values.slice(i, i + ROWS_PER_INSERT).join(', ');
          await engine.run(`INSERT INTO memory.default.${table} VALUES ${rows}`);
          await duck.run(`INSERT INTO ${table} VALUES ${rows}`);
        }
      }
    });

    after(() => duck?.closeSync());

    for (const [name, sql] of Object.entries(queries)) {
      it(name, async () => {
        const ordered = `SELECT * FROM (${sql}) ORDER BY 1 NULLS FIRST, 2 NULLS FIRST, 3 NULLS FIRST`;
        await expectDuckDbAnswer(engine, duck, ordered);
      });
    }
  });
}
