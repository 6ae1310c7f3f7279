// The 22 TPC-H queries on scale factor 0.01, compared with DuckDB on the same rows: same rows,
// same order (every query orders or returns one row), decimals digit for digit, doubles within
// 1e-9 relative. Where the engines' result types differ by design, DuckDB's value is rounded to
// our type first: avg(decimal(12,2)) is decimal(12,2) in Trino and a double in DuckDB (Q1), and
// DuckDB widens decimal sums and products differently (compared after rescaling to our scale).

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Scalar } from '../../src/exec/page.js';
import { formatDecimal } from '../../src/types/decimal.js';
import { formatDate } from '../../src/types/datetime.js';
import type { SqlType } from '../../src/types/types.js';
import { duckRows, loadTbl, openDuckDb } from '../support/duckdb-oracle.js';
import { EngineHarness } from '../support/engine-harness.js';
import { loadTpchTables, TPCH_DATA_DIR } from '../support/tpch-loader.js';
import { TPCH_TABLES } from '../support/tpch-schema.js';

const QUERIES_DIR = join(TPCH_DATA_DIR, '..', 'queries');

describe('TPC-H queries on sf0.01 equal DuckDB', function () {
  this.timeout(300_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    await loadTpchTables(engine);
    duck = await openDuckDb(2);
    for (const [table, columns] of Object.entries(TPCH_TABLES)) await loadTbl(duck, table, columns, join(TPCH_DATA_DIR, `${table}.tbl`));
  });

  for (let q = 1; q <= 22; q++) {
    const name = `q${String(q).padStart(2, '0')}`;
    it(name, async () => {
      const sql = readFileSync(join(QUERIES_DIR, `${name}.sql`), 'utf8').trim().replace(/;\s*$/, '');
      const ours = await engine.query(sql);
      const theirs = await duckRows(duck, sql);
      expect(ours.rows.length, 'row count').to.equal(theirs.length);
      ours.rows.forEach((row, r) => {
        row.forEach((value, c) => {
          const type = ours.columns[c].type;
          const where = `row ${r} column ${ours.columns[c].name}`;
          compareValue(value, theirs[r][c], type, where);
        });
      });
    });
  }
});

function compareValue(ours: Scalar, theirs: unknown, type: SqlType, where: string): void {
  if (ours === null || theirs === null) {
    expect(ours, where).to.equal(theirs);
    return;
  }
  switch (type.kind) {
    case 'double':
    case 'real': {
      const t = Number(typeof theirs === 'object' ? String(theirs) : theirs);
      const o = ours as number;
      expect(Math.abs(o - t) <= 1e-9 * Math.max(1, Math.abs(t)), `${where}: ${o} vs ${t}`).to.equal(true);
      return;
    }
    case 'decimal':
      expect(formatDecimal(ours as bigint, type.scale), where).to.equal(duckDecimal(theirs, type.scale));
      return;
    case 'date':
      expect(formatDate(ours as number), where).to.equal(String(theirs));
      return;
    default:
      expect(String(ours), where).to.equal(String(theirs));
  }
}

/** A DuckDB decimal or double as text with `scale` digits, rounding half up. */
function duckDecimal(value: unknown, scale: number): string {
  if (typeof value === 'number') return roundHalfUp(value, scale);
  const v = value as { value: bigint; scale: number };
  let unscaled = v.value;
  if (v.scale > scale) {
    const factor = 10n ** BigInt(v.scale - scale);
    const half = factor / 2n;
    unscaled = unscaled >= 0n ? (unscaled + half) / factor : (unscaled - half) / factor;
  } else if (v.scale < scale) unscaled *= 10n ** BigInt(scale - v.scale);
  return formatDecimal(unscaled, scale);
}

function roundHalfUp(value: number, scale: number): string {
  const factor = 10 ** scale;
  const unscaled = BigInt(Math.sign(value) * Math.round(Math.abs(value) * factor));
  return formatDecimal(unscaled, scale);
}
