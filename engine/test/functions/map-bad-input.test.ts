// Bad input to maps fails with Trino's error names and messages: repeated, NULL and indeterminate
// keys in MAP(...), key and value arrays of different lengths, a missing key under m[k], casts that
// make two keys equal, a key of the wrong type, ordering maps (they are comparable, not orderable),
// fewer than two maps for map_concat, and a 10-million-entry map_agg under a small memory limit.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('maps: bad input', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();

  async function failure(sql: string, h: EngineHarness = engine): Promise<[string, string]> {
    const e = await h.failure(sql);
    return [e.errorName, e.rawMessage];
  }

  it('refuses repeated, NULL and indeterminate keys, and arrays of different lengths', async () => {
    expect(await failure("SELECT MAP(ARRAY['a', 'b', 'a'], ARRAY[1, 2, 3])")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Duplicate map keys (a) are not allowed',
    ]);
    expect(await failure('SELECT MAP(ARRAY[1.5, 1.50], ARRAY[1, 2])')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Duplicate map keys (1.50) are not allowed',
    ]);
    expect(await failure('SELECT MAP(ARRAY[1, NULL], ARRAY[1, 2])')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'map key cannot be null']);
    expect(await failure('SELECT MAP(ARRAY[ARRAY[1, NULL]], ARRAY[1])')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'map key cannot be indeterminate: [1, NULL]',
    ]);
    expect(await failure('SELECT MAP(ARRAY[1, 2], ARRAY[1])')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Key and value arrays must be the same length',
    ]);
    // Only the rows that hold bad keys fail; TRY makes them NULL.
    const rows = 'SELECT try(MAP(k, v)) FROM (VALUES (ARRAY[1], ARRAY[2]), (ARRAY[3, 3], ARRAY[4, 5])) t(k, v)';
    expect((await engine.query(rows)).rows.map(([m]) => m === null)).to.deep.equal([false, true]);
  });

  it('fails m[k] for a missing key naming it, on the rows that miss it only', async () => {
    expect(await failure("SELECT m['z'] FROM (VALUES MAP(ARRAY['z'], ARRAY[1]), MAP(ARRAY['y'], ARRAY[2])) t(m)")).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Key not present in map: z',
    ]);
    expect((await engine.query("SELECT m['z'] FROM (VALUES MAP(ARRAY['z'], ARRAY[1]), NULL) t(m)")).rows).to.deep.equal([[1], [null]]);
  });

  it('refuses a cast that makes two keys equal, and casts that do not exist', async () => {
    expect(await failure('SELECT CAST(MAP(ARRAY[1.1, 1.2], ARRAY[1, 2]) AS map(integer, integer))')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Duplicate map keys (1) are not allowed',
    ]);
    expect(await failure('SELECT CAST(MAP(ARRAY[1], ARRAY[2]) AS integer)')).to.deep.equal([
      'TYPE_MISMATCH',
      'Cannot cast map(integer, integer) to integer',
    ]);
    expect(await failure('SELECT CAST(MAP(ARRAY[1], ARRAY[2]) AS array(integer))')).to.deep.equal([
      'TYPE_MISMATCH',
      'Cannot cast map(integer, integer) to array(integer)',
    ]);
  });

  it('names the types for a key of the wrong type and for functions given no map', async () => {
    expect(await failure("SELECT MAP(ARRAY[1], ARRAY[2])['a']")).to.deep.equal([
      'TYPE_MISMATCH',
      'Cannot use varchar(1) for subscript of map(integer, integer)',
    ]);
    expect(await failure('SELECT map_keys(ARRAY[1])')).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'Unexpected parameters (array(integer)) for function map_keys. Expected: map_keys(map(K,V))',
    ]);
    expect(await failure('SELECT map(ARRAY[1])')).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'Unexpected parameters (array(integer)) for function map. Expected: map(), map(array(K), array(V))',
    ]);
    expect((await failure('SELECT map_concat(map())'))[0]).to.equal('FUNCTION_NOT_FOUND');
  });

  it('compares maps with = but refuses to order them', async () => {
    expect(await failure('SELECT map() < map()')).to.deep.equal([
      'TYPE_MISMATCH',
      'Cannot apply operator: map(unknown, unknown) < map(unknown, unknown)',
    ]);
    expect(await failure('SELECT m FROM (VALUES MAP(ARRAY[1], ARRAY[2])) t(m) ORDER BY m')).to.deep.equal([
      'TYPE_MISMATCH',
      'map(integer, integer) is not orderable, and therefore cannot be used in ORDER BY',
    ]);
    expect((await failure('SELECT max(m) FROM (VALUES MAP(ARRAY[1], ARRAY[2])) t(m)'))[1]).to.match(
      /^Unexpected parameters \(map\(integer, integer\)\) for function max/,
    );
    expect((await engine.query('SELECT MAP(ARRAY[1, 2], ARRAY[3, 4]) = MAP(ARRAY[2, 1], ARRAY[4, 3])')).rows).to.deep.equal([[true]]);
    expect(
      (
        await engine.query(
          'SELECT MAP(ARRAY[1], ARRAY[NULL]) = MAP(ARRAY[1], ARRAY[3]), MAP(ARRAY[1], ARRAY[NULL]) IS DISTINCT FROM MAP(ARRAY[1], ARRAY[NULL])',
        )
      ).rows,
    ).to.deep.equal([[null, false]]);
  });

  it('stops a 10-million-entry map_agg at the memory limit', async () => {
    const small = new EngineHarness({ memoryLimitBytes: 64 * 1024 * 1024 });
    const [name, message] = await failure(
      'SELECT cardinality(map_agg(x * 1000 + y, y)) FROM UNNEST(sequence(1, 10000)) a(x) CROSS JOIN UNNEST(sequence(1, 1000)) b(y)',
      small,
    );
    expect(name).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(message).to.match(/hashAggregation/);
    expect((await small.query('SELECT cardinality(map_agg(x, x)) FROM UNNEST(sequence(1, 10000)) a(x)')).rows).to.deep.equal([[10000n]]);
  });
});
