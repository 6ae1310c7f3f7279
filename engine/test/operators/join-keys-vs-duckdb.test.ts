// Joins over integer keys (the IntegerJoinHash path: bigint, integer, date, short decimal, several
// columns) and over other keys, with NULL keys, duplicate keys, keys whose int64 words differ only
// in the high word, outer joins, join filters and semi/anti joins (IN, NOT IN, EXISTS, NOT EXISTS),
// give DuckDB's answers on the same rows. The build side spans several insert slices.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { EngineHarness } from '../support/engine-harness.js';

const BUILD_ROWS = 40_000;
const PROBE_ROWS = 3_000;
const ROWS_PER_INSERT = 2_000;

/** Deterministic pseudo-random integers. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    return (state >>> 8) & 0xffff;
  };
}

/** A key from a small domain (so keys repeat), sometimes NULL, sometimes far beyond 32 bits. */
function keyLiteral(next: () => number): string {
  const r = next();
  if (r % 11 === 0) return 'NULL';
  const k = r % 1500;
  // Differ from small keys only in the high int64 word: 2^32 * k and -2^32 * k + k.
  if (r % 13 === 0) return String(4294967296n * BigInt(k));
  if (r % 17 === 0) return String(-4294967296n * BigInt(k) + BigInt(k));
  return String(k - 200);
}

function rowsSql(count: number, seed: number): string[] {
  const next = generator(seed);
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    const k = keyLiteral(next);
    const small = next() % 9 === 0 ? 'NULL' : String((next() % 40) - 5);
    const day = next() % 10 === 0 ? 'NULL' : `DATE '1995-01-01' + INTERVAL '${next() % 60}' DAY`;
    const price = next() % 12 === 0 ? 'NULL' : `CAST(${(next() % 300) / 4} AS DECIMAL(10,2))`;
    const name = next() % 8 === 0 ? 'NULL' : `'n${next() % 50}'`;
    rows.push(`(${i}, ${k}, ${small}, ${day}, ${price}, ${name})`);
  }
  return rows;
}

const TABLES: Record<string, { rows: number; seed: number }> = {
  build_side: { rows: BUILD_ROWS, seed: 7 },
  probe_side: { rows: PROBE_ROWS, seed: 99 },
};

/** Each selects three columns (ids and keys, padded with 0), so that ordering by all three fixes the order. */
const QUERIES: Record<string, string> = {
  'inner on bigint': 'SELECT p.id, b.id, 0 FROM probe_side p JOIN build_side b ON p.k = b.k',
  'left on bigint': 'SELECT p.id, b.id, b.small FROM probe_side p LEFT JOIN build_side b ON p.k = b.k',
  'right on bigint': 'SELECT p.id, b.id, 0 FROM probe_side p RIGHT JOIN build_side b ON p.k = b.k',
  'full on bigint': 'SELECT p.id, b.id, 0 FROM probe_side p FULL JOIN build_side b ON p.k = b.k',
  'inner on integer': 'SELECT p.id, b.id, 0 FROM probe_side p JOIN build_side b ON p.small = b.small WHERE p.id < 300',
  'integer = bigint': 'SELECT p.id, b.id, 0 FROM probe_side p JOIN build_side b ON p.small = b.k WHERE p.id < 500',
  'inner on date': 'SELECT p.id, b.id, 0 FROM probe_side p JOIN build_side b ON p.day = b.day WHERE p.id < 100',
  'inner on short decimal': 'SELECT p.id, b.id, 0 FROM probe_side p JOIN build_side b ON p.price = b.price WHERE p.id < 150',
  'two integer keys': 'SELECT p.id, b.id, 0 FROM probe_side p JOIN build_side b ON p.k = b.k AND p.small = b.small',
  'two integer keys, left': 'SELECT p.id, b.id, 0 FROM probe_side p LEFT JOIN build_side b ON p.k = b.k AND p.small = b.small',
  'integer and varchar keys': 'SELECT p.id, b.id, 0 FROM probe_side p JOIN build_side b ON p.k = b.k AND p.name = b.name',
  'join filter': 'SELECT p.id, b.id, 0 FROM probe_side p JOIN build_side b ON p.k = b.k AND p.small < b.small',
  'left join filter': 'SELECT p.id, b.id, 0 FROM probe_side p LEFT JOIN build_side b ON p.k = b.k AND p.small < b.small',
  IN: 'SELECT p.id, p.k IN (SELECT k FROM build_side WHERE small > 30), 0 FROM probe_side p',
  'IN without NULL keys': 'SELECT p.id, p.k IN (SELECT k FROM build_side WHERE small > 30 AND k IS NOT NULL), 0 FROM probe_side p',
  'NOT IN': 'SELECT p.id, 0, 0 FROM probe_side p WHERE p.small NOT IN (SELECT small FROM build_side WHERE k IS NOT NULL AND small > 20)',
  'IN over an empty set': 'SELECT p.id, p.k IN (SELECT k FROM build_side WHERE small > 1000), 0 FROM probe_side p',
  EXISTS: 'SELECT p.id, 0, 0 FROM probe_side p WHERE EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k AND b.small > p.small)',
  'NOT EXISTS': 'SELECT p.id, 0, 0 FROM probe_side p WHERE NOT EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k)',
  'NOT EXISTS with a filter':
    'SELECT p.id, 0, 0 FROM probe_side p WHERE NOT EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k AND b.day > p.day)',
};

describe('joins on integer and other keys equal DuckDB', function () {
  this.timeout(300_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    for (const [table, { rows, seed }] of Object.entries(TABLES)) {
      const columns = '(id integer, k bigint, small integer, day date, price decimal(10,2), name varchar)';
      await engine.run(`CREATE TABLE memory.default.${table} ${columns}`);
      await duck.run(`CREATE TABLE ${table} ${columns}`);
      const values = rowsSql(rows, seed);
      for (let i = 0; i < values.length; i += ROWS_PER_INSERT) {
        const insert = `INSERT INTO ${table} VALUES ${values.slice(i, i + ROWS_PER_INSERT).join(', ')}`;
        await engine.run(insert.replace(`INTO ${table}`, `INTO memory.default.${table}`));
        await duck.run(insert);
      }
    }
  });

  for (const [name, sql] of Object.entries(QUERIES)) {
    it(name, async () => {
      const ordered = `SELECT * FROM (${sql}) ORDER BY 1 NULLS FIRST, 2 NULLS FIRST, 3 NULLS FIRST`;
      const ours = await engine.query(ordered);
      const theirs = await duckRows(duck, ordered);
      expect(ours.rows.length, 'no rows: the comparison would be empty').to.be.greaterThan(0);
      const difference = firstDifference(
        ours.rows,
        ours.columns.map((c) => c.type),
        ours.columns.map((c) => c.name),
        theirs,
      );
      expect(difference, difference).to.equal(undefined);
    });
  }
});
