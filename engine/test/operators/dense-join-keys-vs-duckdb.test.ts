// Joins whose build keys are dense (the DenseIntegerJoinLookup path: a small table's keys in a
// short range, with duplicates and NULLs) against a bigger table whose keys run outside that range,
// beyond 2^53 and down to -2^63: inner, outer, semi and anti joins give DuckDB's answers.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { EngineHarness } from '../support/engine-harness.js';

const ROWS_PER_INSERT = 2_000;

function rowsSql(count: number, seed: number, wide: boolean): string[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    return (state >>> 8) & 0xffff;
  };
  const far = ['9007199254740993', '-9223372036854775808', '9223372036854775807', '4294967296', '-4294967296', '9007199254740992'];
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = next();
    const k = r % 13 === 0 ? 'NULL' : wide && r % 7 === 0 ? far[r % far.length] : String((r % 900) - 300);
    const small = r % 11 === 0 ? 'NULL' : String((next() % 200) - 50);
    rows.push(`(${i}, ${k}, ${small})`);
  }
  return rows;
}

const TABLES: Record<string, { rows: number; seed: number; wide: boolean }> = {
  dense_small: { rows: 1_500, seed: 5, wide: false },
  wide_big: { rows: 30_000, seed: 17, wide: true },
};

const QUERIES: Record<string, string> = {
  inner: 'SELECT b.id, s.id, 0 FROM wide_big b JOIN dense_small s ON b.k = s.k',
  left: 'SELECT b.id, s.id, 0 FROM wide_big b LEFT JOIN dense_small s ON b.k = s.k WHERE b.id < 5000',
  right: 'SELECT b.id, s.id, 0 FROM wide_big b RIGHT JOIN dense_small s ON b.k = s.k AND b.id < 3000',
  full: 'SELECT b.id, s.id, 0 FROM wide_big b FULL JOIN dense_small s ON b.k = s.k AND b.id < 2000',
  'integer keys': 'SELECT b.id, s.id, 0 FROM wide_big b JOIN dense_small s ON b.small = s.small WHERE b.id < 1000',
  'integer = bigint': 'SELECT b.id, s.id, 0 FROM wide_big b JOIN dense_small s ON b.k = s.small WHERE s.id < 500',
  IN: 'SELECT b.id, b.k IN (SELECT k FROM dense_small WHERE small > 0), 0 FROM wide_big b',
  'NOT IN': 'SELECT b.id, 0, 0 FROM wide_big b WHERE b.k NOT IN (SELECT k FROM dense_small WHERE k IS NOT NULL AND small > 100)',
  EXISTS: 'SELECT b.id, 0, 0 FROM wide_big b WHERE EXISTS (SELECT 1 FROM dense_small s WHERE s.k = b.k AND s.small > b.small)',
  'NOT EXISTS': 'SELECT b.id, 0, 0 FROM wide_big b WHERE NOT EXISTS (SELECT 1 FROM dense_small s WHERE s.k = b.k)',
};

describe('joins on dense integer build keys equal DuckDB', function () {
  this.timeout(300_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    for (const [table, { rows, seed, wide }] of Object.entries(TABLES)) {
      const columns = '(id integer, k bigint, small integer)';
      await engine.run(`CREATE TABLE memory.default.${table} ${columns}`);
      await duck.run(`CREATE TABLE ${table} ${columns}`);
      const values = rowsSql(rows, seed, wide);
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
