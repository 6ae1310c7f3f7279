// Window frames with offsets (ROWS, GROUPS, and RANGE over numbers, dates and timestamps with
// day-time and year-month intervals; PRECEDING and FOLLOWING at both ends; ascending and descending;
// NULLs first and last) give DuckDB's answers on the same generated rows: ties, gaps and NULL keys.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { formatValueAsText } from '../../src/types/values.js';
import { EngineHarness } from '../support/engine-harness.js';

const ROWS = 240;

/** Deterministic rows: keys with ties, gaps and NULLs; three partitions. */
function generatedRows(): string[] {
  let seed = 20241;
  const next = (m: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % m;
  const orNull = (text: string): string => (next(9) === 0 ? 'NULL' : text);
  const rows: string[] = [];
  for (let id = 0; id < ROWS; id++) {
    const n = orNull(String(next(40) * 3));
    const amount = `${next(100000) / 100}`;
    const day = new Date(Date.UTC(2023, 10, 1) + next(200) * 86_400_000).toISOString().slice(0, 10);
    const minutes = next(60 * 24 * 3);
    const ts = new Date(Date.UTC(2024, 0, 30) + minutes * 60_000).toISOString().replace('T', ' ').slice(0, 19);
    rows.push(
      `(${id}, ${next(3)}, ${n}, CAST(${amount} AS decimal(12,2)), ${orNull(`DATE '${day}'`)}, ${orNull(`TIMESTAMP '${ts}'`)}, ${next(4)})`,
    );
  }
  return rows;
}

/** Frame clauses and the ORDER BY they go with; each runs with sum, count and min over it. */
const WINDOWS: string[] = [
  // RANGE over an integer key, numeric offsets
  'ORDER BY n RANGE BETWEEN 6 PRECEDING AND CURRENT ROW',
  'ORDER BY n RANGE BETWEEN 3 PRECEDING AND 9 FOLLOWING',
  'ORDER BY n DESC RANGE BETWEEN 6 PRECEDING AND 3 FOLLOWING',
  'ORDER BY n NULLS FIRST RANGE BETWEEN CURRENT ROW AND 12 FOLLOWING',
  'ORDER BY n DESC NULLS LAST RANGE BETWEEN 12 PRECEDING AND 3 PRECEDING',
  'ORDER BY n RANGE BETWEEN 3 FOLLOWING AND 12 FOLLOWING',
  'ORDER BY n RANGE BETWEEN UNBOUNDED PRECEDING AND 4 PRECEDING',
  'ORDER BY n RANGE BETWEEN 4 FOLLOWING AND UNBOUNDED FOLLOWING',
  'PARTITION BY g ORDER BY n RANGE BETWEEN 1.5 PRECEDING AND 4.5 FOLLOWING',
  'PARTITION BY g ORDER BY n DESC NULLS FIRST RANGE 9 PRECEDING',
  // RANGE over a decimal key
  'PARTITION BY g ORDER BY amount RANGE BETWEEN 100 PRECEDING AND 50.25 FOLLOWING',
  'ORDER BY amount DESC RANGE BETWEEN 25.5 PRECEDING AND CURRENT ROW',
  // RANGE over a date key: day-time and year-month intervals
  "ORDER BY d RANGE BETWEEN INTERVAL '6' DAY PRECEDING AND CURRENT ROW",
  "ORDER BY d DESC RANGE BETWEEN INTERVAL '6' DAY PRECEDING AND INTERVAL '2' DAY FOLLOWING",
  "PARTITION BY g ORDER BY d NULLS FIRST RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND CURRENT ROW",
  "ORDER BY d DESC NULLS LAST RANGE BETWEEN CURRENT ROW AND INTERVAL '1' MONTH FOLLOWING",
  "ORDER BY d RANGE BETWEEN INTERVAL '10' DAY FOLLOWING AND INTERVAL '1' MONTH FOLLOWING",
  // RANGE over a timestamp key
  "ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW",
  "PARTITION BY g ORDER BY ts DESC RANGE BETWEEN INTERVAL '90' MINUTE PRECEDING AND INTERVAL '30' MINUTE FOLLOWING",
  "ORDER BY ts NULLS FIRST RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND INTERVAL '2' HOUR PRECEDING",
  "ORDER BY ts RANGE BETWEEN CURRENT ROW AND INTERVAL '1' MONTH FOLLOWING",
  // ROWS and GROUPS, with constant and per-row offsets
  'PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING',
  'ORDER BY id ROWS BETWEEN k PRECEDING AND k FOLLOWING',
  'ORDER BY n, id GROUPS BETWEEN 2 PRECEDING AND 1 FOLLOWING',
  'ORDER BY n GROUPS BETWEEN 1 FOLLOWING AND 3 FOLLOWING',
];

describe('window frames with offsets equal DuckDB on generated rows', function () {
  this.timeout(120_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    const definition = 'id integer, g integer, n integer, amount decimal(12,2), d date, ts timestamp(3), k integer';
    const values = generatedRows().join(', ');
    await engine.run(`CREATE TABLE memory.default.frames (${definition})`);
    await engine.run(`INSERT INTO memory.default.frames VALUES ${values}`);
    await duck.run(`CREATE TABLE frames (${definition.replace('timestamp(3)', 'timestamp')})`);
    await duck.run(`INSERT INTO frames VALUES ${values}`);
  });

  for (const window of WINDOWS) {
    it(window, async () => {
      const sql = `SELECT id, sum(amount) OVER w, count(*) OVER w, min(id) OVER w, max(n) OVER w FROM frames WINDOW w AS (${window}) ORDER BY id`;
      const ours = await engine.query(sql.replace('FROM frames', 'FROM memory.default.frames'));
      const theirs = await duckRows(duck, sql);
      const types = ours.columns.map((c) => c.type);
      expect(ours.rows.map((row) => row.map((v, i) => formatValueAsText(v, types[i])).join(' | '))).to.deep.equal(theirs.map(asText));
    });
  }
});

