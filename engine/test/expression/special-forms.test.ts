import { expect } from 'chai';
import { compileFilter, compileProjection, evaluateConstant } from '../../src/exec/expression/compiler.js';
import { columnFromScalars, getScalar } from '../../src/columnar/page.js';
import { BOOL, DBL, INT, VC, errorOf, evalRows, input, lit, op, special } from './eval-helpers.js';

const NULL_BOOL = lit(null, BOOL);
const T = lit(true, BOOL);
const F = lit(false, BOOL);

describe('special forms', () => {
  it('AND / OR / NOT follow three-valued logic', () => {
    const values = [true, false, null];
    const rows = values.flatMap((a) => values.map((b) => [a, b]));
    const and = evalRows(special('and', BOOL, input(0, BOOL), input(1, BOOL)), [BOOL, BOOL], rows);
    const or = evalRows(special('or', BOOL, input(0, BOOL), input(1, BOOL)), [BOOL, BOOL], rows);
    // rows: TT TF TN FT FF FN NT NF NN
    expect(and).to.deep.equal([true, false, null, false, false, false, null, false, null]);
    expect(or).to.deep.equal([true, true, true, true, false, null, true, null, null]);
    expect(evalRows(special('not', BOOL, input(0, BOOL)), [BOOL], [[true], [false], [null]])).to.deep.equal([false, true, null]);
    expect(evaluateConstant(special('and', BOOL, T, NULL_BOOL, F))).to.equal(false);
    expect(evaluateConstant(special('or', BOOL, F, NULL_BOOL))).to.equal(null);
  });

  it('AND and OR do not evaluate operands after the deciding one', () => {
    const divides = op('equal', op('divide', lit(1, INT), input(0, INT)), lit(1, INT));
    const guarded = special('and', BOOL, op('not_equal', input(0, INT), lit(0, INT)), divides);
    expect(evalRows(guarded, [INT], [[0], [1], [2]])).to.deep.equal([false, true, false]);
    const orGuard = special('or', BOOL, op('equal', input(0, INT), lit(0, INT)), divides);
    expect(evalRows(orGuard, [INT], [[0], [1]])).to.deep.equal([true, true]);
  });

  it('IS NULL', () => {
    expect(evalRows(special('is_null', BOOL, input(0, INT)), [INT], [[1], [null]])).to.deep.equal([false, true]);
  });

  it('IF and searched CASE evaluate only the branch taken', () => {
    // CASE WHEN b <> 0 THEN a / b END
    const caseExpr = special(
      'switch',
      INT,
      op('not_equal', input(1, INT), lit(0, INT)),
      op('divide', input(0, INT), input(1, INT)),
      lit(null, INT),
    );
    expect(
      evalRows(
        caseExpr,
        [INT, INT],
        [
          [10, 2],
          [10, 0],
          [null, 5],
          [7, null],
        ],
      ),
    ).to.deep.equal([5, null, null, null]);
    // IF(b = 0, -1, a / b)
    const ifExpr = special('if', INT, op('equal', input(1, INT), lit(0, INT)), lit(-1, INT), op('divide', input(0, INT), input(1, INT)));
    expect(
      evalRows(
        ifExpr,
        [INT, INT],
        [
          [10, 2],
          [10, 0],
          [10, null],
        ],
      ),
    ).to.deep.equal([5, -1, null]);
    // a NULL condition takes the ELSE branch
    const nullCond = special('if', VC, NULL_BOOL, lit('then', VC), lit('else', VC));
    expect(evaluateConstant(nullCond)).to.equal('else');
    // first TRUE WHEN wins
    const many = special(
      'switch',
      VC,
      op('less_than', input(0, INT), lit(0, INT)),
      lit('neg', VC),
      op('less_than', input(0, INT), lit(10, INT)),
      lit('small', VC),
      lit('big', VC),
    );
    expect(evalRows(many, [INT], [[-5], [5], [50], [null]])).to.deep.equal(['neg', 'small', 'big', 'big']);
  });

  it('COALESCE returns the first non-NULL and does not evaluate the rest', () => {
    const e = special('coalesce', INT, input(0, INT), input(1, INT), op('divide', lit(1, INT), lit(0, INT)));
    expect(
      evalRows(
        e,
        [INT, INT],
        [
          [1, 2],
          [null, 2],
        ],
      ),
    ).to.deep.equal([1, 2]);
    expect(errorOf(() => evalRows(e, [INT, INT], [[null, null]]))).to.equal('DIVISION_BY_ZERO: Division by zero');
    expect(evaluateConstant(special('coalesce', INT, lit(null, INT), lit(null, INT)))).to.equal(null);
  });

  it('IN has SQL NULL semantics', () => {
    const constantList = special('in', BOOL, input(0, INT), lit(1, INT), lit(2, INT), lit(null, INT));
    expect(evalRows(constantList, [INT], [[1], [3], [null]])).to.deep.equal([true, null, null]);
    const noNulls = special('in', BOOL, input(0, INT), lit(1, INT), lit(2, INT));
    expect(evalRows(noNulls, [INT], [[2], [3], [null]])).to.deep.equal([true, false, null]);
    const columns = special('in', BOOL, input(0, INT), input(1, INT), input(2, INT));
    expect(
      evalRows(
        columns,
        [INT, INT, INT],
        [
          [1, null, 1],
          [1, null, 2],
          [1, 3, 2],
          [null, 1, 1],
        ],
      ),
    ).to.deep.equal([true, null, false, null]);
    const strings = special('in', BOOL, input(0, VC), lit('MAIL', VC), lit('SHIP', VC));
    expect(evalRows(strings, [VC], [['SHIP'], ['AIR']])).to.deep.equal([true, false]);
    const nan = special('in', BOOL, input(0, DBL), lit(NaN, DBL), lit(1, DBL));
    expect(evalRows(nan, [DBL], [[NaN], [1]])).to.deep.equal([false, true]);
  });

  it('BETWEEN is three-valued', () => {
    const e = special('between', BOOL, input(0, INT), input(1, INT), input(2, INT));
    expect(
      evalRows(
        e,
        [INT, INT, INT],
        [
          [5, 1, 10],
          [0, 1, 10],
          [5, null, 10],
          [11, null, 10],
          [null, 1, 10],
          [11, 1, null],
        ],
      ),
    ).to.deep.equal([true, false, null, false, null, null]);
    expect(evaluateConstant(special('between', BOOL, lit(0, INT), lit(null, INT), lit(-1, INT)))).to.equal(false);
  });

  it('NULLIF', () => {
    const e = special('nullif', INT, input(0, INT), input(1, INT));
    expect(
      evalRows(
        e,
        [INT, INT],
        [
          [1, 1],
          [1, 2],
          [null, 1],
          [1, null],
        ],
      ),
    ).to.deep.equal([null, 1, null, 1]);
  });

  it('TRY turns runtime errors into NULL per row and keeps other rows', () => {
    const e = special('try', INT, op('divide', lit(100, INT), input(0, INT)));
    expect(evalRows(e, [INT], [[4], [0], [null], [-5]])).to.deep.equal([25, null, null, -20]);
    const overflow = special('try', INT, op('add', input(0, INT), lit(1, INT)));
    expect(evalRows(overflow, [INT], [[2147483647], [1]])).to.deep.equal([null, 2]);
  });

  it('filters keep only TRUE rows', () => {
    const filter = compileFilter(op('greater_than', input(0, INT), lit(2, INT)), [INT]);
    const page = { rowCount: 5, columns: [columnFromScalars(INT, [1, 3, null, 5, 2])] };
    const { positions, count } = filter(page);
    expect(Array.from(positions.subarray(0, count))).to.deep.equal([1, 3]);
  });

  it('projections pass input columns through and compute the rest', () => {
    const page = { rowCount: 2, columns: [columnFromScalars(INT, [1, 2]), columnFromScalars(VC, ['a', null])] };
    const project = compileProjection([input(1, VC), op('multiply', input(0, INT), lit(10, INT)), lit('k', VC)], [INT, VC]);
    const out = project(page);
    expect(out.columns[0]).to.equal(page.columns[1]);
    expect([0, 1].map((i) => getScalar(out.columns[1], i))).to.deep.equal([10, 20]);
    expect([0, 1].map((i) => getScalar(out.columns[2], i))).to.deep.equal(['k', 'k']);
  });

  it('specialises by null masks: the same compiled expression handles pages with and without NULLs', () => {
    const expr = op('add', input(0, INT), lit(1, INT));
    const project = compileProjection([expr], [INT]);
    const withNulls = project({ rowCount: 2, columns: [columnFromScalars(INT, [1, null])] });
    const without = project({ rowCount: 2, columns: [columnFromScalars(INT, [1, 2])] });
    expect(withNulls.columns[0].nulls).to.deep.equal(new Uint8Array([0, 1]));
    expect(without.columns[0].nulls).to.equal(null);
    expect(Array.from(without.columns[0].values as Int32Array)).to.deep.equal([2, 3]);
  });

  it('rejects symbol references', () => {
    const symbol = { kind: 'symbol', symbol: { id: 1, name: 'x', type: INT }, type: INT } as const;
    expect(() => evaluateConstant(op('add', symbol, lit(1, INT)))).to.throw(/symbol reference/);
  });
});

