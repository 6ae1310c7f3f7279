// Joins over integer keys (the IntegerJoinHash path: bigint, integer, date, short decimal, several
// columns) and over other keys, with NULL keys, duplicate keys, keys whose int64 words differ only
// in the high word, outer joins, join filters and semi/anti joins (IN, NOT IN, EXISTS, NOT EXISTS),
// give DuckDB's answers on the same rows. The build side spans several insert slices.

import { queriesEqualDuckDb, seededIntegers } from '../support/memory-tables-vs-duckdb.js';

const BUILD_ROWS = 40_000;
const PROBE_ROWS = 3_000;

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
  const next = seededIntegers(seed);
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

const TABLES = { build_side: rowsSql(BUILD_ROWS, 7), probe_side: rowsSql(PROBE_ROWS, 99) };

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

queriesEqualDuckDb(
  'joins on integer and other keys equal DuckDB',
  '(id integer, k bigint, small integer, day date, price decimal(10,2), name varchar)',
  TABLES,
  QUERIES,
);
