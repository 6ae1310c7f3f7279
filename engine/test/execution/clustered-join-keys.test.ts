// Joins whose keys come in runs (tables stored by their key, as lineitem by order) give DuckDB's
// answers: the integer join table is sized by the build side's runs of equal keys, and a memory scan
// drops rows against a dynamic filter's value bitmap. Keys repeat in runs with NULLs inside them,
// differ only in their high word, pass 2^53, are negative, or are short decimals; on worker threads
// and in the main thread.

import { expect } from 'chai';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';
import { DIGITS, ID, IN_MAIN_THREAD, IN_WORKERS, SIX_DIGITS, useThreadsOnMemory } from '../parallel/parallel-helpers.js';

/** 200,000 rows stored by `k`: runs of up to 4 rows per key, a NULL key in some runs, high-word and beyond-2^53 keys. */
const ORDERED_ROWS = `SELECT id,
    CASE WHEN id % 97 = 3 THEN NULL
         WHEN id % 1000 < 4 THEN 4294967296 * (id - id % 1000)
         WHEN id % 5000 < 4 THEN 9007199254740993 + (id - id % 4)
         ELSE id - id % 4 - 100000 END AS k,
    CAST(id - id % 4 AS decimal(12,2)) * 0.125 - 100 AS price
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x < 2) t ORDER BY id`;

/** A fifth of the keys, each once or three times, in key order: a small build side whose keys a dynamic filter holds. */
const SOME_KEYS = `SELECT k, price FROM ordered WHERE id % 20 IN (0, 1, 2, 4) ORDER BY k`;

/** Keys within a span a dynamic filter holds as a bitmap (the probe side's high-word and beyond-2^53 keys are outside it). */
const NEAR_KEYS = `SELECT k FROM some_keys WHERE k BETWEEN -100000 AND 100000`;

const QUERIES: Record<string, string> = {
  'inner join on keys a bitmap holds': 'SELECT count(*), sum(o.id) FROM ordered o JOIN near_keys s ON o.k = s.k',
  'IN keys a bitmap holds': 'SELECT count(*), sum(id) FROM ordered WHERE k IN (SELECT k FROM near_keys)',
  'inner join': 'SELECT count(*), sum(o.id), count(s.price) FROM ordered o JOIN some_keys s ON o.k = s.k',
  'self join on the key': 'SELECT count(*), sum(a.id - b.id) FROM ordered a JOIN ordered b ON a.k = b.k',
  EXISTS: 'SELECT count(*), sum(o.id) FROM ordered o WHERE EXISTS (SELECT 1 FROM some_keys s WHERE s.k = o.k)',
  'NOT EXISTS': 'SELECT count(*), sum(o.id) FROM ordered o WHERE NOT EXISTS (SELECT 1 FROM some_keys s WHERE s.k = o.k)',
  'NOT EXISTS with a filter': `SELECT count(*), sum(o.id) FROM ordered o
    WHERE NOT EXISTS (SELECT 1 FROM ordered b WHERE b.k = o.k AND b.id <> o.id)`,
  'IN on a decimal key': 'SELECT count(*), sum(id) FROM ordered WHERE price IN (SELECT price FROM some_keys WHERE price < 0)',
  'left join': 'SELECT count(*), count(s.k), sum(o.id) FROM ordered o LEFT JOIN some_keys s ON o.k = s.k',
};

describe('joins on clustered integer keys equal DuckDB', function () {
  this.timeout(600_000);
  let both: EngineAndDuckDb;

  before(async () => {
    both = await EngineAndDuckDb.open();
    useThreadsOnMemory(both.engine);
    await both.runOnBoth(
      `CREATE TABLE digits AS ${DIGITS}`,
      `CREATE TABLE ordered AS ${ORDERED_ROWS}`,
      `CREATE TABLE some_keys AS ${SOME_KEYS}`,
      `CREATE TABLE near_keys AS ${NEAR_KEYS}`,
    );
  });

  after(() => both.close());

  for (const [where, properties] of Object.entries({ 'on the threads': IN_WORKERS, 'in the main thread': IN_MAIN_THREAD })) {
    for (const [name, sql] of Object.entries(QUERIES)) {
      it(`${name}, ${where}`, async () => {
        for (const [property, value] of Object.entries(properties)) both.engine.session.properties.set(property, value);
        expect(await both.expectSame(sql)).not.to.be.empty;
      });
    }
  }
});
