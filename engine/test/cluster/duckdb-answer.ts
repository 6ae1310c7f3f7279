// Asserts that a query run through a coordinator answers what DuckDB answers to the same SQL over the
// same rows: the cluster tests' oracle.

import type { DuckDBConnection } from '@duckdb/node-api';
import { expect } from 'chai';
import { jsonToScalar, typeOfName } from '../../scripts/bench/json-rows.js';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import type { JsonValue } from '../../src/types/exact-json.js';
import { runStatement } from '../support/statement-http.js';

export interface DuckDbAnswerOptions {
  /** Fail when the answer has no rows (a comparison of two empty answers proves little); default true. */
  nonEmpty?: boolean;
  /** Prefixes the failure messages, e.g. the query's name. */
  label?: string;
}

/** Runs `sql` on the server at `uri` with `headers` and expects DuckDB's rows for it from `duck`. */
export async function expectDuckDbAnswer(
  uri: string,
  duck: DuckDBConnection,
  sql: string,
  headers: Record<string, string>,
  options: DuckDbAnswerOptions = {},
): Promise<void> {
  const label = options.label === undefined ? '' : `${options.label}: `;
  const run = await runStatement(uri, sql, headers);
  expect(run.final.error, `${label}${run.final.error?.message}`).to.equal(undefined);
  const types = (run.columns ?? []).map((c) => typeOfName(c.type));
  const rows = run.rows.map((r) => r.map((v, c) => jsonToScalar(v as JsonValue, types[c])));
  if (options.nonEmpty ?? true) expect(rows.length, `${label}no rows: the comparison would be empty`).to.be.greaterThan(0);
  const names = (run.columns ?? []).map((c) => c.name);
  const difference = firstDifference(rows, types, names, await duckRows(duck, sql));
  expect(difference, `${label}${difference}`).to.equal(undefined);
}
