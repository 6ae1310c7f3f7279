// Bad input to rows fails at analysis with Trino's error names, positions and messages that name
// what is wrong: a missing field (with the row type), casts between rows of different field counts,
// subscripts that are out of range, not constant or not integers, comparisons of rows that do not
// meet, `.*` of a value that is no row, and IN with a subquery of the wrong width.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('rows: bad input', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  async function failure(sql: string): Promise<[string, string]> {
    const e = await engine.failure(sql);
    return [e.errorName, e.message];
  }

  const NAMED = 'CAST(ROW(1, 2) AS ROW(x int, y int))';

  it('a missing field names the field and the row type', async () => {
    expect(await failure(`SELECT r.z FROM (SELECT ${NAMED} r)`)).to.deep.equal([
      'COLUMN_NOT_FOUND',
      `line 1:8: Column 'r.z' cannot be resolved: row("x" integer, "y" integer) has no field 'z'`,
    ]);
    expect(await failure(`SELECT ${NAMED}.z`)).to.deep.equal([
      'COLUMN_NOT_FOUND',
      `line 1:8: Column 'CAST(ROW (1, 2) AS row(x integer, y integer)).z' cannot be resolved: row("x" integer, "y" integer) has no field 'z'`,
    ]);
    // Anonymous fields have no name to find.
    expect((await failure('SELECT ROW(1, 2).field0'))[0]).to.equal('COLUMN_NOT_FOUND');
    // A plain name that resolves nowhere is still a missing column.
    expect(await failure('SELECT nosuch.x')).to.deep.equal(['COLUMN_NOT_FOUND', "line 1:8: Column 'nosuch.x' cannot be resolved"]);
  });

  it('field access on a value that is no row says so', async () => {
    expect(await failure('SELECT a.x FROM (SELECT 1 a)')).to.deep.equal(['TYPE_MISMATCH', 'line 1:8: Expression a is not of type ROW']);
  });

  it('two fields of one name are ambiguous', async () => {
    expect(await failure('SELECT CAST(ROW(1, 2) AS ROW(x int, x int)).x')).to.deep.equal([
      'AMBIGUOUS_NAME',
      'line 1:45: Ambiguous row field reference: x',
    ]);
  });

  it('a cast between rows of different field counts names both counts', async () => {
    expect(await failure('SELECT CAST(ROW(1, 2) AS ROW(x int))')).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:8: Cannot cast row(integer, integer) to row("x" integer): the source has 2 field(s), the target 1',
    ]);
    expect(await failure("SELECT CAST(ROW(1, 'a') AS ROW(x int, y array(int)))")).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:8: Cannot cast row(integer, varchar(1)) to row("x" integer, "y" array(integer))',
    ]);
    expect(await failure('SELECT CAST(ROW(1) AS integer)')).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:8: Cannot cast row(integer) to integer',
    ]);
  });

  it('a bad field value fails the cast at run time, TRY_CAST gives NULL', async () => {
    expect(await failure("SELECT CAST(ROW('x') AS ROW(a integer))")).to.deep.equal(['INVALID_CAST_ARGUMENT', "Cannot cast 'x' to INT"]);
    expect(await engine.rows("SELECT TRY_CAST(ROW('x') AS ROW(a integer))")).to.deep.equal([[null]]);
  });

  it('a subscript must be a constant integer from 1 to the number of fields', async () => {
    expect(await failure('SELECT ROW(1, 2)[3]')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'line 1:18: Subscript index out of bounds: 3, max value is 2',
    ]);
    expect(await failure('SELECT ROW(1, 2)[0]')).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'line 1:18: Invalid subscript index: 0. ROW indices start at 1',
    ]);
    expect(await failure('SELECT ROW(1, 2)[a] FROM (SELECT 1 a)')).to.deep.equal([
      'EXPRESSION_NOT_CONSTANT',
      'line 1:18: Subscript expression on ROW requires a constant index',
    ]);
    expect(await failure("SELECT ROW(1, 2)['x']")).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:18: Subscript expression on ROW requires integer index, found varchar(1)',
    ]);
  });

  it('rows of different field counts or field types that do not meet cannot be compared', async () => {
    expect(await failure('SELECT ROW(1, 2) = ROW(1, 2, 3)')).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:18: Cannot apply operator: row(integer, integer) = row(integer, integer, integer)',
    ]);
    expect(await failure("SELECT ROW(1, DATE '2020-01-01') < ROW(1, 2)")).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:34: Cannot apply operator: row(integer, date) < row(integer, integer)',
    ]);
    expect((await failure('SELECT (1, 2) IN ((1, 2, 3))'))[0]).to.equal('TYPE_MISMATCH');
  });

  it('.* of a value that is no row, and aliases of the wrong count', async () => {
    expect(await failure('SELECT (1).*')).to.deep.equal(['TYPE_MISMATCH', 'line 1:9: expected expression of type Row but got integer']);
    expect(await failure('SELECT (ROW(1, 2)).* AS (a)')).to.deep.equal([
      'MISMATCHED_COLUMN_ALIASES',
      'line 1:26: Column alias list has 1 entries but 2 columns available',
    ]);
  });

  it('IN with a subquery of another width than the row', async () => {
    expect(await failure('SELECT (1, 2) IN (SELECT 1, 2, 3)')).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:8: Value and result of subquery must be of the same type: row(integer, integer) and 3 columns',
    ]);
    expect((await failure('SELECT 1 IN (SELECT 1, 2)'))[0]).to.equal('TYPE_MISMATCH');
  });
});
