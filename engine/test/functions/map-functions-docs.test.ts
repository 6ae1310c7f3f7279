// Trino's documented examples of functions/map.md, with the page's results, run through the whole
// engine. The page prints results two ways ({key1=2373} as Trino's CLI does, {1 -> 2} elsewhere); both
// are compared in the CLI's form, lambdas included (map_filter, map_zip_with, transform_keys,
// transform_values), map_zip_with building rows and the functions whose entries are rows
// (map_from_entries, multimap_from_entries, map_entries) too.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { formatValueAsText } from '../../src/types/values.js';

/** Each documented statement and its documented result, as the page writes it. */
const DOCUMENTED: ReadonlyArray<[sql: string, result: string]> = [
  ["SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY[2373, 3463, 45837])", '{key1=2373, key2=3463, key3=45837}'],
  ["SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', 'v2', 'v3'])", '{key1=v1, key2=v2, key3=v3}'],
  ["SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY[23, 34.63, 45.837])", '{key1=23.000, key2=34.630, key3=45.837}'],
  ["SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', NULL, 'v3'])", '{key1=v1, key2=NULL, key3=v3}'],
  ["SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', 'v2', 'v3'])['key2']", 'v2'],
  ['SELECT map()', '{}'],
  ['SELECT map(ARRAY[1,3], ARRAY[2,4])', '{1 -> 2, 3 -> 4}'],
  ['SELECT map_filter(MAP(ARRAY[], ARRAY[]), (k, v) -> true)', '{}'],
  ["SELECT map_filter(MAP(ARRAY[10, 20, 30], ARRAY['a', NULL, 'c']), (k, v) -> v IS NOT NULL)", '{10 -> a, 30 -> c}'],
  ["SELECT map_filter(MAP(ARRAY['k1', 'k2', 'k3'], ARRAY[20, 3, 15]), (k, v) -> v > 10)", '{k1 -> 20, k3 -> 15}'],
  [
    "SELECT map_zip_with(MAP(ARRAY[1, 2, 3], ARRAY['a', 'b', 'c']), MAP(ARRAY[1, 2, 3], ARRAY['d', 'e', 'f']), (k, v1, v2) -> concat(v1, v2))",
    '{1 -> ad, 2 -> be, 3 -> cf}',
  ],
  [
    "SELECT map_zip_with(MAP(ARRAY['a', 'b', 'c'], ARRAY[1, 8, 27]), MAP(ARRAY['a', 'b', 'c'], ARRAY[1, 2, 3]), (k, v1, v2) -> k || CAST(v1 / v2 AS VARCHAR))",
    '{a -> a1, b -> b4, c -> c9}',
  ],
  ['SELECT transform_keys(MAP(ARRAY[], ARRAY[]), (k, v) -> k + 1)', '{}'],
  ["SELECT transform_keys(MAP(ARRAY [1, 2, 3], ARRAY ['a', 'b', 'c']), (k, v) -> k + 1)", '{2 -> a, 3 -> b, 4 -> c}'],
  ["SELECT transform_keys(MAP(ARRAY ['a', 'b', 'c'], ARRAY [1, 2, 3]), (k, v) -> v * v)", '{1 -> 1, 4 -> 2, 9 -> 3}'],
  ["SELECT transform_keys(MAP(ARRAY ['a', 'b'], ARRAY [1, 2]), (k, v) -> k || CAST(v as VARCHAR))", '{a1 -> 1, b2 -> 2}'],
  [
    "SELECT transform_keys(MAP(ARRAY [1, 2], ARRAY [1.0, 1.4]), (k, v) -> MAP(ARRAY[1, 2], ARRAY['one', 'two'])[k])",
    '{one -> 1.0, two -> 1.4}',
  ],
  ['SELECT transform_values(MAP(ARRAY[], ARRAY[]), (k, v) -> v + 1)', '{}'],
  ['SELECT transform_values(MAP(ARRAY [1, 2, 3], ARRAY [10, 20, 30]), (k, v) -> v + k)', '{1 -> 11, 2 -> 22, 3 -> 33}'],
  ["SELECT transform_values(MAP(ARRAY [1, 2, 3], ARRAY ['a', 'b', 'c']), (k, v) -> k * k)", '{1 -> 1, 2 -> 4, 3 -> 9}'],
  ["SELECT transform_values(MAP(ARRAY ['a', 'b'], ARRAY [1, 2]), (k, v) -> k || CAST(v as VARCHAR))", '{a -> a1, b -> b2}'],
  [
    "SELECT transform_values(MAP(ARRAY [1, 2], ARRAY [1.0, 1.4]), (k, v) -> MAP(ARRAY[1, 2], ARRAY['one', 'two'])[k] || '_' || CAST(v AS VARCHAR))",
    '{1 -> one_1.0, 2 -> two_1.4}',
  ],
];

/** The documented examples of the functions whose entries are rows: refused until those functions exist. */
const ENTRY_ROWS: ReadonlyArray<[sql: string, result: string]> = [
  ["SELECT map_from_entries(ARRAY[(1, 'x'), (2, 'y')])", "{1 -> 'x', 2 -> 'y'}"],
  ["SELECT multimap_from_entries(ARRAY[(1, 'x'), (2, 'y'), (1, 'z')])", "{1 -> ['x', 'z'], 2 -> ['y']}"],
  ["SELECT map_entries(MAP(ARRAY[1, 2], ARRAY['x', 'y']))", "[ROW(1, 'x'), ROW(2, 'y')]"],
];

