// A DuckDB holding tpch.tiny (the rows the tpch connector generates) for a test file's whole run.

import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';

/** Registers before/after hooks in the current describe; `get()` is the connection inside its tests. */
export function duckDbTpchTiny(): { get(): DuckDBConnection } {
  let duck: DuckDBConnection | undefined;
  before(async () => {
    duck = await duckDbWithTpch('tiny', 1);
  });
  after(() => duck?.closeSync());
  return {
    get: () => {
      if (duck === undefined) throw new Error('DuckDB is opened in before()');
      return duck;
    },
  };
}
