// The operators the analyzer resolves (RowExpression call names) and how Trino spells them in errors.

export type OperatorName =
  | 'add'
  | 'subtract'
  | 'multiply'
  | 'divide'
  | 'modulus'
  | 'negate'
  | 'equal'
  | 'not_equal'
  | 'less_than'
  | 'less_than_or_equal'
  | 'greater_than'
  | 'greater_than_or_equal'
  | 'is_distinct_from'
  | 'concat';

/**
 * The symbol Trino names in "Cannot apply operator: varchar(1) + integer". Trino resolves <> as =,
 * > as < and >= as <= (with the arguments in their written order), so its messages say so too.
 */
export const OPERATOR_SYMBOLS: Record<Exclude<OperatorName, 'negate' | 'is_distinct_from' | 'concat'>, string> = {
  add: '+',
  subtract: '-',
  multiply: '*',
  divide: '/',
  modulus: '%',
  equal: '=',
  not_equal: '=',
  less_than: '<',
  less_than_or_equal: '<=',
  greater_than: '<',
  greater_than_or_equal: '<=',
};

export const OPERATOR_NAMES: readonly OperatorName[] = [
  'add',
  'subtract',
  'multiply',
  'divide',
  'modulus',
  'negate',
  'equal',
  'not_equal',
  'less_than',
  'less_than_or_equal',
  'greater_than',
  'greater_than_or_equal',
  'is_distinct_from',
  'concat',
];

/** The six comparison operators (=, <>, <, <=, >, >=): each is NULL when an argument is NULL. */
export const COMPARISON_NAMES: ReadonlySet<string> = new Set<OperatorName>([
  'equal',
  'not_equal',
  'less_than',
  'less_than_or_equal',
  'greater_than',
  'greater_than_or_equal',
]);
