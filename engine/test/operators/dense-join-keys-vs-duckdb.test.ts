// Joins whose build keys are dense (the DenseIntegerJoinLookup path: a small table's keys in a
// short range, with duplicates and NULLs) against a bigger table whose keys run outside that range,
// beyond 2^53 and down to -2^63: inner, outer, semi and anti joins give DuckDB's answers.

import { queriesEqualDuckDb, seededIntegers } from '../support/memory-tables-vs-duckdb.js';

function rowsSql(count: number, seed: number, wide: boolean): string[] {
  const next = seededIntegers(seed);
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

const TABLES = { dense_small: rowsSql(1_500, 5, false), wide_big: rowsSql(30_000, 17, true) };

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

queriesEqualDuckDb('joins on dense integer build keys equal DuckDB', '(id integer, k bigint, small integer)', TABLES, QUERIES);
