// Array functions on random arrays (NULL arrays, empty arrays, NULL elements, duplicates) answer as
// DuckDB's list functions do, where the two define the same thing. Where their NULL handling differs
// (Trino's contains, array_max/min and arrays_overlap answer NULL when a NULL element could matter,
// DuckDB skips NULL elements) the compared arrays hold no NULL elements; results whose order neither
// defines (DuckDB's list_distinct, list_intersect) are compared sorted.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom as random } from '../support/seeded-random.js';

const ROWS = 300;

function arrayLiteral(next: () => number, nulls: boolean): string {
  if (nulls && next() < 0.08) return 'NULL';
  const length = Math.floor(next() * 7);
  const items = Array.from({ length }, () => (nulls && next() < 0.15 ? 'NULL' : String(Math.floor(next() * 9) - 2)));
  return `ARRAY[${items.join(', ')}]`;
}

function rows(): string[] {
  const next = random(19);
  return Array.from({ length: ROWS }, (_, id) => {
    const i = Math.floor(next() * 9) - 4;
    return `(${id}, ${arrayLiteral(next, true)}, ${arrayLiteral(next, false)}, ${arrayLiteral(next, false)}, ${i === 0 ? 1 : i}, ${Math.floor(next() * 6) - 2})`;
  });
}

/** Values as text: lists (DuckDB's {items}) and arrays alike, numbers and bigints alike. */
function text(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (Array.isArray(v)) return `[${v.map(text).join(', ')}]`;
  if (typeof v === 'object' && 'items' in (v as object)) return text((v as { items: unknown[] }).items);
  return String(v);
}

function sortedText(v: unknown): string {
  if (v === null || typeof v !== 'object') return text(v);
  return text([...(Array.isArray(v) ? v : (v as { items: unknown[] }).items)].sort((a, b) => Number(a) - Number(b)));
}

