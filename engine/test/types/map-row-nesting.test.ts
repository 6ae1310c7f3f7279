// Maps of rows and rows holding maps in a memory table (CREATE TABLE, INSERT, SELECT, GROUP BY, field
// access, lambdas, UNNEST, CTAS) answer as DuckDB's MAP and STRUCT do on the same random rows. Map keys
// are sorted (DuckDB compares maps entry by entry in order, Trino as sets of entries) and the grouped
// values hold no NULL field (DuckDB's struct `=` treats a NULL field as a value, Trino's is NULL).

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBMapValue, DuckDBStructValue } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';
import { MapValue } from '../../src/types/map-value.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { IN_WORKERS, rowsWith } from '../parallel/parallel-helpers.js';

const ROWS = 200;
const M_TYPE = 'map(varchar, row(x integer, y varchar))';
const R_TYPE = 'row(k integer, tags map(varchar, integer))';

interface Generated {
  /** Sorted keys of a..c and their (x, y) rows; undefined for a NULL map. */
  m?: [key: string, x: number | null, y: string][];
  /** k and the sorted tags of u..v; undefined for a NULL row. */
  r?: [k: number, tags: [key: string, value: number][]];
}

function generate(): Generated[] {
  const next = seededRandom(7);
  const pick = <T>(values: readonly T[]) => values.filter(() => next() < 0.5);
  return Array.from({ length: ROWS }, () => ({
    m:
      next() < 0.1
        ? undefined
        : pick(['a', 'b', 'c']).map(
            (key) => [key, next() < 0.2 ? null : Math.floor(next() * 2), next() < 0.5 ? 'p' : 'q'] as [string, number | null, string],
          ),
    r:
      next() < 0.1 ? undefined : [Math.floor(next() * 3), pick(['u', 'v']).map((key) => [key, Math.floor(next() * 2)] as [string, number])],
  }));
}

function ourRow(id: number, g: Generated): string {
  const m =
    g.m === undefined
      ? 'NULL'
      : `CAST(MAP(CAST(ARRAY[${g.m.map(([key]) => `'${key}'`).join(', ')}] AS array(varchar)), CAST(ARRAY[${g.m.map(([, x, y]) => `ROW(${x ?? 'NULL'}, '${y}')`).join(', ')}] AS array(row(integer, varchar)))) AS ${M_TYPE})`;
  const tags =
    g.r === undefined
      ? ''
      : `MAP(CAST(ARRAY[${g.r[1].map(([key]) => `'${key}'`).join(', ')}] AS array(varchar)), CAST(ARRAY[${g.r[1].map(([, v]) => v).join(', ')}] AS array(integer)))`;
  const r = g.r === undefined ? 'NULL' : `CAST(ROW(${g.r[0]}, ${tags}) AS ${R_TYPE})`;
  return `(${id}, ${m}, ${r})`;
}

function duckRow(id: number, g: Generated): string {
  const m =
    g.m === undefined
      ? 'NULL'
      : `MAP {${g.m.map(([key, x, y]) => `'${key}': {'x': ${x ?? 'NULL'}::INTEGER, 'y': '${y}'}`).join(', ')}}::MAP(VARCHAR, STRUCT(x INTEGER, y VARCHAR))`;
  const r =
    g.r === undefined
      ? 'NULL'
      : `{'k': ${g.r[0]}, 'tags': MAP {${g.r[1].map(([key, v]) => `'${key}': ${v}`).join(', ')}}::MAP(VARCHAR, INTEGER)}`;
  return `(${id}, ${m}, ${r})`;
}

/** Values as text, ours and DuckDB's alike: maps as {k=v, ...} in entry order, rows and structs as (a, b), lists as [a, b]. */
function text(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (v instanceof MapValue) return `{${v.keys.map((k, i) => `${text(k)}=${text(v.values[i])}`).join(', ')}}`;
  if (v instanceof DuckDBMapValue) return `{${v.entries.map((e) => `${text(e.key)}=${text(e.value)}`).join(', ')}}`;
  if (v instanceof DuckDBStructValue) return `(${Object.values(v.entries).map(text).join(', ')})`;
  if (Array.isArray(v)) return `(${v.map(text).join(', ')})`;
  if (typeof v === 'object' && 'items' in (v as object)) return `[${(v as { items: unknown[] }).items.map(text).join(', ')}]`;
  return String(v);
}

