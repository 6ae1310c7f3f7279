// Filters of comparisons on integer and date columns, which run without branches when no column
// has NULLs (exec/expression/branch-free-filter.ts), keep exactly the rows a plain JS evaluation of
// the same comparisons keeps, with and without NULLs, and as ANDs mixed with other operands.

import { expect } from 'chai';
import { compileFilter } from '../../src/exec/expression/compiler.js';
import { columnFromScalars } from '../../src/columnar/page.js';
import type { RowExpression } from '../../src/sql/planner/row-expression.js';
import type { Scalar } from '../../src/types/scalar.js';
import type { SqlType } from '../../src/types/types.js';
import type { OperatorName } from '../../src/functions/scalar/operator-names.js';
import { branchFreeComparisons } from '../../src/exec/expression/branch-free-filter.js';
import { seededIntegers } from '../support/memory-tables-vs-duckdb.js';
import { BOOL, DATE_T, INT, VC, input, lit, op, special } from './eval-helpers.js';

const SMALLINT: SqlType = { kind: 'smallint' };
const ROWS = 5_000;

/** Columns: 0 integer, 1 date, 2 date, 3 smallint, 4 varchar; NULLs only where `withNulls`. */
function page(withNulls: boolean) {
  const next = seededIntegers(withNulls ? 7 : 3);
  const value = (make: () => Scalar) => (withNulls && next() % 9 === 0 ? null : make());
  const rows = Array.from({ length: ROWS }, () => [
    value(() => (next() % 400) - 200),
    value(() => 9000 + (next() % 900)),
    value(() => 9000 + (next() % 900)),
    value(() => (next() % 60) - 30),
    value(() => `s${next() % 5}`),
  ]);
  const types = [INT, DATE_T, DATE_T, SMALLINT, VC];
  return {
    rows,
    types,
    page: {
      rowCount: ROWS,
      columns: types.map((t, c) =>
        columnFromScalars(
          t,
          rows.map((r) => r[c]),
        ),
      ),
    },
  };
}

/** Comparisons as JS tests of a row (any NULL operand: not TRUE). */
const JS_TESTS: Record<string, (a: number, b: number) => boolean> = {
  equal: (a, b) => a === b,
  not_equal: (a, b) => a !== b,
  less_than: (a, b) => a < b,
  less_than_or_equal: (a, b) => a <= b,
  greater_than: (a, b) => a > b,
  greater_than_or_equal: (a, b) => a >= b,
};

/** A comparison of two operands, or BETWEEN of three (value, low, high). */
type Comparison =
  | [name: OperatorName & keyof typeof JS_TESTS, left: RowExpression, right: RowExpression]
  | [name: 'between', value: RowExpression, low: RowExpression, high: RowExpression];

const operandValue = (e: RowExpression, row: readonly Scalar[]): Scalar =>
  e.kind === 'input' ? row[e.channel] : (e as { value: Scalar }).value;

function expectedRows(rows: readonly (readonly Scalar[])[], comparisons: readonly Comparison[]): number[] {
  const kept: number[] = [];
  rows.forEach((row, i) => {
    const all = comparisons.every(([name, ...operands]) => {
      const [a, b, c] = operands.map((e) => operandValue(e, row));
      if (a === null || b === null || c === null) return false;
      return name === 'between'
        ? (b as number) <= (a as number) && (a as number) <= (c as number)
        : JS_TESTS[name](a as number, b as number);
    });
    if (all) kept.push(i);
  });
  return kept;
}

const FILTERS: Record<string, Comparison[]> = {
  'one comparison of two date columns (q21)': [['greater_than', input(2, DATE_T), input(1, DATE_T)]],
  'a date range (q15)': [
    ['greater_than_or_equal', input(1, DATE_T), lit(9300, DATE_T)],
    ['less_than', input(1, DATE_T), lit(9391, DATE_T)],
  ],
  'every comparison on integers and smallints': [
    ['not_equal', input(0, INT), lit(5, INT)],
    ['less_than_or_equal', input(0, INT), lit(150, INT)],
    ['greater_than', input(0, INT), lit(-120, INT)],
    ['equal', input(3, SMALLINT), input(3, SMALLINT)],
    ['less_than', input(3, SMALLINT), lit(20, SMALLINT)],
  ],
  'an equality that few rows meet': [['equal', input(0, INT), lit(17, INT)]],
  'BETWEEN on dates (q7)': [['between', input(1, DATE_T), lit(9100, DATE_T), lit(9500, DATE_T)]],
  'BETWEEN on integers with a comparison': [
    ['between', input(0, INT), lit(-50, INT), lit(120, INT)],
    ['greater_than', input(2, DATE_T), input(1, DATE_T)],
  ],
};

describe('branch-free filters keep the rows a JS evaluation keeps', () => {
  for (const withNulls of [false, true]) {
    const { rows, types, page: data } = page(withNulls);
    for (const [name, comparisons] of Object.entries(FILTERS)) {
      it(`${name}${withNulls ? ', with NULLs' : ''}`, () => {
        const calls = comparisons.map(([f, ...operands]) =>
          f === 'between' ? special('between', BOOL, ...operands) : op(f, operands[0], operands[1]),
        );
        const filter = calls.length === 1 ? calls[0] : special('and', BOOL, ...calls);
        const nullable = new Set(withNulls ? [0, 1, 2, 3, 4] : []);
        // Without NULLs the branch-free form is the one compiled; with them, the usual one.
        expect(branchFreeComparisons(filter, nullable) !== undefined).to.equal(!withNulls);
        const { positions, count } = compileFilter(filter, types)(data);
        expect(Array.from(positions.subarray(0, count))).to.deep.equal(expectedRows(rows, comparisons));
      });
    }
  }

  it('not for an AND with an operand of another kind, which keeps its usual form', () => {
    const withString = special('and', BOOL, op('greater_than', input(0, INT), lit(0, INT)), op('equal', input(4, VC), lit('s1', VC)));
    expect(branchFreeComparisons(withString, new Set())).to.equal(undefined);
    const { rows, types, page: data } = page(false);
    const { positions, count } = compileFilter(withString, types)(data);
    const expected = rows.flatMap((r, i) => ((r[0] as number) > 0 && r[4] === 's1' ? [i] : []));
    expect(Array.from(positions.subarray(0, count))).to.deep.equal(expected);
  });
});