/** The page's functions without an example, each with the behaviour its description states. */
const DESCRIBED: ReadonlyArray<[sql: string, result: string]> = [
  // Returns the cardinality (size) of the map x.
  ["SELECT cardinality(MAP(ARRAY['a', 'b'], ARRAY[1, 2]))", '2'],
  ['SELECT cardinality(map())', '0'],
  // Returns value for given key, or NULL if the key is not contained in the map.
  ["SELECT element_at(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), 'b')", '2'],
  ["SELECT element_at(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), 'c')", 'NULL'],
  // Returns the union of all the given maps; a key found in several takes the last one's value.
  ['SELECT map_concat(MAP(ARRAY[1, 2], ARRAY[10, 20]), MAP(ARRAY[2, 3], ARRAY[200, 300]))[2]', '200'],
  ['SELECT cardinality(map_concat(MAP(ARRAY[1, 2], ARRAY[10, 20]), MAP(ARRAY[2, 3], ARRAY[200, 300]), MAP(ARRAY[4], ARRAY[4])))', '4'],
  // Returns all the keys / all the values in the map x.
  ["SELECT map_keys(MAP(ARRAY['a', 'b'], ARRAY[1, 2]))", '[a, b]'],
  ["SELECT map_values(MAP(ARRAY['a', 'b'], ARRAY[1, NULL]))", '[1, NULL]'],
];

/** The CLI's form of a documented result: `{1 -> 2}` is `{1=2}`. */
function cliForm(documented: string): string {
  return documented.replaceAll(' -> ', '=');
}

describe('Trino documentation: functions/map.md', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  async function textOf(sql: string): Promise<string> {
    const { rows, columns } = await engine.query(sql);
    return formatValueAsText(rows[0][0], columns[0].type);
  }

  for (const [sql, result] of DOCUMENTED) {
    it(`${sql} -> ${result}`, async () => {
      expect(await textOf(sql)).to.equal(cliForm(result));
    });
  }

  for (const [sql, result] of DESCRIBED) {
    it(`(described) ${sql} -> ${result}`, async () => {
      expect(await textOf(sql)).to.equal(result);
    });
  }

  it('types the documented constructors as Trino does', async () => {
    const sql =
      "SELECT MAP(ARRAY['key1', 'key2'], ARRAY[23, 34.63]), map(), map(ARRAY[1,3], ARRAY[2,4]), typeof(map(ARRAY[1], ARRAY['a']))";
    const { types, rows } = await engine.query(sql);
    expect(types).to.deep.equal(['map(varchar(4), decimal(12,2))', 'map(unknown, unknown)', 'map(integer, integer)', 'varchar(24)']);
    expect(rows[0][3]).to.equal('map(integer, varchar(1))');
  });

  it('the subscript operator fails for a missing key naming it; element_at gives NULL', async () => {
    const missing = await engine.failure("SELECT MAP(ARRAY['key1', 'key2'], ARRAY[1, 2])['key9']");
    expect([missing.errorName, missing.rawMessage]).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'Key not present in map: key9']);
    expect((await engine.failure('SELECT MAP(ARRAY[1.5], ARRAY[1])[2.5]')).rawMessage).to.equal('Key not present in map: 2.5');
    expect(await textOf("SELECT element_at(MAP(ARRAY['key1'], ARRAY[1]), 'key9')")).to.equal('NULL');
  });

  it("keys a lambda makes are checked as a constructor checks them, with Trino's messages", async () => {
    const repeated = await engine.failure('SELECT transform_keys(MAP(ARRAY[1, 2], ARRAY[1, 2]), (k, v) -> 5)');
    expect([repeated.errorName, repeated.rawMessage]).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'Duplicate keys (5) are not allowed']);
    expect((await engine.failure('SELECT transform_keys(MAP(ARRAY[1, 2], ARRAY[1, 2]), (k, v) -> NULL)')).rawMessage).to.equal(
      'map key cannot be null',
    );
    expect((await engine.failure('SELECT map_filter(MAP(ARRAY[1], ARRAY[1]), (k, v) -> v)')).errorName).to.equal('FUNCTION_NOT_FOUND');
  });

  it('map_zip_with building rows gives the documented {k1 -> ROW(1, null), k2 -> ROW(2, 4), k3 -> ROW(null, 9)}', async () => {
    const sql = "SELECT map_zip_with(MAP(ARRAY['k1', 'k2'], ARRAY[1, 2]), MAP(ARRAY['k2', 'k3'], ARRAY[4, 9]), (k, v1, v2) -> (v1, v2))";
    const { rows, types } = await engine.query(sql);
    expect(types).to.deep.equal(['map(varchar(2), row(integer, integer))']);
    const map = rows[0][0] as { keys: readonly unknown[]; values: readonly unknown[] };
    expect([map.keys, map.values]).to.deep.equal([
      ['k1', 'k2', 'k3'],
      [
        [1, null],
        [2, 4],
        [null, 9],
      ],
    ]);
  });

  it('the functions whose entries are rows, as documented (the page quotes text and names rows)', async () => {
    for (const [sql, documented] of ENTRY_ROWS) {
      const expected = cliForm(documented).replaceAll("'", '').replaceAll('ROW(', '{').replaceAll(')', '}');
      expect(await textOf(sql), sql).to.equal(expected);
    }
  });

  it('entries are checked as Trino checks them', async () => {
    for (const [sql, message] of [
      ["SELECT map_from_entries(ARRAY[(1, 'x'), (1, 'y')])", 'Duplicate map keys (1) are not allowed'],
      ["SELECT map_from_entries(ARRAY[(1, 'x'), NULL])", 'map entry cannot be null'],
      ["SELECT multimap_from_entries(ARRAY[(NULL, 'x')])", 'map key cannot be null'],
    ]) {
      const error = await engine.failure(sql);
      expect([error.errorName, error.rawMessage], sql).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', message]);
    }
    expect(await textOf('SELECT map_from_entries(NULL)')).to.equal('NULL');
  });
});
