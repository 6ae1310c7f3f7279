// The SQL/JSON path language (functions/json.md, "JSON path language") as a tree: path expressions
// that yield sequences of items, and the predicates of filters.

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';
export type ComparisonOperator = '==' | '!=' | '<' | '>' | '<=' | '>=';
export type ItemMethod = 'type' | 'size' | 'double' | 'ceiling' | 'floor' | 'abs' | 'keyvalue';

export type PathLiteral =
  | { kind: 'null' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string; exact: boolean };

export type PathExpression =
  | { kind: 'literal'; literal: PathLiteral }
  | { kind: 'context' }
  | { kind: 'variable'; name: string }
  | { kind: 'last' }
  | { kind: 'current' }
  | { kind: 'unary'; negate: boolean; operand: PathExpression }
  | { kind: 'binary'; operator: ArithmeticOperator; left: PathExpression; right: PathExpression }
  | { kind: 'member'; base: PathExpression; key: string }
  | { kind: 'wildcardMember'; base: PathExpression }
  | { kind: 'descendant'; base: PathExpression; key: string }
  | { kind: 'array'; base: PathExpression; subscripts: Subscript[] }
  | { kind: 'wildcardArray'; base: PathExpression }
  | { kind: 'filter'; base: PathExpression; predicate: PathPredicate }
  | { kind: 'method'; base: PathExpression; method: ItemMethod };

export interface Subscript {
  readonly from: PathExpression;
  readonly to?: PathExpression;
}

export type PathPredicate =
  | { kind: 'and' | 'or'; left: PathPredicate; right: PathPredicate }
  | { kind: 'not'; operand: PathPredicate }
  | { kind: 'exists'; path: PathExpression }
  | { kind: 'isUnknown'; predicate: PathPredicate }
  | { kind: 'compare'; operator: ComparisonOperator; left: PathExpression; right: PathExpression }
  | { kind: 'startsWith'; whole: PathExpression; prefix: PathExpression }
  | { kind: 'likeRegex'; base: PathExpression; pattern: RegExp };

/** A parsed path: its mode and expression, and the named variables it reads (for PASSING checks). */
export interface JsonPath {
  readonly lax: boolean;
  readonly expression: PathExpression;
  readonly variables: ReadonlySet<string>;
}