function asText(row: unknown[]): string {
  return row.map((v) => (v === null ? 'NULL' : String(v))).join(' | ');
}

describe('window frames Trino refuses', () => {
  const engine = new EngineHarness();
  const table = "(VALUES (1, DATE '2024-01-01', 'a'), (2, DATE '2024-01-03', 'b')) t(n, d, s)";
  const cases: [string, string, string][] = [
    [
      'sum(n) OVER (ORDER BY n, d RANGE 1 PRECEDING)',
      'INVALID_ORDER_BY',
      'line 1:30: Window frame of type RANGE PRECEDING or FOLLOWING requires single sort item in ORDER BY (actual: 2)',
    ],
    [
      'sum(n) OVER (ORDER BY s RANGE 1 PRECEDING)',
      'TYPE_MISMATCH',
      'line 1:30: Window frame of type RANGE PRECEDING or FOLLOWING requires that sort item type be numeric, datetime or interval (actual: varchar(1))',
    ],
    [
      'sum(n) OVER (ORDER BY d RANGE 1 PRECEDING)',
      'TYPE_MISMATCH',
      'line 1:38: Window frame RANGE value type (integer) not compatible with sort item type (date)',
    ],
    [
      "sum(n) OVER (ORDER BY n RANGE INTERVAL '1' DAY PRECEDING)",
      'TYPE_MISMATCH',
      'line 1:38: Window frame RANGE value type (interval day to second) not compatible with sort item type (integer)',
    ],
    [
      'sum(n) OVER (ORDER BY n ROWS 1.5 PRECEDING)',
      'TYPE_MISMATCH',
      'line 1:37: Window frame ROWS start value type must be exact numeric type with scale 0 (actual decimal(2,1))',
    ],
    [
      'sum(n) OVER (GROUPS 1 PRECEDING)',
      'MISSING_ORDER_BY',
      'line 1:8: Window frame of type GROUPS PRECEDING or FOLLOWING requires ORDER BY',
    ],
    [
      'sum(n) OVER (ORDER BY n ROWS BETWEEN CURRENT ROW AND 1 PRECEDING)',
      'INVALID_WINDOW_FRAME',
      'line 1:32: Window frame starting from CURRENT ROW cannot end with PRECEDING',
    ],
    [
      'sum(n) OVER (ORDER BY n ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW)',
      'INVALID_WINDOW_FRAME',
      'line 1:32: Window frame starting from FOLLOWING cannot end with CURRENT ROW',
    ],
    [
      'sum(n) OVER (ORDER BY n ROWS BETWEEN n - 2 PRECEDING AND CURRENT ROW)',
      'INVALID_WINDOW_FRAME',
      'Window frame offset value must not be negative or null',
    ],
    [
      'sum(n) OVER (ORDER BY n RANGE BETWEEN CAST(NULL AS integer) PRECEDING AND CURRENT ROW)',
      'INVALID_WINDOW_FRAME',
      'Window frame offset value must not be negative or null',
    ],
    [
      "sum(n) OVER (ORDER BY d RANGE INTERVAL '1' HOUR PRECEDING)",
      'INVALID_FUNCTION_ARGUMENT',
      'Cannot add hour, minutes or seconds to a date',
    ],
  ];
  for (const [call, errorName, message] of cases) {
    it(`${call}: ${errorName}`, async () => {
      const error = await engine.query(`SELECT ${call} FROM ${table}`).then(
        () => undefined,
        (e: Error & { errorName?: string }) => e,
      );
      expect(error?.errorName).to.equal(errorName);
      expect(error?.message).to.equal(message);
    });
  }

  it('EXPLAIN names the offset columns of a frame, and the plan computes them', async () => {
    const [[plan]] = await engine.rows(
      `EXPLAIN SELECT sum(n) OVER (ORDER BY d RANGE BETWEEN INTERVAL '6' DAY PRECEDING AND INTERVAL '1' MONTH FOLLOWING) FROM ${table}`,
    );
    expect(plan).to.match(/RANGE frame_start_value_\d+ PRECEDING frame_end_value_\d+ FOLLOWING/);
    expect(plan).to.match(/frame_start_value_\d+ := subtract\(_col1_\d+, 6 00:00:00\.000\)/);
    expect(plan).to.match(/frame_end_value_\d+ := add\(_col1_\d+, 0-1\)/);
  });
});