describe('array functions equal DuckDB list functions on random arrays', function () {
  this.timeout(60_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    const values = rows().join(', ');
    await engine.run(
      'CREATE TABLE r (id integer, a array(integer), b array(integer), c array(integer), i integer, n integer)',
      `INSERT INTO r VALUES ${values}`,
    );
    await duck.run('CREATE TABLE r (id INTEGER, a INTEGER[], b INTEGER[], c INTEGER[], i INTEGER, n INTEGER)');
    await duck.run(`INSERT INTO r VALUES ${values}`);
  });

  after(() => duck.closeSync());

  async function expectSame(ours: string, theirs: string, format: (v: unknown) => string = text): Promise<void> {
    const mine = (await engine.query(`SELECT id, ${ours} FROM r ORDER BY id`)).rows.map((r) => r.map(format));
    const duckdb = (await duckRows(duck, `SELECT id, ${theirs} FROM r ORDER BY id`)).map((r) => r.map(format));
    const differing = mine.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(duckdb[i]));
    expect(differing === -1 ? [] : [mine[differing], duckdb[differing]], ours).to.deep.equal(
      differing === -1 ? [] : [duckdb[differing], duckdb[differing]],
    );
    expect(mine).to.have.length(ROWS);
  }

  it('cardinality, element_at (negative from the end, NULL past it), reverse, concat, flatten', async () => {
    await expectSame('cardinality(a), element_at(a, i), element_at(b, i)', 'len(a), list_extract(a, i), list_extract(b, i)');
    // A NULL array makes concat NULL in Trino; DuckDB's list_concat takes it as empty.
    await expectSame(
      'reverse(a), concat(a, b), a || c',
      'list_reverse(a), CASE WHEN a IS NOT NULL THEN list_concat(a, b) END, CASE WHEN a IS NOT NULL THEN list_concat(a, c) END',
    );
    await expectSame('flatten(ARRAY[a, b, c])', 'flatten([a, b, c])');
  });

  it('array_sort (NULLs last), array_join, slice, array_position, sequence', async () => {
    // Trino joins an array of only NULL elements into '' (DuckDB: NULL).
    await expectSame(
      "array_sort(a), array_join(a, '/'), array_join(b, ',')",
      "list_sort(a, 'ASC', 'NULLS LAST'), CASE WHEN a IS NOT NULL THEN coalesce(array_to_string(a, '/'), '') END, array_to_string(b, ',')",
    );
    await expectSame('slice(a, abs(i), 3)', 'list_slice(a, abs(i), abs(i) + 2)');
    await expectSame('array_position(b, n)', 'coalesce(list_position(b, n), 0)');
    await expectSame(
      'sequence(n, i), sequence(i, n)',
      'generate_series(n, i, CASE WHEN i >= n THEN 1 ELSE -1 END), generate_series(i, n, CASE WHEN n >= i THEN 1 ELSE -1 END)',
    );
  });

  it('contains, array_max, array_min, arrays_overlap on arrays without NULL elements', async () => {
    await expectSame(
      'contains(b, n), array_max(b), array_min(c), arrays_overlap(b, c)',
      'list_contains(b, n), list_max(b), list_min(c), list_has_any(b, c)',
    );
  });

  it('array_distinct and array_intersect as sets', async () => {
    await expectSame('array_distinct(b)', 'list_distinct(b)', sortedText);
    await expectSame('array_intersect(b, c)', 'list_intersect(b, c)', sortedText);
  });

  it('= and < of arrays', async () => {
    await expectSame('b = c, b < c, b <> c', 'b = c, b < c, b <> c');
  });

  it('min and max of arrays (grouped), min_by with an array key, lag over arrays', async () => {
    // Keys made unique (the id appended) so that min_by has one answer.
    for (const [ours, theirs] of [
      ['SELECT n, min(b), max(b), min(c) FROM r GROUP BY n ORDER BY n'],
      [
        'SELECT n, min_by(id, b || id), max_by(id, c || id) FROM r GROUP BY n ORDER BY n',
        'SELECT n, min_by(id, list_append(b, id)), max_by(id, list_append(c, id)) FROM r GROUP BY n ORDER BY n',
      ],
      ['SELECT id, lag(b) OVER (ORDER BY id), lead(a, 2) OVER (ORDER BY id) FROM r ORDER BY id'],
    ]) {
      expect(
        (await engine.query(ours)).rows.map((r) => r.map(text)),
        ours,
      ).to.deep.equal((await duckRows(duck, theirs ?? ours)).map((r) => r.map(text)));
    }
  });

  it("transform, filter and reduce with lambdas capturing the row's columns (DuckDB's list_transform, list_filter, list_reduce)", async () => {
    await expectSame(
      'transform(a, x -> x * i + n), transform(b, x -> x IS NULL)',
      'list_transform(a, lambda x: x * i + n), list_transform(b, lambda x: x IS NULL)',
    );
    // A predicate that is NULL (a NULL element) drops the element in both.
    await expectSame(
      'filter(a, x -> x > n), filter(a, x -> x % i = 0)',
      'list_filter(a, lambda x: x > n), list_filter(a, lambda x: x % i = 0)',
    );
    // A NULL element makes the sum NULL in both; an empty array gives the initial state.
    await expectSame(
      'reduce(a, n, (s, x) -> s + x * i, s -> s * 2), reduce(c, 0, (s, x) -> greatest(s, x), s -> s)',
      'list_reduce(a, lambda s, x: s + x * i, n) * 2, list_reduce(c, lambda s, x: greatest(s, x), 0)',
    );
    await expectSame('transform(a, x -> filter(c, y -> y > x))', 'list_transform(a, lambda x: list_filter(c, lambda y: y > x))');
  });

  it("lambdas in WHERE and in an aggregation's argument", async () => {
    const ours =
      'SELECT n, count(*), sum(reduce(c, i, (s, x) -> s + x, s -> s)) FROM r WHERE cardinality(filter(a, x -> x > n)) > 1 GROUP BY n ORDER BY n';
    const theirs =
      'SELECT n, count(*), sum(list_reduce(c, lambda s, x: s + x, i)) FROM r WHERE len(list_filter(a, lambda x: x > n)) > 1 GROUP BY n ORDER BY n';
    const mine = (await engine.query(ours)).rows.map((r) => r.map(text));
    expect(mine.length).to.be.greaterThan(2);
    expect(mine).to.deep.equal((await duckRows(duck, theirs)).map((r) => r.map(text)));
  });

  it('UNNEST WITH ORDINALITY and array_agg with ORDER BY', async () => {
    const ours = await engine.query('SELECT id, x, o FROM r CROSS JOIN UNNEST(a) WITH ORDINALITY AS t(x, o) ORDER BY id, o');
    const theirs = await duckRows(
      duck,
      'SELECT id, a[o] AS x, o FROM (SELECT id, a, generate_subscripts(a, 1) AS o FROM r) ORDER BY id, o',
    );
    expect(ours.rows.map((r) => r.map(text))).to.deep.equal(theirs.map((r) => r.map(text)));
    const agg = 'SELECT n, array_agg(id ORDER BY i DESC, id) FROM r GROUP BY n ORDER BY n';
    expect((await engine.query(agg)).rows.map((r) => r.map(text))).to.deep.equal((await duckRows(duck, agg)).map((r) => r.map(text)));
  });
});
