// Maps on random rows (NULL maps, empty maps, NULL values) answer as DuckDB's MAP type does, where the
// two define the same thing. DuckDB compares maps entry by entry in order (Trino: as sets of entries),
// and a NULL value makes DuckDB's = false where Trino's is NULL, so the maps compared with = and
// grouped (b, c) are built from sorted keys and hold no NULL values (a does); results whose entry order
// neither defines (map_concat, the aggregates) are compared with their entries sorted. DuckDB has no
// map_agg or multimap_agg: their oracle is MAP(list(k), list(v)) over the same rows.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBMapValue } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';
import { MapValue } from '../../src/types/map-value.js';

/** A seeded generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROWS = 300;

/** Distinct keys of 0..8 (sorted when `sorted`), values of -2..6 (or NULL, unless `sorted`): ARRAY literals for both engines' MAP(keys, values). */
function mapArrays(next: () => number, sorted: boolean): [keys: string, values: string] | undefined {
  if (next() < 0.08) return undefined;
  const keys = [...new Set(Array.from({ length: Math.floor(next() * 6) }, () => Math.floor(next() * 9)))];
  if (sorted) keys.sort((a, b) => a - b);
  const values = keys.map(() => (!sorted && next() < 0.15 ? 'NULL' : String(Math.floor(next() * 9) - 2)));
  return [`ARRAY[${keys.join(', ')}]::integer[]`, `ARRAY[${values.join(', ')}]::integer[]`];
}

function mapLiteral(arrays: [string, string] | undefined, duck: boolean): string {
  if (arrays === undefined) return 'NULL';
  const [keys, values] = duck ? arrays : arrays.map((a) => `CAST(${a.replace('::integer[]', '')} AS array(integer))`);
  return `MAP(${keys}, ${values})`;
}

function rows(duck: boolean): string[] {
  const next = random(23);
  return Array.from({ length: ROWS }, (_, id) => {
    const a = mapArrays(next, false);
    const b = mapArrays(next, true);
    const c = mapArrays(next, true);
    return `(${id}, ${mapLiteral(a, duck)}, ${mapLiteral(b, duck)}, ${mapLiteral(c, duck)}, ${Math.floor(next() * 10)}, ${Math.floor(next() * 4)})`;
  });
}

/** Values as text: maps (ours and DuckDB's) as {k=v, ...} in entry order, lists as [a, b]. */
function text(v: unknown, sortEntries = false): string {
  if (v === null || v === undefined) return 'NULL';
  if (v instanceof MapValue || v instanceof DuckDBMapValue) {
    const entries =
      v instanceof MapValue
        ? v.keys.map((k, i) => `${text(k)}=${text(v.values[i])}`)
        : v.entries.map((e) => `${text(e.key)}=${text(e.value)}`);
    if (sortEntries) entries.sort();
    return `{${entries.join(', ')}}`;
  }
  if (Array.isArray(v)) return `[${v.map((e) => text(e)).join(', ')}]`;
  if (typeof v === 'object' && 'items' in (v as object)) return text((v as { items: unknown[] }).items);
  return String(v);
}

const sorted = (v: unknown) => text(v, true);

