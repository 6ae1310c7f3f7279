// Trino's documented examples of functions/array.md (the page's results, as Trino's CLI prints them)
// for every function of the page the engine implements, run through the whole engine, the functions
// taking lambdas included, and those that return or build maps or rows (array_histogram, zip, a
// reduce over a row state, a zip_with making rows).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { formatValueAsText } from '../../src/types/values.js';

/** Each documented statement and its documented result. */
const DOCUMENTED: ReadonlyArray<[sql: string, result: string]> = [
  ['SELECT ARRAY[1, 2, 4]', '[1, 2, 4]'],
  ["SELECT ARRAY['foo', 'bar', 'bazz']", '[foo, bar, bazz]'],
  ['SELECT ARRAY[1, 1.2, 4]', '[1.0, 1.2, 4.0]'],
  ['SELECT ARRAY[1, 2, NULL, -4, NULL]', '[1, 2, NULL, -4, NULL]'],
  ['SELECT ARRAY[1, 1.2, 4][2]', '1.2'],
  ['SELECT ARRAY[1] || ARRAY[2]', '[1, 2]'],
  ['SELECT ARRAY[1] || 2', '[1, 2]'],
  ['SELECT 2 || ARRAY[1]', '[2, 1]'],
  ["SELECT combinations(ARRAY['foo', 'bar', 'baz'], 2)", '[[foo, bar], [foo, baz], [bar, baz]]'],
  ['SELECT combinations(ARRAY[1, 2, 3], 2)', '[[1, 2], [1, 3], [2, 3]]'],
  ['SELECT combinations(ARRAY[1, 2, 2], 2)', '[[1, 2], [1, 2], [2, 2]]'],
  ["SELECT ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 2)", '[[foo, bar], [bar, baz], [baz, foo]]'],
  ["SELECT ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 3)", '[[foo, bar, baz], [bar, baz, foo]]'],
  ["SELECT ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 4)", '[[foo, bar, baz, foo]]'],
  ["SELECT ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 5)", '[[foo, bar, baz, foo]]'],
  ['SELECT ngrams(ARRAY[1, 2, 3, 4], 2)', '[[1, 2], [2, 3], [3, 4]]'],
  ['SELECT trim_array(ARRAY[1, 2, 3, 4], 1)', '[1, 2, 3]'],
  ['SELECT trim_array(ARRAY[1, 2, 3, 4], 2)', '[1, 2]'],
  ['SELECT euclidean_distance(ARRAY[1.0, 2.0], ARRAY[3.0, 4.0])', '2.8284271247461903'],
  ['SELECT dot_product(ARRAY[1.0, 2.0], ARRAY[3.0, 4.0])', '11.0'],
  // array_sort with a comparator
  ['SELECT array_sort(ARRAY[3, 2, 5, 1, 2], (x, y) -> IF(x < y, 1, IF(x = y, 0, -1)))', '[5, 3, 2, 2, 1]'],
  ["SELECT array_sort(ARRAY['bc', 'ab', 'dc'], (x, y) -> IF(x < y, 1, IF(x = y, 0, -1)))", '[dc, bc, ab]'],
  [
    `SELECT array_sort(ARRAY[3, 2, null, 5, null, 1, 2],
                  -- sort null first with descending order
                  (x, y) -> CASE WHEN x IS NULL THEN -1
                                 WHEN y IS NULL THEN 1
                                 WHEN x < y THEN 1
                                 WHEN x = y THEN 0
                                 ELSE -1 END)`,
    '[NULL, NULL, 5, 3, 2, 2, 1]',
  ],
  [
    `SELECT array_sort(ARRAY[3, 2, null, 5, null, 1, 2],
                  -- sort null last with descending order
                  (x, y) -> CASE WHEN x IS NULL THEN 1
                                 WHEN y IS NULL THEN -1
                                 WHEN x < y THEN 1
                                 WHEN x = y THEN 0
                                 ELSE -1 END)`,
    '[5, 3, 2, 2, 1, NULL, NULL]',
  ],
  [
    "SELECT array_sort(ARRAY['a', 'abcd', 'abc'], (x, y) -> IF(length(x) < length(y), -1, IF(length(x) = length(y), 0, 1)))",
    '[a, abc, abcd]',
  ],
  [
    'SELECT array_sort(ARRAY[ARRAY[2, 3, 1], ARRAY[4, 2, 1, 4], ARRAY[1, 2]], (x, y) -> IF(cardinality(x) < cardinality(y), -1, IF(cardinality(x) = cardinality(y), 0, 1)))',
    '[[1, 2], [2, 3, 1], [4, 2, 1, 4]]',
  ],
  // filter
  ['SELECT filter(ARRAY[], x -> true)', '[]'],
  ['SELECT filter(ARRAY[5, -6, NULL, 7], x -> x > 0)', '[5, 7]'],
  ['SELECT filter(ARRAY[5, NULL, 7, NULL], x -> x IS NOT NULL)', '[5, 7]'],
  // reduce
  ['SELECT reduce(ARRAY[], 0, (s, x) -> s + x, s -> s)', '0'],
  ['SELECT reduce(ARRAY[5, 20, 50], 0, (s, x) -> s + x, s -> s)', '75'],
  ['SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> s + x, s -> s)', 'NULL'],
  ['SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> s + coalesce(x, 0), s -> s)', '75'],
  ['SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> IF(x IS NULL, s, s + x), s -> s)', '75'],
  ["SELECT reduce(ARRAY[2147483647, 1], BIGINT '0', (s, x) -> s + x, s -> s)", '2147483648'],
  // transform
  ['SELECT transform(ARRAY[], x -> x + 1)', '[]'],
  ['SELECT transform(ARRAY[5, 6], x -> x + 1)', '[6, 7]'],
  ['SELECT transform(ARRAY[5, NULL, 6], x -> coalesce(x, 0) + 1)', '[6, 1, 7]'],
  ["SELECT transform(ARRAY['x', 'abc', 'z'], x -> x || '0')", '[x0, abc0, z0]'],
  ['SELECT transform(ARRAY[ARRAY[1, NULL, 2], ARRAY[3, NULL]], a -> filter(a, x -> x IS NOT NULL))', '[[1, 2], [3]]'],
  // zip_with
  ['SELECT zip_with(ARRAY[1, 2], ARRAY[3, 4], (x, y) -> x + y)', '[4, 6]'],
  ["SELECT zip_with(ARRAY['a', 'b', 'c'], ARRAY['d', 'e', 'f'], (x, y) -> concat(x, y))", '[ad, be, cf]'],
  ["SELECT zip_with(ARRAY['a'], ARRAY['d', null, 'f'], (x, y) -> coalesce(x, y))", '[a, NULL, f]'],
];