describe('maps of rows and rows holding maps equal DuckDB on random rows', function () {
  this.timeout(60_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    const generated = generate();
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    await engine.run(
      `CREATE TABLE t (id integer, m ${M_TYPE}, r ${R_TYPE})`,
      `INSERT INTO t VALUES ${generated.map((g, id) => ourRow(id, g)).join(', ')}`,
    );
    await duck.run(
      'CREATE TABLE t (id INTEGER, m MAP(VARCHAR, STRUCT(x INTEGER, y VARCHAR)), r STRUCT(k INTEGER, tags MAP(VARCHAR, INTEGER)))',
    );
    await duck.run(`INSERT INTO t VALUES ${generated.map((g, id) => duckRow(id, g)).join(', ')}`);
  });

  after(() => duck.closeSync());

  async function expectSame(ours: string, theirs: string, properties: Record<string, string> = {}): Promise<void> {
    const mine = (await rowsWith(engine, ours, properties)).map((r) => r.map(text));
    const duckdb = (await duckRows(duck, theirs)).map((r) => r.map(text));
    expect(mine.length, ours).to.be.greaterThan(0);
    const differing = mine.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(duckdb[i]));
    expect(differing === -1 ? [] : [mine[differing], duckdb[differing]], ours).to.deep.equal(
      differing === -1 ? [] : [duckdb[differing], duckdb[differing]],
    );
    expect(mine).to.have.length(duckdb.length);
  }

  it('types the columns as declared', async () => {
    const { types } = await engine.query('SELECT m, r FROM t LIMIT 1');
    expect(types).to.deep.equal(['map(varchar, row("x" integer, "y" varchar))', 'row("k" integer, "tags" map(varchar, integer))']);
  });

  it('reads back the values inserted, and their parts: m[key].x, r.k, r.tags[key], cardinality', async () => {
    await expectSame('SELECT id, m, r FROM t ORDER BY id', 'SELECT id, m, r FROM t ORDER BY id');
    await expectSame(
      "SELECT id, element_at(m, 'a').x, element_at(m, 'b').y, cardinality(m), r.k, element_at(r.tags, 'u'), cardinality(r.tags) FROM t ORDER BY id",
      "SELECT id, map_extract_value(m, 'a').x, map_extract_value(m, 'b').y, cardinality(m), r.k, map_extract_value(r.tags, 'u'), cardinality(r.tags) FROM t ORDER BY id",
    );
  });

  it('GROUP BY a map of rows, a row holding a map, and the map inside the row', async () => {
    // Only maps whose rows have no NULL field are grouped (see the header).
    await expectSame(
      'SELECT m, count(*), min(id) FROM t WHERE NOT contains(transform(map_values(m), v -> v.x IS NULL), true) GROUP BY m ORDER BY min(id)',
      'SELECT m, count(*), min(id) FROM t WHERE NOT list_contains(list_transform(map_values(m), v -> v.x IS NULL), true) GROUP BY m ORDER BY min(id)',
    );
    await expectSame(
      'SELECT r, count(*), min(id) FROM t GROUP BY r ORDER BY min(id)',
      'SELECT r, count(*), min(id) FROM t GROUP BY r ORDER BY min(id)',
    );
    await expectSame(
      'SELECT r.tags, count(*), min(id) FROM t GROUP BY r.tags ORDER BY min(id)',
      'SELECT r.tags, count(*), min(id) FROM t GROUP BY r.tags ORDER BY min(id)',
    );
    await expectSame('SELECT count(*) FROM (SELECT DISTINCT m, r FROM t)', 'SELECT count(*) FROM (SELECT DISTINCT m, r FROM t)');
  });

  it('= on rows holding maps (the self join of each row with the next)', async () => {
    await expectSame(
      'SELECT x.id, x.r = y.r FROM t x JOIN t y ON x.id + 1 = y.id ORDER BY x.id',
      'SELECT x.id, x.r = y.r FROM t x JOIN t y ON x.id + 1 = y.id ORDER BY x.id',
    );
  });

  it('a row holding a map has no order, as in Trino: ORDER BY, < and max refuse it', async () => {
    const order = await engine.failure('SELECT r FROM t ORDER BY r');
    expect([order.errorName, order.rawMessage]).to.deep.equal([
      'TYPE_MISMATCH',
      'row("k" integer, "tags" map(varchar, integer)) is not orderable, and therefore cannot be used in ORDER BY',
    ]);
    expect((await engine.failure('SELECT x.r < y.r FROM t x, t y')).errorName).to.equal('TYPE_MISMATCH');
    expect((await engine.failure('SELECT max(r) FROM t')).errorName).to.equal('FUNCTION_NOT_FOUND');
  });

  it('a lambda reads the fields of the map values: transform_values(m, (k, v) -> v.x)', async () => {
    await expectSame(
      'SELECT id, transform_values(m, (k, v) -> v.x * 10) FROM t ORDER BY id',
      'SELECT id, CASE WHEN m IS NOT NULL THEN MAP(map_keys(m), list_transform(map_values(m), v -> v.x * 10)) END FROM t ORDER BY id',
    );
  });

  it('UNNEST of a map of rows gives the key and the whole row', async () => {
    await expectSame(
      'SELECT id, key, value, value.y FROM t CROSS JOIN UNNEST(m) AS u(key, value) ORDER BY id, key',
      'SELECT id, e.key, e.value, e.value.y FROM (SELECT id, unnest(map_entries(m)) AS e FROM t) ORDER BY id, e.key',
    );
  });

  it('worker threads read them from shared memory, filter on their parts and send them back', async () => {
    const before = sharedThreadPool().stats().tasksStarted;
    await expectSame(
      "SELECT id, m, r FROM t WHERE r.k = 1 OR element_at(m, 'c').y = 'p' ORDER BY id",
      "SELECT id, m, r FROM t WHERE r.k = 1 OR map_extract_value(m, 'c').y = 'p' ORDER BY id",
      IN_WORKERS,
    );
    expect(sharedThreadPool().stats().tasksStarted).to.be.greaterThan(before);
  });

  it('CREATE TABLE AS and INSERT ... SELECT copy them unchanged', async () => {
    await engine.run('CREATE TABLE t2 AS SELECT * FROM t', 'INSERT INTO t2 SELECT id + 1000, m, r FROM t');
    await expectSame('SELECT id, m, r FROM t2 ORDER BY id', 'SELECT id, m, r FROM t UNION ALL SELECT id + 1000, m, r FROM t ORDER BY id');
  });
});