describe('LIKE', () => {
  const like = (value: string | null, pattern: string | null, escape?: string) =>
    evaluateConstant(special('like', BOOL, lit(value, VC), lit(pattern, VC), ...(escape === undefined ? [] : [lit(escape, VC)])));

  it('matches % and _ anchored over the whole value', () => {
    expect(like('abc', 'a%')).to.equal(true);
    expect(like('abc', '%b%')).to.equal(true);
    expect(like('abc', 'b%')).to.equal(false);
    expect(like('abc', 'a_c')).to.equal(true);
    expect(like('abbc', 'a_c')).to.equal(false);
    expect(like('a\nb', 'a%b')).to.equal(true);
    expect(like('a.c', 'a.c')).to.equal(true);
    expect(like('abc', 'a.c')).to.equal(false);
    expect(like('(x)*', '(x)*')).to.equal(true);
    expect(like('日本語', '_本_')).to.equal(true);
    expect(like('😀x', '_x')).to.equal(true);
  });

  it('honours the escape character', () => {
    expect(like('100%', '100\\%', '\\')).to.equal(true);
    expect(like('1000', '100\\%', '\\')).to.equal(false);
    expect(like('a_b', 'a#_b', '#')).to.equal(true);
    expect(like('axb', 'a#_b', '#')).to.equal(false);
    expect(like('a#b', 'a##b', '#')).to.equal(true);
    expect(errorOf(() => like('a', 'a#', '#'))).to.match(/^INVALID_FUNCTION_ARGUMENT: Escape character must be followed by/);
    expect(errorOf(() => like('a', 'a', '##'))).to.equal('INVALID_FUNCTION_ARGUMENT: Escape string must be a single character');
  });

  it('is NULL when the value or the pattern is NULL', () => {
    expect(like(null, 'a')).to.equal(null);
    expect(like('a', null)).to.equal(null);
  });

  it('matches per-row patterns', () => {
    const e = special('like', BOOL, input(0, VC), input(1, VC));
    expect(
      evalRows(
        e,
        [VC, VC],
        [
          ['abc', 'a%'],
          ['abc', '%z'],
          ['abc', null],
        ],
      ),
    ).to.deep.equal([true, false, null]);
  });
});