describe('maps equal DuckDB maps on random rows', function () {
  this.timeout(60_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    await engine.run(
      'CREATE TABLE r (id integer, a map(integer, integer), b map(integer, integer), c map(integer, integer), k integer, g integer)',
      `INSERT INTO r VALUES ${rows(false).join(', ')}`,
    );
    await duck.run(
      'CREATE TABLE r (id INTEGER, a MAP(INTEGER, INTEGER), b MAP(INTEGER, INTEGER), c MAP(INTEGER, INTEGER), k INTEGER, g INTEGER)',
    );
    await duck.run(`INSERT INTO r VALUES ${rows(true).join(', ')}`);
  });

  after(() => duck.closeSync());

  async function expectSame(ours: string, theirs: string, format: (v: unknown) => string = (v) => text(v)): Promise<void> {
    const mine = (await engine.query(ours)).rows.map((r) => r.map(format));
    const duckdb = (await duckRows(duck, theirs)).map((r) => r.map(format));
    expect(mine.length, ours).to.be.greaterThan(0);
    const differing = mine.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(duckdb[i]));
    expect(differing === -1 ? [] : [mine[differing], duckdb[differing]], ours).to.deep.equal(
      differing === -1 ? [] : [duckdb[differing], duckdb[differing]],
    );
    expect(mine).to.have.length(duckdb.length);
  }

  it('the maps themselves, cardinality, element_at, map_keys, map_values', async () => {
    await expectSame(
      'SELECT id, a, cardinality(a), element_at(a, k), map_keys(a), map_values(a) FROM r ORDER BY id',
      'SELECT id, a, cardinality(a), map_extract_value(a, k), map_keys(a), map_values(a) FROM r ORDER BY id',
    );
  });

  it('m[k] where the key is there', async () => {
    await expectSame(
      'SELECT id, a[k] FROM r WHERE contains(map_keys(a), k) ORDER BY id',
      'SELECT id, a[k] FROM r WHERE list_contains(map_keys(a), k) ORDER BY id',
    );
  });

  it('map_concat (the later map wins a key), entries compared sorted', async () => {
    // A NULL map makes map_concat NULL in Trino; DuckDB's skips it.
    await expectSame(
      'SELECT id, map_concat(a, b), map_concat(b, c, a) FROM r ORDER BY id',
      'SELECT id, CASE WHEN a IS NOT NULL AND b IS NOT NULL THEN map_concat(a, b) END, CASE WHEN a IS NOT NULL AND b IS NOT NULL AND c IS NOT NULL THEN map_concat(b, c, a) END FROM r ORDER BY id',
      sorted,
    );
  });

  it('= and IS DISTINCT FROM of maps of sorted keys', async () => {
    await expectSame(
      'SELECT x.id, y.id, x.b = y.c, x.b IS DISTINCT FROM y.c FROM r x JOIN r y ON x.id + 1 = y.id ORDER BY x.id',
      'SELECT x.id, y.id, x.b = y.c, x.b IS DISTINCT FROM y.c FROM r x JOIN r y ON x.id + 1 = y.id ORDER BY x.id',
    );
    await expectSame('SELECT count(*) FROM r x JOIN r y ON x.b = y.c', 'SELECT count(*) FROM r x JOIN r y ON x.b = y.c');
  });

  it('GROUP BY and DISTINCT on maps', async () => {
    await expectSame(
      'SELECT b, count(*) FROM r GROUP BY b ORDER BY count(*) DESC, min(id)',
      'SELECT b, count(*) FROM r GROUP BY b ORDER BY count(*) DESC, min(id)',
    );
    await expectSame('SELECT count(*) FROM (SELECT DISTINCT c FROM r)', 'SELECT count(*) FROM (SELECT DISTINCT c FROM r)');
  });

  it('histogram, map_agg and multimap_agg per group', async () => {
    await expectSame('SELECT g, histogram(k) FROM r GROUP BY g ORDER BY g', 'SELECT g, histogram(k) FROM r GROUP BY g ORDER BY g', sorted);
    await expectSame(
      'SELECT g, map_agg(id, a) FROM r GROUP BY g ORDER BY g',
      'SELECT g, MAP(list(id), list(a)) FROM r GROUP BY g ORDER BY g',
      sorted,
    );
    await expectSame(
      'SELECT g, transformed FROM (SELECT g, map_agg(k, cnt) AS transformed FROM (SELECT g, k, count(*) AS cnt FROM r GROUP BY g, k) GROUP BY g) ORDER BY g',
      'SELECT g, MAP(list(k), list(cnt)) FROM (SELECT g, k, count(*) AS cnt FROM r GROUP BY g, k) GROUP BY g ORDER BY g',
      sorted,
    );
    const ours = (await engine.query('SELECT g, multimap_agg(k, id) FROM r GROUP BY g ORDER BY g')).rows;
    const theirs = await duckRows(
      duck,
      'SELECT g, MAP(list(k), list(ids)) FROM (SELECT g, k, list(id ORDER BY id) AS ids FROM r GROUP BY g, k) GROUP BY g ORDER BY g',
    );
    const withSortedLists = (v: unknown) => {
      if (!(v instanceof MapValue)) return sorted(v);
      return sorted(
        new MapValue(
          v.keys,
          v.values.map((l) => [...(l as number[])].sort((x, y) => x - y)),
        ),
      );
    };
    expect(ours.map((r) => r.map(withSortedLists))).to.deep.equal(theirs.map((r) => r.map(sorted)));
  });

  it('UNNEST of a map WITH ORDINALITY', async () => {
    await expectSame(
      'SELECT id, key, value, o FROM r CROSS JOIN UNNEST(a) WITH ORDINALITY AS t(key, value, o) ORDER BY id, o',
      'SELECT id, map_keys(a)[o] AS key, map_values(a)[o] AS value, o FROM (SELECT id, a, generate_subscripts(map_keys(a), 1) AS o FROM r) ORDER BY id, o',
    );
  });

  it('CAST to map(varchar, double)', async () => {
    await expectSame(
      'SELECT id, CAST(a AS map(varchar, double)) FROM r ORDER BY id',
      'SELECT id, CAST(a AS MAP(VARCHAR, DOUBLE)) FROM r ORDER BY id',
    );
  });
});
