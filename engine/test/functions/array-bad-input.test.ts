// Bad input to arrays fails cleanly with Trino's error names: huge generated arrays (Trino caps
// sequence and repeat at 10,000 entries), a 10-million-element array_agg under a small memory limit
// (EXCEEDED_LOCAL_MEMORY_LIMIT, not a crashed node), wrong argument types naming the function and
// its signatures, deeply nested arrays, casts that do not exist and UNNEST of a non-array.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('arrays: bad input', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();

  async function failure(sql: string, h: EngineHarness = engine): Promise<[string, string]> {
    const e = await h.failure(sql);
    return [e.errorName, e.rawMessage];
  }

  it('refuses a 10-million-element sequence or repeat as Trino does', async () => {
    expect(await failure('SELECT sequence(1, 10000000)')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'result of sequence function must not have more than 10000 entries',
    ]);
    expect(await failure('SELECT repeat(1, 10000000)')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'count argument of repeat function must be less than or equal to 10000',
    ]);
    expect(await failure('SELECT sequence(1, 5, 0)')).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'step must not be zero']);
    expect((await failure('SELECT sequence(5, 1, 1)'))[1]).to.match(/^sequence stop value should be greater than or equal to start value/);
  });

  it('stops a 10-million-element array_agg at the memory limit', async () => {
    const small = new EngineHarness({ memoryLimitBytes: 64 * 1024 * 1024 });
    const [name, message] = await failure(
      'SELECT cardinality(array_agg(x * 1000 + y)) FROM UNNEST(sequence(1, 10000)) a(x) CROSS JOIN UNNEST(sequence(1, 1000)) b(y)',
      small,
    );
    expect(name).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(message).to.match(/hashAggregation/);
    // The node is still serving.
    expect((await small.query('SELECT cardinality(array_agg(x)) FROM UNNEST(sequence(1, 10000)) a(x)')).rows).to.deep.equal([[10000n]]);
  });

  it('names the function and its signatures for wrong argument types', async () => {
    expect(await failure('SELECT cardinality(1)')).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'Unexpected parameters (integer) for function cardinality. Expected: cardinality(HyperLogLog), cardinality(SetDigest), cardinality(array(T)), cardinality(map(K,V))',
    ]);
    expect(await failure("SELECT contains(ARRAY[1], 'a')")).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'Unexpected parameters (array(integer), varchar(1)) for function contains. Expected: contains(array(T), T), contains(varchar, ipaddress)',
    ]);
    expect(await failure("SELECT ARRAY[1, 'a']")).to.deep.equal([
      'TYPE_MISMATCH',
      'All ARRAY elements must be the same type: integer, varchar(1)',
    ]);
    expect(await failure('SELECT CAST(ARRAY[1] AS integer)')).to.deep.equal(['TYPE_MISMATCH', 'Cannot cast array(integer) to integer']);
    expect(await failure("SELECT 'a'[1]")).to.deep.equal(['TYPE_MISMATCH', 'Cannot use varchar(1) for subscript']);
    expect(await failure('SELECT * FROM UNNEST(1)')).to.deep.equal(['TYPE_MISMATCH', 'Cannot unnest type: integer']);
    expect(await failure('SELECT max(x ORDER BY a) FROM (VALUES (1, ARRAY[MAP(ARRAY[1], ARRAY[1])])) t(x, a)')).to.deep.equal([
      'TYPE_MISMATCH',
      'ORDER BY can only be applied to orderable types (actual: array(map(integer, integer)))',
    ]);
  });

  it('takes arrays nested 990 deep, and refuses deeper statements with SYNTAX_ERROR', async () => {
    const nested = (depth: number) => `${'ARRAY['.repeat(depth)}1${']'.repeat(depth)}`;
    expect((await engine.query(`SELECT cardinality(${nested(990)})`)).rows).to.deep.equal([[1n]]);
    expect((await failure(`SELECT ${nested(2000)}`))[0]).to.equal('SYNTAX_ERROR');
  });

  it('fails a subscript past the end only on the rows that reach it', async () => {
    expect((await engine.query('SELECT a[2] FROM (VALUES ARRAY[1, 2], ARRAY[3, 4]) t(a)')).rows).to.deep.equal([[2], [4]]);
    expect(await failure('SELECT a[2] FROM (VALUES ARRAY[1, 2], ARRAY[3]) t(a)')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Array subscript must be less than or equal to array length: 2 > 1',
    ]);
    expect((await engine.query('SELECT try(a[2]) FROM (VALUES ARRAY[1, 2], ARRAY[3]) t(a)')).rows).to.deep.equal([[2], [null]]);
  });
});