/** The page's examples that return or build maps and rows, with their documented results. */
const MAPS_AND_ROWS: ReadonlyArray<[sql: string, result: string]> = [
  ['SELECT array_histogram(ARRAY[42, 7, 42, NULL])', '{42=2, 7=1}'],
  ['SELECT array_histogram(ARRAY[NULL, NULL])', '{}'],
  ["SELECT zip(ARRAY[1, 2], ARRAY['1b', null, '3b'])", '[{1, 1b}, {2, NULL}, {NULL, 3b}]'],
  [
    `SELECT reduce(ARRAY[5, 6, 10, 20],
              CAST(ROW(0.0, 0) AS ROW(sum DOUBLE, count INTEGER)),
              (s, x) -> CAST(ROW(x + s.sum, s.count + 1) AS
                             ROW(sum DOUBLE, count INTEGER)),
              s -> IF(s.count = 0, NULL, s.sum / s.count))`,
    '10.25',
  ],
  ["SELECT zip_with(ARRAY[1, 3, 5], ARRAY['a', 'b', 'c'], (x, y) -> (y, x))", '[{a, 1}, {b, 3}, {c, 5}]'],
];

/**
 * The functions of the page without an example there, each with the behaviour its description
 * states (the text of the description in the comment).
 */
const DESCRIBED: ReadonlyArray<[sql: string, result: string]> = [
  // Remove duplicate values from the array x.
  ['SELECT array_distinct(ARRAY[1, 2, 2, NULL, 1, NULL])', '[1, 2, NULL]'],
  // Maps are equal whatever their entries' order (Trino's map equality): duplicates of maps go too.
  [
    'SELECT array_distinct(ARRAY[MAP(ARRAY[1, 2], ARRAY[2, 3]), MAP(ARRAY[2, 1], ARRAY[3, 2]), MAP(ARRAY[1], ARRAY[3])])',
    '[{1=2, 2=3}, {1=3}]',
  ],
  // Elements in the intersection of x and y, without duplicates.
  ['SELECT array_intersect(ARRAY[1, 2, 2, 3], ARRAY[3, 2, 5])', '[2, 3]'],
  // Elements in the union of x and y, without duplicates.
  ['SELECT array_union(ARRAY[1, 2, 2], ARRAY[3, 1])', '[1, 2, 3]'],
  // Elements in x but not in y, without duplicates.
  ['SELECT array_except(ARRAY[1, 2, 2, 4], ARRAY[3, 1])', '[2, 4]'],
  // The first / last element; NULL for an empty array.
  ['SELECT array_first(ARRAY[7, 8])', '7'],
  ['SELECT array_first(ARRAY[])', 'NULL'],
  ['SELECT array_last(ARRAY[7, 8])', '8'],
  // Concatenates the elements using the delimiter; null elements are omitted, or replaced.
  ["SELECT array_join(ARRAY['a', NULL, 'c'], '-')", 'a-c'],
  ["SELECT array_join(ARRAY['a', NULL, 'c'], '-', 'x')", 'a-x-c'],
  // Maximum and minimum of the input array.
  ['SELECT array_max(ARRAY[3, 9, 1])', '9'],
  ['SELECT array_min(ARRAY[3, 9, 1])', '1'],
  // Position of the first occurrence of the element (0 if not found).
  ['SELECT array_position(ARRAY[5, 6, 6], 6)', '2'],
  ['SELECT array_position(ARRAY[5, 6, 6], 7)', '0'],
  // Remove all elements that equal the element.
  ['SELECT array_remove(ARRAY[1, 2, 1, 3], 1)', '[2, 3]'],
  // Sorts the array; null elements at the end.
  ['SELECT array_sort(ARRAY[3, NULL, 1, 2])', '[1, 2, 3, NULL]'],
  ["SELECT array_sort(ARRAY['b', 'a', 'c'])", '[a, b, c]'],
  // Whether x and y have a non-null element in common; NULL when not, but either contains null.
  ['SELECT arrays_overlap(ARRAY[1, 2], ARRAY[2, 3])', 'true'],
  ['SELECT arrays_overlap(ARRAY[1, 2], ARRAY[3, 4])', 'false'],
  ['SELECT arrays_overlap(ARRAY[1, NULL], ARRAY[3, 4])', 'NULL'],
  // The cardinality (size) of the array.
  ['SELECT cardinality(ARRAY[1, 2, 3])', '3'],
  // Concatenates the arrays, as ||.
  ['SELECT concat(ARRAY[1], ARRAY[2, 3], ARRAY[4])', '[1, 2, 3, 4]'],
  // Whether the array contains the element.
  ['SELECT contains(ARRAY[1, 2], 2)', 'true'],
  ['SELECT contains(ARRAY[1, 2], 3)', 'false'],
  // Whether x contains all of seq as a consecutive subsequence.
  ['SELECT contains_sequence(ARRAY[1, 2, 3, 4], ARRAY[2, 3])', 'true'],
  ['SELECT contains_sequence(ARRAY[1, 2, 3, 4], ARRAY[3, 2])', 'false'],
  // Element at the index; NULL past the end; negative indexes from the last element.
  ['SELECT element_at(ARRAY[1, 2, 3], 2)', '2'],
  ['SELECT element_at(ARRAY[1, 2, 3], 5)', 'NULL'],
  ['SELECT element_at(ARRAY[1, 2, 3], -1)', '3'],
  // Flattens an array(array(T)) by concatenating the contained arrays.
  ['SELECT flatten(ARRAY[ARRAY[1, 2], ARRAY[3]])', '[1, 2, 3]'],
  // Repeat element for count times.
  ["SELECT repeat('x', 3)", '[x, x, x]'],
  // The array in reversed order.
  ['SELECT reverse(ARRAY[1, 2, 3])', '[3, 2, 1]'],
  // Integers from start to stop, by 1 (or -1), or by step.
  ['SELECT sequence(1, 5)', '[1, 2, 3, 4, 5]'],
  ['SELECT sequence(5, 1)', '[5, 4, 3, 2, 1]'],
  ['SELECT sequence(1, 10, 4)', '[1, 5, 9]'],
  // Dates from start to stop, by a day (or minus one), or by a day or month interval.
  ["SELECT sequence(DATE '2024-01-30', DATE '2024-02-02')", '[2024-01-30, 2024-01-31, 2024-02-01, 2024-02-02]'],
  ["SELECT sequence(DATE '2024-01-31', DATE '2024-04-30', INTERVAL '1' MONTH)", '[2024-01-31, 2024-02-29, 2024-03-31, 2024-04-30]'],
  ["SELECT sequence(DATE '2024-01-03', DATE '2024-01-01', INTERVAL '-1' DAY)", '[2024-01-03, 2024-01-02, 2024-01-01]'],
  // Timestamps from start to stop by a day-time or year-month interval.
  [
    "SELECT sequence(TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-01-01 12:30:00', INTERVAL '1' HOUR)",
    '[2024-01-01 10:00:00, 2024-01-01 11:00:00, 2024-01-01 12:00:00]',
  ],
  [
    "SELECT sequence(TIMESTAMP '2024-04-30 10:00:00', TIMESTAMP '2024-01-31 09:00:00', INTERVAL '-1' MONTH)",
    '[2024-04-30 10:00:00, 2024-03-30 10:00:00, 2024-02-29 10:00:00]',
  ],
  // Whether all / any / none of the elements match the predicate: NULL when the predicate gives NULL for one and no element decides.
  ['SELECT all_match(ARRAY[5, 7, 9], x -> x % 2 = 1)', 'true'],
  ['SELECT all_match(ARRAY[], x -> false)', 'true'],
  ['SELECT all_match(ARRAY[true, true, NULL], x -> x)', 'NULL'],
  ['SELECT all_match(ARRAY[true, false, NULL], x -> x)', 'false'],
  ['SELECT any_match(ARRAY[5, 8, 10], x -> x % 2 = 1)', 'true'],
  ['SELECT any_match(ARRAY[], x -> true)', 'false'],
  ['SELECT any_match(ARRAY[false, false, NULL], x -> x)', 'NULL'],
  ['SELECT any_match(ARRAY[true, false, NULL], x -> x)', 'true'],
  ['SELECT none_match(ARRAY[5, 7, 9], x -> x % 2 = 0)', 'true'],
  ['SELECT none_match(ARRAY[5, 8], x -> x % 2 = 0)', 'false'],
  ['SELECT none_match(ARRAY[5, NULL], x -> x % 2 = 0)', 'NULL'],
  // The first element matching the predicate; NULL when none matches.
  ['SELECT array_first(ARRAY[3, 8, 10], x -> x > 5)', '8'],
  ['SELECT array_first(ARRAY[3, 4], x -> x > 5)', 'NULL'],
  // A random permutation of x.
  ['SELECT array_sort(shuffle(ARRAY[3, 1, 2]))', '[1, 2, 3]'],
  // Subset of x from index start (negative: from the end), of the given length.
  ['SELECT slice(ARRAY[1, 2, 3, 4], 2, 2)', '[2, 3]'],
  ['SELECT slice(ARRAY[1, 2, 3, 4], -2, 5)', '[3, 4]'],
];

