// Semi and anti joins (EXISTS, NOT EXISTS, IN, NOT IN) over a small probe side and a big build side,
// written as Parquet files by DuckDB, for the tests that compare our marks with DuckDB's: NULL keys on
// both sides, duplicate probe rows, keys one build file only holds, empty build and probe sides, join
// filters, two keys, bigint, varchar and decimal keys. `{probe}` and `{build}` stand for the tables.

/** 3,000 probe rows of 2,500 distinct ones (the last 500 repeat rows whole): NULL keys, keys only one build file has. */
export const PROBE_SIDE = `SELECT (i % 2500)::BIGINT AS id,
    CASE WHEN i % 2500 % 11 = 0 THEN NULL WHEN i % 2500 % 13 = 0 THEN 4294967296 * (i % 2500 % 700)
      WHEN i % 2500 % 5 = 0 THEN 100000 + i % 2500 % 4000 ELSE i % 2500 % 1500 - 200 END::BIGINT AS k,
    CASE WHEN i % 2500 % 9 = 0 THEN NULL ELSE i % 2500 % 40 - 5 END::BIGINT AS small,
    CASE WHEN i % 2500 % 8 = 0 THEN NULL ELSE 'n' || CAST(i % 2500 % 50 AS varchar) END AS name,
    CASE WHEN i % 2500 % 7 = 0 THEN NULL ELSE CAST(i % 2500 % 300 AS decimal(12,2)) / 4 END::decimal(12,2) AS price
  FROM range(3000) r(i)`;

/** 4 files of 50,000 build rows, many per key; some keys (100000 + file * 1000 + ...) in one file only. */
export const buildFile = (file: number) => `SELECT i::BIGINT AS id,
    CASE WHEN i % 17 = 0 THEN NULL WHEN i % 19 = 0 THEN 4294967296 * (i * 7 % 700)
      WHEN i % 3 = 0 THEN 100000 + ${file} * 1000 + i % 100 ELSE i * 7 % 1900 - 200 END::BIGINT AS k,
    CASE WHEN i % 10 = 0 THEN NULL ELSE i * 3 % 40 - 5 END::BIGINT AS small,
    CASE WHEN i % 6 = 0 THEN NULL ELSE 'n' || CAST(i * 3 % 70 AS varchar) END AS name,
    CASE WHEN i % 5 = 0 THEN NULL ELSE CAST(i * 3 % 500 AS decimal(12,2)) / 4 END::decimal(12,2) AS price
  FROM range(${file * 50000}, ${file * 50000 + 50000}) r(i)`;

/**
 * A probe side of 60,000 distinct keys (and NULLs) spread over 420,000 build rows in 3 files: more
 * keys than a dynamic filter lists, so its probe key filter is a key bitmap (dynamic_filter_key_bitmap).
 */
export const MANY_KEYS = {
  probe: 'SELECT i AS id, CASE WHEN i % 1000 = 0 THEN NULL ELSE i * 7 END AS k FROM range(0, 60000) t(i)',
  buildFiles: 3,
  buildFile: (file: number) => `SELECT i AS k, i % 5 AS small FROM range(${file * 140_000}, ${(file + 1) * 140_000}) t(i)`,
  /** EXISTS (or NOT EXISTS with `not`) of many probe keys; `{probe}` and `{build}` as above. */
  query: (not: '' | 'NOT') =>
    `SELECT count(*), sum(p.id) FROM {probe} p WHERE ${not} EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.small <> 2)`,
};

/** No rows, through an expression the estimates do not see through (`small > 1000` they know to be empty from the files' bounds). */
export const EMPTY_BUILD = '(SELECT * FROM {build} WHERE small * 2 > 2000)';
/** The rows of the first build file: one worker reads them, the other has an empty part of the build side. */
export const ONE_FILE = '(SELECT * FROM {build} WHERE id < 50000)';

/** Probe rows counted by the value of `mark` (TRUE, FALSE or NULL), as text. */
function byMark(mark: string, probe = '{probe}'): string {
  return `SELECT CAST(m AS varchar), CAST(count(*) AS varchar), CAST(sum(id) AS varchar) FROM (SELECT p.id, ${mark} AS m FROM ${probe} p) t GROUP BY m`;
}

export const COUNTS = 'SELECT CAST(count(*) AS varchar), CAST(sum(p.id) AS varchar), CAST(max(p.id) AS varchar) FROM {probe} p';

export const QUERIES: Record<string, string> = {
  EXISTS: `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k)`,
  'NOT EXISTS': `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k)`,
  'EXISTS, every probe row kept (duplicates too)':
    'SELECT CAST(p.id AS varchar), p.name FROM {probe} p WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k)',
  'EXISTS with a filter': `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.small > p.small)`,
  'NOT EXISTS with a filter on strings': `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.name > p.name)`,
  'EXISTS with a filter of <> (as q21)': `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.small <> p.small)`,
  'EXISTS on two keys': `${COUNTS} WHERE EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.small = p.small)`,
  'IN on bigint (NULLs on both sides)': byMark('p.k IN (SELECT k FROM {build} WHERE small > 20)'),
  'IN without NULL build keys': byMark('p.k IN (SELECT k FROM {build} WHERE small > 20 AND k IS NOT NULL)'),
  "IN over one worker's rows": byMark(`p.k IN (SELECT k FROM ${ONE_FILE})`),
  "IN over one worker's rows without NULLs": byMark(`p.k IN (SELECT k FROM ${ONE_FILE} WHERE k IS NOT NULL)`),
  "NOT EXISTS over one worker's rows": `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM ${ONE_FILE} b WHERE b.k = p.k)`,
  'IN on varchar': byMark('p.name IN (SELECT name FROM {build} WHERE id % 4 = 0)'),
  'IN on decimal': byMark('p.price IN (SELECT price FROM {build})'),
  'IN on two columns': byMark('(p.k, p.small) IN (SELECT k, small FROM {build})'),
  'NOT IN': `${COUNTS} WHERE p.small NOT IN (SELECT small FROM {build} WHERE small > 20)`,
  'NOT IN with NULL build keys': `${COUNTS} WHERE p.k NOT IN (SELECT k FROM {build} WHERE small > 20)`,
  'IN over an empty build side': byMark(`p.k IN (SELECT k FROM ${EMPTY_BUILD})`),
  'NOT EXISTS over an empty build side': `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM ${EMPTY_BUILD} b WHERE b.k = p.k)`,
  'EXISTS over an empty probe side': `${COUNTS} WHERE p.id < 0 AND EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k)`,
  'IN over an empty probe side': byMark('p.k IN (SELECT k FROM {build})', '(SELECT * FROM {probe} WHERE id < 0)'),
  'EXISTS whose mark is projected (TRUE and FALSE kept)': byMark('EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.small > 10)'),
  'NOT EXISTS in a disjunction': `${COUNTS} WHERE NOT EXISTS (SELECT 1 FROM {build} b WHERE b.k = p.k AND b.name > p.name) OR p.small = 3`,
};

/** Rows as sorted text, so that NULLs order alike. */
export function sorted(rows: unknown[][]): string[] {
  return rows.map((r) => JSON.stringify(r.map((v) => (v === null ? null : String(v))))).sort();
}
