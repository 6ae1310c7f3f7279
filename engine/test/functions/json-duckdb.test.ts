// json_extract, json_extract_scalar and json_array_length on random JSON documents answer as DuckDB's
// json extension does where the two define the same thing: paths of member names and array indexes
// (`$.a[1].b`), documents with no digit-only keys (Trino's `[0]` also reads a member named "0"),
// integers and strings only (DuckDB rewrites fractions). DuckDB's json_extract_string also returns
// arrays and objects as text where Trino's json_extract_scalar is NULL, and its json_array_length is 0
// for a non-array where Trino's is NULL: those cases are compared to the rule instead.

import { expect } from 'chai';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';

const KEYS = ['a', 'b', 'c', 'name', 'x_1'];

function randomValue(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.35) {
    const s = next();
    if (s < 0.4) return Math.floor(next() * 2000) - 1000;
    if (s < 0.7) return ['x', 'héllo', 'quo"te', 'back\\slash', ''][Math.floor(next() * 5)];
    return s < 0.8 ? null : s < 0.9;
  }
  if (r < 0.65) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 4); i > 0; i--) object[KEYS[Math.floor(next() * KEYS.length)]] = randomValue(next, depth + 1);
  return object;
}

function randomPath(next: () => number): string {
  let path = '$';
  for (let i = Math.floor(next() * 4); i > 0; i--)
    path += next() < 0.5 ? `.${KEYS[Math.floor(next() * KEYS.length)]}` : `[${Math.floor(next() * 3)}]`;
  return path;
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

describe('JSON functions against DuckDB on random documents', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  const next = seededRandom(19);
  const cases = Array.from({ length: 300 }, (_, id) => ({ id, doc: JSON.stringify(randomValue(next, 0)), path: randomPath(next) }));
  const values = cases.map((c) => `(${c.id}, ${quote(c.doc)}, ${quote(c.path)})`).join(', ');

  it('json_extract gives the same JSON text (or NULL) for every document and path', async () => {
    const ours = await engine.query(`SELECT id, json_format(json_extract(doc, path)) FROM (VALUES ${values}) t(id, doc, path) ORDER BY id`);
    const duck = await openDuckDb(1);
    const theirs = await duckRows(duck, `SELECT id, json_extract(doc, path)::varchar FROM (VALUES ${values}) t(id, doc, path) ORDER BY id`);
    expect(ours.rows.map((r) => [Number(r[0]), r[1]])).to.deep.equal(theirs.map((r) => [Number(r[0]), r[1]]));
    expect(theirs.filter((r) => r[1] !== null).length).to.be.greaterThan(60);
  });

  it("json_extract_scalar gives DuckDB's json_extract_string for scalars, NULL for arrays, objects and null", async () => {
    const ours = await engine.query(`SELECT id, json_extract_scalar(doc, path) FROM (VALUES ${values}) t(id, doc, path) ORDER BY id`);
    const duck = await openDuckDb(1);
    const theirs = await duckRows(
      duck,
      `SELECT id, CASE WHEN json_type(doc, path) IN ('ARRAY', 'OBJECT', 'NULL') THEN NULL ELSE json_extract_string(doc, path) END FROM (VALUES ${values}) t(id, doc, path) ORDER BY id`,
    );
    expect(ours.rows.map((r) => [Number(r[0]), r[1]])).to.deep.equal(theirs.map((r) => [Number(r[0]), r[1]]));
  });

  it("json_array_length gives DuckDB's for arrays and NULL otherwise", async () => {
    const ours = await engine.query(
      `SELECT id, json_array_length(json_extract(doc, path)) FROM (VALUES ${values}) t(id, doc, path) ORDER BY id`,
    );
    const duck = await openDuckDb(1);
    const theirs = await duckRows(
      duck,
      `SELECT id, CASE WHEN json_type(doc, path) = 'ARRAY' THEN json_array_length(doc, path) END FROM (VALUES ${values}) t(id, doc, path) ORDER BY id`,
    );
    expect(ours.rows.map((r) => [Number(r[0]), r[1] === null ? null : Number(r[1])])).to.deep.equal(
      theirs.map((r) => [Number(r[0]), r[1] === null ? null : Number(r[1])]),
    );
  });
});