describe('Trino documentation: functions/array.md', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  async function textOf(sql: string): Promise<string> {
    const { rows, columns } = await engine.query(sql);
    return formatValueAsText(rows[0][0], columns[0].type);
  }

  for (const [sql, result] of DOCUMENTED) {
    it(`${sql} -> ${result}`, async () => {
      expect(await textOf(sql)).to.equal(result);
    });
  }

  for (const [sql, result] of DESCRIBED) {
    it(`(described) ${sql} -> ${result}`, async () => {
      expect(await textOf(sql)).to.equal(result);
    });
  }

  it('types the documented constructors as Trino does', async () => {
    expect((await engine.query('SELECT ARRAY[1, 1.2, 4], ARRAY[1, 2, NULL], ARRAY[]')).types).to.deep.equal([
      'array(decimal(11,1))',
      'array(integer)',
      'array(unknown)',
    ]);
  });

  it("the subscript operator fails past the end, at 0 and below with Trino's messages; element_at at 0 too", async () => {
    const past = await engine.failure('SELECT ARRAY[1, 2, 3][5]');
    expect([past.errorName, past.rawMessage]).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'Array subscript must be less than or equal to array length: 5 > 3',
    ]);
    expect((await engine.failure('SELECT ARRAY[1, 2, 3][0]')).rawMessage).to.equal('SQL array indices start at 1');
    expect((await engine.failure('SELECT ARRAY[1, 2, 3][-1]')).rawMessage).to.equal('Array subscript is negative: -1');
    expect((await engine.failure('SELECT element_at(ARRAY[1, 2, 3], 0)')).rawMessage).to.equal('SQL array indices start at 1');
  });

  for (const [sql, result] of MAPS_AND_ROWS) {
    it(`(maps and rows) ${sql} -> ${result}`, async () => {
      expect(await textOf(sql)).to.equal(result);
    });
  }
});
