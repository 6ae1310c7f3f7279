import { expect } from 'chai';
import { isAggregateFunctionName, listAggregateFunctions, resolveAggregateFunction } from '../../src/functions/aggregate/registry.js';
import type { Scalar } from '../../src/types/scalar.js';
import { BIGINT, BOOLEAN, DATE, DOUBLE, INTEGER, REAL, VARCHAR, decimal, typeName, type SqlType } from '../../src/types/types.js';
import { errorOf, sortedRows } from '../operators/helpers.js';
import { aggregateRows, aggregateTwoStep, type CallSpec } from './aggregate-helpers.js';

/** One aggregate over one column, globally. */
async function aggregateOne(name: string, type: SqlType, values: Scalar[]): Promise<Scalar> {
  const rows = await aggregateRows(
    [type],
    values.map((v) => [v]),
    [],
    [{ name, args: [0] }],
  );
  return rows[0][0];
}

describe('aggregate functions', () => {
  describe('registry', () => {
    it('resolves return and argument types as Trino does', () => {
      expect(typeName(resolveAggregateFunction('sum', [INTEGER]).returnType)).to.equal('bigint');
      expect(typeName(resolveAggregateFunction('sum', [decimal(12, 2)]).returnType)).to.equal('decimal(38,2)');
      expect(typeName(resolveAggregateFunction('sum', [REAL]).returnType)).to.equal('real');
      expect(typeName(resolveAggregateFunction('avg', [BIGINT]).returnType)).to.equal('double');
      expect(typeName(resolveAggregateFunction('avg', [decimal(12, 2)]).returnType)).to.equal('decimal(12,2)');
      expect(typeName(resolveAggregateFunction('max', [VARCHAR]).returnType)).to.equal('varchar');
      expect(typeName(resolveAggregateFunction('COUNT', []).returnType)).to.equal('bigint');
      expect(resolveAggregateFunction('stddev', [REAL]).argumentTypes.map(typeName)).to.deep.equal(['double']);
      expect(resolveAggregateFunction('max_by', [VARCHAR, DOUBLE]).intermediateTypes.map(typeName)).to.deep.equal(['double', 'varchar']);
    });

    it('fails with Trino messages for unknown names and wrong arguments', () => {
      expect(() => resolveAggregateFunction('foo', [BIGINT]))
        .to.throw("Function 'foo' not registered")
        .with.property('errorName', 'FUNCTION_NOT_FOUND');
      expect(() => resolveAggregateFunction('sum', [VARCHAR]))
        .to.throw(
          'Unexpected parameters (varchar) for function sum. Expected: sum(bigint), sum(decimal(p,s)), sum(double), sum(interval day to second), sum(interval year to month), sum(number), sum(real)',
        )
        .with.property('errorName', 'FUNCTION_NOT_FOUND');
      expect(() => resolveAggregateFunction('max', [])).to.throw('Expected: max(T) T:orderable');
      expect(typeName(resolveAggregateFunction('qdigest_agg', [BIGINT]).returnType)).to.equal('qdigest(bigint)');
    });

    it('names and lists the aggregates', () => {
      expect(isAggregateFunctionName('Sum')).to.equal(true);
      expect(isAggregateFunctionName('abs')).to.equal(false);
      const list = listAggregateFunctions();
      expect(list.find((f) => f.name === 'avg' && f.argumentTypes[0] === 'decimal(p,s)')?.returnType).to.equal('decimal(p,s)');
      expect(list.every((f) => f.functionType === 'aggregate')).to.equal(true);
    });
  });

  describe('NULLs and empty input', () => {
    it('global aggregation of no rows gives one row: counts 0, the rest NULL', async () => {
      const calls: CallSpec[] = ['count', 'sum', 'avg', 'min', 'max', 'arbitrary', 'stddev', 'var_pop', 'approx_distinct'].map((name) => ({
        name,
        args: [0],
      }));
      const rows = await aggregateRows([BIGINT], [], [], [{ name: 'count', args: [] }, ...calls]);
      expect(rows).to.deep.equal([[0n, 0n, null, null, null, null, null, null, null, 0n]]);
    });

    it('skips NULL inputs; an all-NULL group gives NULL, count gives 0', async () => {
      const rows = await aggregateRows(
        [BIGINT, BIGINT],
        [
          [1n, null],
          [1n, null],
          [2n, 5n],
          [2n, null],
        ],
        [0],
        [
          { name: 'count', args: [] },
          { name: 'count', args: [1] },
          { name: 'sum', args: [1] },
          { name: 'min', args: [1] },
          { name: 'avg', args: [1] },
        ],
      );
      expect(sortedRows(rows)).to.deep.equal([
        [1n, 2n, 0n, null, null, null],
        [2n, 2n, 1n, 5n, 5n, 5],
      ]);
    });

    it('counts nothing in a column of the unknown type', async () => {
      expect(await aggregateOne('count', { kind: 'unknown' }, [null, null])).to.equal(0n);
    });
  });

  describe('sum and avg', () => {
    it('sums integers into bigint, doubles into double, reals into real', async () => {
      const rows = await aggregateRows(
        [INTEGER, DOUBLE, REAL],
        [
          [1, 0.5, 1.5],
          [2, 0.25, 2.25],
          [2147483647, 1, 1],
        ],
        [],
        [
          { name: 'sum', args: [0] },
          { name: 'sum', args: [1] },
          { name: 'sum', args: [2] },
        ],
      );
      expect(rows).to.deep.equal([[2147483650n, 1.75, 4.75]]);
    });

    it('sums bigint exactly past 2^53', async () => {
      expect(await aggregateOne('sum', BIGINT, [2n ** 53n - 1n, 2n, 2n])).to.equal(2n ** 53n + 3n);
      expect(await aggregateOne('sum', BIGINT, [2n ** 62n, 3n, -1n, 2n ** 62n - 5n])).to.equal(2n ** 63n - 3n);
      expect(await aggregateOne('sum', BIGINT, [-(2n ** 62n), -(2n ** 62n)])).to.equal(-(2n ** 63n));
    });

    it('fails with NUMERIC_VALUE_OUT_OF_RANGE when a bigint sum overflows', async () => {
      const error = await errorOf(aggregateOne('sum', BIGINT, [2n ** 62n, 2n ** 62n]));
      expect(error.errorName).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
      expect(error.message).to.match(/^bigint addition overflow/);
    });

    it('sums decimals exactly into decimal(38, s), and fails past 38 digits', async () => {
      const tenths = Array.from({ length: 10 }, () => 10n as Scalar); // 0.10
      expect(await aggregateOne('sum', decimal(12, 2), tenths)).to.equal(100n);
      // 0.1 + 0.2 in doubles is not 0.3; in decimals it is.
      expect(await aggregateOne('sum', decimal(5, 1), [1n, 2n])).to.equal(3n);
      const large = 10n ** 30n + 7n;
      expect(await aggregateOne('sum', decimal(31, 0), [large, large, -1n])).to.equal(2n * large - 1n);
      const huge = 6n * 10n ** 37n;
      const error = await errorOf(aggregateOne('sum', decimal(38, 0), [huge, huge]));
      expect(error.errorName).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
    });

    it('averages integers in double and decimals rounded HALF_UP', async () => {
      expect(await aggregateOne('avg', INTEGER, [1, 2])).to.equal(1.5);
      expect(await aggregateOne('avg', decimal(10, 2), [1n, 2n])).to.equal(2n); // 0.015 -> 0.02
      expect(await aggregateOne('avg', decimal(10, 2), [-1n, -2n])).to.equal(-2n);
      expect(await aggregateOne('avg', decimal(10, 2), [1n, 1n, 2n])).to.equal(1n); // 0.0133 -> 0.01
      expect(await aggregateOne('avg', decimal(30, 2), [10n ** 28n, 10n ** 28n + 2n])).to.equal(10n ** 28n + 1n);
      expect(await aggregateOne('avg', REAL, [1, 2])).to.equal(1.5);
    });
  });

  describe('min and max', () => {
    it('compare strings by code point', async () => {
      const values = ['b', '\uffff', '\u{1F600}', 'a', null];
      expect(await aggregateOne('max', VARCHAR, values)).to.equal('\u{1F600}');
      expect(await aggregateOne('min', VARCHAR, values)).to.equal('a');
    });

    it('order doubles with NaN largest, and bigint, decimal, date, boolean', async () => {
      expect(await aggregateOne('max', DOUBLE, [1, NaN, 3])).to.be.NaN;
      expect(await aggregateOne('min', DOUBLE, [1, NaN, -0.5])).to.equal(-0.5);
      expect(await aggregateOne('min', BIGINT, [-5n, 3n, -(2n ** 40n), null])).to.equal(-(2n ** 40n));
      expect(await aggregateOne('max', BIGINT, [-5n, 3n, -(2n ** 40n)])).to.equal(3n);
      expect(await aggregateOne('max', BIGINT, [-(2n ** 63n), 2n ** 63n - 1n, 0n])).to.equal(2n ** 63n - 1n);
      expect(await aggregateOne('max', decimal(30, 0), [10n ** 29n, -(10n ** 29n)])).to.equal(10n ** 29n);
      expect(await aggregateOne('min', DATE, [19000, 18000, 20000])).to.equal(18000);
      expect(await aggregateOne('min', BOOLEAN, [true, false])).to.equal(false);
    });

    it('max_by and min_by return the value at the extreme key (the value may be NULL)', async () => {
      const rows: Scalar[][] = [
        ['a', 1],
        ['b', 3],
        ['c', null],
        [null, 5],
      ];
      const result = await aggregateRows(
        [VARCHAR, DOUBLE],
        rows,
        [],
        [
          { name: 'max_by', args: [0, 1] },
          { name: 'min_by', args: [0, 1] },
        ],
      );
      expect(result).to.deep.equal([[null, 'a']]);
    });
  });

  describe('other aggregates', () => {
    it('arbitrary, bool_and, bool_or, every, count_if', async () => {
      expect(await aggregateOne('arbitrary', VARCHAR, [null, 'x', 'y'])).to.equal('x');
      expect(await aggregateOne('any_value', BIGINT, [null])).to.equal(null);
      expect(await aggregateOne('bool_and', BOOLEAN, [true, null, false])).to.equal(false);
      expect(await aggregateOne('every', BOOLEAN, [true, null, true])).to.equal(true);
      expect(await aggregateOne('bool_or', BOOLEAN, [false, null, true])).to.equal(true);
      expect(await aggregateOne('bool_or', BOOLEAN, [null])).to.equal(null);
      expect(await aggregateOne('count_if', BOOLEAN, [true, null, false, true])).to.equal(2n);
    });

    it('variance and standard deviation, sample and population', async () => {
      const values = [1, 2, 3, 4];
      expect(await aggregateOne('var_samp', DOUBLE, values)).to.be.closeTo(5 / 3, 1e-12);
      expect(await aggregateOne('variance', DOUBLE, values)).to.be.closeTo(5 / 3, 1e-12);
      expect(await aggregateOne('var_pop', DOUBLE, values)).to.be.closeTo(1.25, 1e-12);
      expect(await aggregateOne('stddev', BIGINT, values.map(BigInt))).to.be.closeTo(Math.sqrt(5 / 3), 1e-12);
      expect(await aggregateOne('stddev_pop', INTEGER, values)).to.be.closeTo(Math.sqrt(1.25), 1e-12);
      expect(await aggregateOne('var_samp', DOUBLE, [7])).to.equal(null);
      expect(await aggregateOne('var_pop', DOUBLE, [7])).to.equal(0);
      expect(await aggregateOne('geometric_mean', DOUBLE, [1, 4, null])).to.be.closeTo(2, 1e-12);
    });

    it('approx_distinct is exact for small counts and within 2.3% standard error for large ones', async () => {
      expect(await aggregateOne('approx_distinct', BIGINT, [1n, 2n, 2n, 3n, null])).to.equal(3n);
      const words = Array.from({ length: 40 }, (_, i) => `w${i % 25}`);
      expect(await aggregateOne('approx_distinct', VARCHAR, words)).to.equal(25n);
      const many = Array.from({ length: 50000 }, (_, i) => i % 20000);
      const estimate = Number(await aggregateOne('approx_distinct', INTEGER, many));
      expect(Math.abs(estimate - 20000) / 20000).to.be.lessThan(3 * 0.023);
    });
  });

  describe('DISTINCT and FILTER', () => {
    it('count(DISTINCT x) and sum(DISTINCT x) per group', async () => {
      const rows: Scalar[][] = [
        ['a', 1n],
        ['a', 1n],
        ['a', 2n],
        ['a', null],
        ['b', 5n],
        ['b', 5n],
        [null, 7n],
      ];
      const result = await aggregateRows(
        [VARCHAR, BIGINT],
        rows,
        [0],
        [
          { name: 'count', args: [1], distinct: true },
          { name: 'sum', args: [1], distinct: true },
          { name: 'sum', args: [1] },
        ],
      );
      expect(sortedRows(result)).to.deep.equal(
        sortedRows([
          ['a', 2n, 3n, 4n],
          ['b', 1n, 5n, 10n],
          [null, 1n, 7n, 7n],
        ]),
      );
    });

    it('a mask keeps only rows where it is TRUE', async () => {
      const rows: Scalar[][] = [
        [1n, true],
        [2n, false],
        [3n, null],
        [4n, true],
      ];
      const result = await aggregateRows(
        [BIGINT, BOOLEAN],
        rows,
        [],
        [
          { name: 'sum', args: [0], mask: 1 },
          { name: 'count', args: [], mask: 1 },
          { name: 'count', args: [0], mask: 1, distinct: true },
        ],
      );
      expect(result).to.deep.equal([[5n, 2n, 2n]]);
    });
  });

  describe('partial and final steps', () => {
    it('give the single-step result for every aggregate', async () => {
      const types = [VARCHAR, BIGINT, DOUBLE, decimal(12, 2), BOOLEAN];
      const rows: Scalar[][] = [];
      for (let i = 0; i < 200; i++) {
        rows.push([`g${i % 7}`, i % 11 === 0 ? null : BigInt(i * 37 - 2000), ((i * 7919) % 101) / 7, BigInt(i * 13), i % 3 === 0]);
      }
      const calls: CallSpec[] = [
        { name: 'count', args: [] },
        { name: 'count', args: [1] },
        { name: 'sum', args: [1] },
        { name: 'sum', args: [2] },
        { name: 'sum', args: [3] },
        { name: 'avg', args: [1] },
        { name: 'avg', args: [3] },
        { name: 'min', args: [0] },
        { name: 'max', args: [2] },
        { name: 'max_by', args: [0, 2] },
        { name: 'bool_or', args: [4] },
        { name: 'count_if', args: [4] },
        { name: 'var_samp', args: [2] },
        { name: 'approx_distinct', args: [1] },
        { name: 'geometric_mean', args: [2] },
      ];
      const single = sortedRows(await aggregateRows(types, rows, [0], calls));
      const twoStep = sortedRows(await aggregateTwoStep(types, rows, [0], calls));
      expect(twoStep.length).to.equal(7);
      for (let r = 0; r < single.length; r++) {
        for (let c = 0; c < single[r].length; c++) {
          const a = single[r][c];
          const b = twoStep[r][c];
          if (typeof a === 'number' && typeof b === 'number') expect(b).to.be.closeTo(a, 1e-9 * Math.max(1, Math.abs(a)));
          else expect(b).to.deep.equal(a);
        }
      }
    });
  });
});
