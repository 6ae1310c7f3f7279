// The typed AST of the SQL front end. Every node carries the 1-based line:column where it starts,
// so every later error can point at the offending text.

import type { SourceLocation } from '../../errors/engine-error.js';
import type { AccessStatement, Principal } from './ast-access.js';
import type { LikeClause, ManagementStatement } from './ast-ddl.js';
import type { JsonExpression, JsonTable } from './ast-json.js';
import type { FramePatternRecognition, PatternRecognitionRelation } from './ast-pattern.js';
import type { Lateral, Nearest, SampledRelation, TableFunctionInvocation, Unnest } from './ast-relations.js';
import type { FunctionSpecification, RoutineStatement } from './ast-routine.js';

export type * from './ast-access.js';
export type * from './ast-ddl.js';
export type * from './ast-json.js';
export type * from './ast-pattern.js';
export type * from './ast-relations.js';
export type * from './ast-routine.js';

export interface NodeBase {
  /**
   * Where the node starts; binary operators (arithmetic, comparison, AND/OR, ||) carry the operator's
   * position, as Trino reports them, and so do the postfix forms named by a keyword or symbol
   * (AT TIME ZONE, `[index]`, TABLESAMPLE, MATCH_RECOGNIZE).
   */
  location: SourceLocation;
}

/** An identifier as written; `quoted` identifiers keep their case, others are lower-cased by the parser. */
export interface Identifier extends NodeBase {
  kind: 'Identifier';
  value: string;
  quoted: boolean;
}

/** A possibly qualified name: `catalog.schema.table`, `t.column`. Parts are already case-folded. */
export interface QualifiedName extends NodeBase {
  kind: 'QualifiedName';
  parts: Identifier[];
}

// ---------------------------------------------------------------------------------------------
// Types as written in CAST, CREATE TABLE, typed literals

export interface TypeSpec extends NodeBase {
  kind: 'TypeSpec';
  /** Lower-cased base name, multi-word names joined by one space: 'double precision', 'interval year to month'. */
  name: string;
  /** Numeric parameters: varchar(25) -> [25], decimal(12,2) -> [12, 2]. */
  parameters: number[];
  /** `INTERVAL DAY(3) TO SECOND(6)`: the precisions of an interval type. */
  intervalPrecision?: IntervalPrecision;
  /** Type parameters: array(integer), integer ARRAY and ARRAY<integer> -> array [integer]; map(k, v) -> map [k, v]. */
  typeParameters?: TypeSpec[];
  /** The fields of ROW(name type, ...). */
  fields?: RowFieldSpec[];
}
export interface RowFieldSpec extends NodeBase {
  kind: 'RowFieldSpec';
  name?: Identifier;
  type: TypeSpec;
}

// ---------------------------------------------------------------------------------------------
// Expressions

export type Expression =
  | Identifier
  | DereferenceExpression
  | NullLiteral
  | BooleanLiteral
  | LongLiteral
  | DecimalLiteral
  | DoubleLiteral
  | StringLiteral
  | BinaryLiteral
  | GenericLiteral
  | IntervalLiteral
  | Parameter
  | ArithmeticBinary
  | ArithmeticUnary
  | Comparison
  | LogicalBinary
  | NotExpression
  | IsNullPredicate
  | IsDistinctFrom
  | BetweenPredicate
  | InListPredicate
  | InSubqueryPredicate
  | QuantifiedComparison
  | ExistsPredicate
  | SubqueryExpression
  | LikePredicate
  | SearchedCase
  | SimpleCase
  | Cast
  | Extract
  | FunctionCall
  | CurrentTime
  | Concat
  | RowConstructor
  | AllColumns
  | BooleanTest
  | MatchPredicate
  | UniquePredicate
  | AtTimeZone
  | Lambda
  | ArrayConstructor
  | Subscript
  | MethodCall
  | StaticMethodCall
  | Measure
  | NamedArgument
  | Overlay
  | CaseOperand
  | JsonExpression;

/** `a.b` where `a` is an expression (resolved by the analyzer as a qualified column name when possible). */
export interface DereferenceExpression extends NodeBase {
  kind: 'Dereference';
  base: Expression;
  field: Identifier;
}

export interface NullLiteral extends NodeBase {
  kind: 'NullLiteral';
}
export interface BooleanLiteral extends NodeBase {
  kind: 'BooleanLiteral';
  value: boolean;
}
/** An integer literal, exact: `value` is a bigint (the analyzer types it integer or bigint by range). */
export interface LongLiteral extends NodeBase {
  kind: 'LongLiteral';
  value: bigint;
  text: string;
}
/** `1.5`, `12345678901234567890.123`: a decimal literal kept as text (exact). */
export interface DecimalLiteral extends NodeBase {
  kind: 'DecimalLiteral';
  text: string;
}
/** `1e3`, `2.5E-1`: a double literal. */
export interface DoubleLiteral extends NodeBase {
  kind: 'DoubleLiteral';
  value: number;
  text: string;
}
export interface StringLiteral extends NodeBase {
  kind: 'StringLiteral';
  value: string;
}
/** `X'0aFF'` */
export interface BinaryLiteral extends NodeBase {
  kind: 'BinaryLiteral';
  hex: string;
}
/** `DATE '2020-01-01'`, `TIMESTAMP '...'`, `DECIMAL '1.2'`, `TIME '...'`, `REAL '1.5'` ... */
export interface GenericLiteral extends NodeBase {
  kind: 'GenericLiteral';
  type: TypeSpec;
  value: string;
}
/** `INTERVAL '3' MONTH`, `INTERVAL '1-2' YEAR TO MONTH`, `INTERVAL -'2' DAY` */
export interface IntervalLiteral extends NodeBase {
  kind: 'IntervalLiteral';
  value: string;
  sign: 1 | -1;
  startField: IntervalField;
  endField?: IntervalField;
  /** `DAY(3)`, `SECOND(2, 6)`, `TO SECOND(6)`: precisions as written. */
  precision?: IntervalPrecision;
}
export interface IntervalPrecision {
  leading?: number;
  fractional?: number;
}
export type IntervalField = 'YEAR' | 'MONTH' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND';

/** `?` in a prepared statement; index counts from 0 in textual order. */
export interface Parameter extends NodeBase {
  kind: 'Parameter';
  index: number;
}

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';
export interface ArithmeticBinary extends NodeBase {
  kind: 'ArithmeticBinary';
  operator: ArithmeticOperator;
  left: Expression;
  right: Expression;
}
export interface ArithmeticUnary extends NodeBase {
  kind: 'ArithmeticUnary';
  operator: '+' | '-';
  value: Expression;
}

export type ComparisonOperator = '=' | '<>' | '<' | '<=' | '>' | '>=';
export interface Comparison extends NodeBase {
  kind: 'Comparison';
  operator: ComparisonOperator;
  left: Expression;
  right: Expression;
}
export interface LogicalBinary extends NodeBase {
  kind: 'LogicalBinary';
  operator: 'AND' | 'OR';
  left: Expression;
  right: Expression;
}
export interface NotExpression extends NodeBase {
  kind: 'Not';
  value: Expression;
}
export interface IsNullPredicate extends NodeBase {
  kind: 'IsNull';
  value: Expression;
  negated: boolean;
}
export interface IsDistinctFrom extends NodeBase {
  kind: 'IsDistinctFrom';
  left: Expression;
  right: Expression;
  negated: boolean; // IS NOT DISTINCT FROM
}
export interface BetweenPredicate extends NodeBase {
  kind: 'Between';
  value: Expression;
  min: Expression;
  max: Expression;
  negated: boolean;
  /** As written: SYMMETRIC accepts the bounds in either order; ASYMMETRIC is the default. */
  symmetry?: 'SYMMETRIC' | 'ASYMMETRIC';
}
/** `x IS [NOT] TRUE | FALSE | UNKNOWN` */
export interface BooleanTest extends NodeBase {
  kind: 'BooleanTest';
  value: Expression;
  truthValue: 'TRUE' | 'FALSE' | 'UNKNOWN';
  negated: boolean;
}
/** `x MATCH [UNIQUE] [SIMPLE | PARTIAL | FULL] (query)` */
export interface MatchPredicate extends NodeBase {
  kind: 'MatchPredicate';
  value: Expression;
  unique: boolean;
  matchType?: 'SIMPLE' | 'PARTIAL' | 'FULL';
  query: Query;
}
/** `UNIQUE (query)` */
export interface UniquePredicate extends NodeBase {
  kind: 'Unique';
  query: Query;
}
/** `x AT TIME ZONE 'zone'`, `x AT TIME ZONE INTERVAL ...`, `x AT LOCAL` (no zone); located at AT. */
export interface AtTimeZone extends NodeBase {
  kind: 'AtTimeZone';
  value: Expression;
  zone?: Expression;
}
/** `x -> x + 1`, `(a, b) -> a + b`, `() -> 1` */
export interface Lambda extends NodeBase {
  kind: 'Lambda';
  parameters: Identifier[];
  body: Expression;
}
/** `ARRAY[1, 2]` or `[1, 2]` */
export interface ArrayConstructor extends NodeBase {
  kind: 'Array';
  items: Expression[];
}
/** `base[index]`, located at `[`. */
export interface Subscript extends NodeBase {
  kind: 'Subscript';
  base: Expression;
  index: Expression;
}
/** `(expression).method(args)`: a call on a value that is not a plain name (`a.b(x)` reads as a function call). */
export interface MethodCall extends NodeBase {
  kind: 'MethodCall';
  base: Expression;
  method: Identifier;
  args: Expression[];
}
/** `name::method(args)` */
export interface StaticMethodCall extends NodeBase {
  kind: 'StaticMethodCall';
  target: QualifiedName;
  method: Identifier;
  args: Expression[];
}
/** `measure OVER w`: a row pattern measure of a window (MEASURES in the window frame). */
export interface Measure extends NodeBase {
  kind: 'Measure';
  name: Identifier;
  window: WindowSpecification | Identifier;
}
/** `name => value` as a function or procedure argument. */
export interface NamedArgument extends NodeBase {
  kind: 'NamedArgument';
  name: Identifier;
  value: Expression;
}
/** `OVERLAY(value PLACING replacement FROM start [FOR length])` */
export interface Overlay extends NodeBase {
  kind: 'Overlay';
  value: Expression;
  replacement: Expression;
  start: Expression;
  length?: Expression;
}
/**
 * The operand of a simple CASE where a WHEN clause is a predicate on it: in `CASE x WHEN > 5 THEN ...`
 * the clause's operand is a Comparison whose left side is this node.
 */
export interface CaseOperand extends NodeBase {
  kind: 'CaseOperand';
}
export interface InListPredicate extends NodeBase {
  kind: 'InList';
  value: Expression;
  list: Expression[];
  negated: boolean;
}
export interface InSubqueryPredicate extends NodeBase {
  kind: 'InSubquery';
  value: Expression;
  query: Query;
  negated: boolean;
}
/** `x = ANY (subquery)`, `x > ALL (subquery)`, `SOME` reads as ANY. */
export interface QuantifiedComparison extends NodeBase {
  kind: 'QuantifiedComparison';
  operator: ComparisonOperator;
  quantifier: 'ANY' | 'ALL';
  value: Expression;
  query: Query;
}
export interface ExistsPredicate extends NodeBase {
  kind: 'Exists';
  query: Query;
}
/** A scalar subquery `(SELECT ...)` used as a value. */
export interface SubqueryExpression extends NodeBase {
  kind: 'Subquery';
  query: Query;
}
export interface LikePredicate extends NodeBase {
  kind: 'Like';
  value: Expression;
  pattern: Expression;
  escape?: Expression;
  negated: boolean;
}
export interface WhenClause extends NodeBase {
  kind: 'WhenClause';
  operand: Expression;
  result: Expression;
}
export interface SearchedCase extends NodeBase {
  kind: 'SearchedCase';
  whenClauses: WhenClause[];
  defaultValue?: Expression;
}
export interface SimpleCase extends NodeBase {
  kind: 'SimpleCase';
  operand: Expression;
  whenClauses: WhenClause[];
  defaultValue?: Expression;
}
export interface Cast extends NodeBase {
  kind: 'Cast';
  value: Expression;
  type: TypeSpec;
  safe: boolean; // TRY_CAST
}
export type ExtractField =
  | 'YEAR'
  | 'QUARTER'
  | 'MONTH'
  | 'WEEK'
  | 'DAY'
  | 'DAY_OF_MONTH'
  | 'DAY_OF_WEEK'
  | 'DOW'
  | 'DAY_OF_YEAR'
  | 'DOY'
  | 'YEAR_OF_WEEK'
  | 'YOW'
  | 'HOUR'
  | 'MINUTE'
  | 'SECOND'
  | 'MILLISECOND'
  | 'TIMEZONE_HOUR'
  | 'TIMEZONE_MINUTE';
export interface Extract extends NodeBase {
  kind: 'Extract';
  field: ExtractField;
  value: Expression;
}

export type FrameBoundType = 'UNBOUNDED_PRECEDING' | 'PRECEDING' | 'CURRENT_ROW' | 'FOLLOWING' | 'UNBOUNDED_FOLLOWING';
export interface FrameBound extends NodeBase {
  kind: 'FrameBound';
  type: FrameBoundType;
  value?: Expression; // for PRECEDING / FOLLOWING with an offset
}
export interface WindowFrame extends NodeBase {
  kind: 'WindowFrame';
  unit: 'ROWS' | 'RANGE' | 'GROUPS';
  start: FrameBound;
  end?: FrameBound; // absent: CURRENT ROW
  /** MEASURES, AFTER MATCH, PATTERN, SUBSET, DEFINE around the frame extent. */
  patternRecognition?: FramePatternRecognition;
}
export interface WindowSpecification extends NodeBase {
  kind: 'WindowSpecification';
  existingWindowName?: Identifier;
  partitionBy: Expression[];
  orderBy: SortItem[];
  frame?: WindowFrame;
}

/**
 * A function call, aggregate or window: `count(*)`, `count(DISTINCT x)`, `sum(x) FILTER (WHERE y)`,
 * `rank() OVER (...)`, `substring(x FROM 1 FOR 2)` (parsed as substring(x, 1, 2)),
 * `position(a IN b)` (parsed as strpos(b, a)), `trim(BOTH 'x' FROM y)`, `coalesce`, `nullif`, `if`, `try`.
 */
export interface FunctionCall extends NodeBase {
  kind: 'FunctionCall';
  name: QualifiedName;
  args: Expression[];
  distinct: boolean;
  /** `count(*)`: args is empty and starArg is true. */
  starArg: boolean;
  filter?: Expression;
  orderBy?: SortItem[]; // inside the call: array_agg(x ORDER BY y)
  window?: WindowSpecification | Identifier; // OVER (...) or OVER w
  nullTreatment?: 'IGNORE' | 'RESPECT';
  /** RUNNING / FINAL before the name (row pattern recognition). */
  processingMode?: 'RUNNING' | 'FINAL';
  /** `WITHIN GROUP (ORDER BY ...)` after the arguments: listagg, and ordered-set aggregates such as percentile_cont. */
  withinGroup?: SortItem[];
  /** listagg's `ON OVERFLOW ERROR` or `ON OVERFLOW TRUNCATE ['filler'] WITH|WITHOUT COUNT`. */
  listaggOverflow?: ListaggOverflow;
}
export type ListaggOverflow = { behavior: 'ERROR' } | { behavior: 'TRUNCATE'; filler?: string; withCount: boolean };

/** current_date, current_time, current_timestamp, localtime, localtimestamp (no parentheses). */
export interface CurrentTime extends NodeBase {
  kind: 'CurrentTime';
  function: 'current_date' | 'current_time' | 'current_timestamp' | 'localtime' | 'localtimestamp';
  precision?: number;
}
/** `a || b` */
export interface Concat extends NodeBase {
  kind: 'Concat';
  left: Expression;
  right: Expression;
}
/** `ROW(1, 2)`, `(1, 2)` or `ROW(1 AS a, 2 AS b)` */
export interface RowConstructor extends NodeBase {
  kind: 'Row';
  items: Expression[];
  /** Present when a field is named: one entry per item, null for an unnamed one. */
  fieldNames?: (Identifier | null)[];
}
/**
 * `*`, `t.*` (prefix) or `expression.*` (target) in a select list, optionally `AS (a, b)`; `label.*`
 * is also a function argument (row pattern count).
 */
export interface AllColumns extends NodeBase {
  kind: 'AllColumns';
  prefix?: QualifiedName;
  target?: Expression;
  aliases?: Identifier[];
}

// ---------------------------------------------------------------------------------------------
// Queries

export interface SortItem extends NodeBase {
  kind: 'SortItem';
  key: Expression;
  ordering: 'ASC' | 'DESC';
  nullOrdering?: 'FIRST' | 'LAST'; // absent: Trino's default, NULLS LAST
}

export interface SelectItemExpression extends NodeBase {
  kind: 'SelectExpression';
  expression: Expression;
  alias?: Identifier;
}
export type SelectItem = SelectItemExpression | AllColumns;

export interface Select extends NodeBase {
  kind: 'Select';
  distinct: boolean;
  items: SelectItem[];
}

export interface GroupingElementSimple extends NodeBase {
  kind: 'SimpleGroupBy';
  expressions: Expression[];
}
export interface GroupingSets extends NodeBase {
  kind: 'GroupingSets';
  sets: Expression[][];
}
/** `ROLLUP (a, (b, c))`: its elements, each one column or a composite `(b, c)` that rolls up as one. */
export interface Rollup extends NodeBase {
  kind: 'Rollup';
  elements: Expression[][];
}
/** `CUBE (a, (b, c))`: its elements, as in ROLLUP. */
export interface Cube extends NodeBase {
  kind: 'Cube';
  elements: Expression[][];
}
/** `GROUP BY AUTO`: group by every select item that is not an aggregate. */
export interface AutoGroupBy extends NodeBase {
  kind: 'AutoGroupBy';
}
export type GroupingElement = GroupingElementSimple | GroupingSets | Rollup | Cube | AutoGroupBy;

export interface GroupBy extends NodeBase {
  kind: 'GroupBy';
  distinct: boolean; // GROUP BY DISTINCT
  elements: GroupingElement[];
}

export interface WindowDefinition extends NodeBase {
  kind: 'WindowDefinition';
  name: Identifier;
  window: WindowSpecification;
}

/**
 * One SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... block. The parser always puts ORDER BY,
 * OFFSET and LIMIT on the enclosing Query node (also for a plain SELECT), so here `orderBy` is empty
 * and `offset` / `limit` are absent in parsed ASTs.
 */
export interface QuerySpecification extends NodeBase {
  kind: 'QuerySpecification';
  select: Select;
  from?: Relation;
  where?: Expression;
  groupBy?: GroupBy;
  having?: Expression;
  windows: WindowDefinition[];
  orderBy: SortItem[];
  offset?: Expression;
  limit?: Expression | 'ALL';
}

export interface SetOperation extends NodeBase {
  kind: 'SetOperation';
  operator: 'UNION' | 'INTERSECT' | 'EXCEPT';
  distinct: boolean; // false for ALL
  /**
   * Two or more inputs, combined from left to right: `a UNION b UNION c` is one SetOperation of
   * three inputs, meaning ((a UNION b) UNION c). A chain changing the operator, ALL / DISTINCT or
   * CORRESPONDING nests (a UNION ALL b UNION c has the UNION ALL as the UNION's first input).
   */
  inputs: QueryBody[];
  corresponding?: Corresponding;
}
/** `CORRESPONDING [BY (a, b)]`: match the inputs' columns by name. */
export interface Corresponding extends NodeBase {
  kind: 'Corresponding';
  columns?: Identifier[];
}

export interface Values extends NodeBase {
  kind: 'Values';
  rows: Expression[]; // each a Row for multi-column values, or a single expression
}

export interface TableReference extends NodeBase {
  kind: 'Table';
  name: QualifiedName;
  /** `FOR TIMESTAMP | VERSION AS OF ...` after a table in FROM. */
  queryPeriod?: QueryPeriod;
}
export interface QueryPeriod extends NodeBase {
  kind: 'QueryPeriod';
  rangeType: 'TIMESTAMP' | 'VERSION';
  end: Expression;
}

/** A parenthesised query used as a query body: `(SELECT ...) UNION ...`. */
export interface SubqueryBody extends NodeBase {
  kind: 'SubqueryBody';
  query: Query;
}

export type QueryBody = QuerySpecification | SetOperation | Values | TableReference | SubqueryBody;

export interface WithQuery extends NodeBase {
  kind: 'WithQuery';
  name: Identifier;
  columnAliases?: Identifier[];
  query: Query;
}
export interface With extends NodeBase {
  kind: 'With';
  recursive: boolean;
  queries: WithQuery[];
}

/** A full query: WITH, a body, and the ORDER BY / OFFSET / LIMIT applying to the whole body. */
export interface Query extends NodeBase {
  kind: 'Query';
  /** `WITH FUNCTION ...` before a top-level query (inline SQL routines). */
  functions?: FunctionSpecification[];
  with?: With;
  body: QueryBody;
  orderBy: SortItem[];
  offset?: Expression;
  limit?: Expression | 'ALL'; // LIMIT n, FETCH FIRST n ROWS ONLY
  /** FETCH FIRST n ROWS WITH TIES (the limit also keeps the rows that tie with the last one). */
  withTies?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Relations

export interface AliasedRelation extends NodeBase {
  kind: 'AliasedRelation';
  relation: Relation;
  alias: Identifier;
  columnNames?: Identifier[];
}
export interface SubqueryRelation extends NodeBase {
  kind: 'SubqueryRelation';
  query: Query;
}
export interface JoinOn {
  kind: 'JoinOn';
  expression: Expression;
}
export interface JoinUsing {
  kind: 'JoinUsing';
  columns: Identifier[];
}
export interface NaturalJoin {
  kind: 'NaturalJoin';
}
export interface Join extends NodeBase {
  kind: 'Join';
  type: 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | 'CROSS' | 'IMPLICIT'; // IMPLICIT = comma join
  left: Relation;
  right: Relation;
  criteria?: JoinOn | JoinUsing | NaturalJoin;
}
/** `(VALUES ...)` or a parenthesised relation in FROM. */
export interface ValuesRelation extends NodeBase {
  kind: 'ValuesRelation';
  values: Values;
}
export type Relation =
  | TableReference
  | AliasedRelation
  | SubqueryRelation
  | Join
  | ValuesRelation
  | SampledRelation
  | PatternRecognitionRelation
  | Unnest
  | Lateral
  | TableFunctionInvocation
  | JsonTable
  | Nearest;

// ---------------------------------------------------------------------------------------------
// Statements

export interface ColumnDefinition extends NodeBase {
  kind: 'ColumnDefinition';
  name: Identifier;
  /** `r.f type` (ALTER TABLE ADD COLUMN of a row field): the names before the last. */
  fieldPath?: Identifier[];
  type: TypeSpec;
  nullable: boolean; // NOT NULL makes it false
  comment?: string;
  /** `DEFAULT literal` */
  defaultValue?: Expression;
  /**
   * `PRIMARY KEY` / `UNIQUE` after the type. Not Trino syntax: accepted so the sqllogictest corpus
   * (written for SQLite & co) parses; the engine enforces no constraint.
   */
  constraint?: 'PRIMARY KEY' | 'UNIQUE';
  /** WITH (name = value, ...) after the column; absent when there is none. */
  properties?: Property[];
}

/** `name = value` in WITH (...); `name = DEFAULT` has no value (the property's default). */
export interface Property extends NodeBase {
  kind: 'Property';
  name: Identifier;
  value?: Expression;
}
export type Statement =
  | QueryStatement
  | ExplainStatement
  | ShowCatalogs
  | ShowSchemas
  | ShowTables
  | ShowColumns
  | ShowFunctions
  | ShowSession
  | ShowCreateTable
  | DescribeInput
  | DescribeOutput
  | UseStatement
  | SetSession
  | ResetSession
  | PrepareStatement
  | ExecuteStatement
  | DeallocateStatement
  | CreateSchema
  | DropSchema
  | CreateTable
  | CreateTableAsSelect
  | InsertStatement
  | DeleteStatement
  | DropTable
  | CreateIndex
  | ManagementStatement
  | AccessStatement
  | RoutineStatement;

export interface QueryStatement extends NodeBase {
  kind: 'QueryStatement';
  query: Query;
  /** `WITH SESSION name = value, ...` before the query: session properties for this query only. */
  session?: WithSession;
}
export interface WithSession extends NodeBase {
  kind: 'WithSession';
  properties: SessionProperty[];
}
export interface SessionProperty extends NodeBase {
  kind: 'SessionProperty';
  name: QualifiedName;
  value: Expression;
}
export interface ExplainStatement extends NodeBase {
  kind: 'Explain';
  statement: Statement;
  analyze: boolean;
  verbose: boolean;
  /** EXPLAIN (TYPE LOGICAL|DISTRIBUTED|VALIDATE|IO, FORMAT TEXT|GRAPHVIZ|JSON) */
  type?: 'LOGICAL' | 'DISTRIBUTED' | 'VALIDATE' | 'IO';
  format?: 'TEXT' | 'GRAPHVIZ' | 'JSON';
}
export interface ShowCatalogs extends NodeBase {
  kind: 'ShowCatalogs';
  like?: string;
  escape?: string;
}
export interface ShowSchemas extends NodeBase {
  kind: 'ShowSchemas';
  catalog?: Identifier;
  like?: string;
  escape?: string;
}
export interface ShowTables extends NodeBase {
  kind: 'ShowTables';
  schema?: QualifiedName;
  like?: string;
  escape?: string;
}
/** SHOW COLUMNS FROM t, DESCRIBE t */
export interface ShowColumns extends NodeBase {
  kind: 'ShowColumns';
  table: QualifiedName;
  like?: string;
  escape?: string;
}
export interface ShowFunctions extends NodeBase {
  kind: 'ShowFunctions';
  /** SHOW FUNCTIONS FROM catalog.schema */
  schema?: QualifiedName;
  like?: string;
  escape?: string;
}
export interface ShowSession extends NodeBase {
  kind: 'ShowSession';
  like?: string;
  escape?: string;
}
export interface ShowCreateTable extends NodeBase {
  kind: 'ShowCreateTable';
  table: QualifiedName;
}
export interface DescribeInput extends NodeBase {
  kind: 'DescribeInput';
  name: Identifier;
}
/** DESCRIBE OUTPUT name (a prepared statement) or DESCRIBE OUTPUT (query). */
export type DescribeOutput = NodeBase & { kind: 'DescribeOutput' } & ({ name: Identifier } | { query: Query });
/** USE catalog.schema or USE schema */
export interface UseStatement extends NodeBase {
  kind: 'Use';
  catalog?: Identifier;
  schema: Identifier;
}
export interface SetSession extends NodeBase {
  kind: 'SetSession';
  name: QualifiedName;
  value: Expression;
}
export interface ResetSession extends NodeBase {
  kind: 'ResetSession';
  name: QualifiedName;
}
export interface PrepareStatement extends NodeBase {
  kind: 'Prepare';
  name: Identifier;
  statement: Statement;
  /** The statement's own SQL text, as sent back in X-Engine-Added-Prepare. */
  sql: string;
}
export interface ExecuteStatement extends NodeBase {
  kind: 'Execute';
  name: Identifier;
  parameters: Expression[];
}
export interface DeallocateStatement extends NodeBase {
  kind: 'Deallocate';
  name: Identifier;
}
export interface CreateSchema extends NodeBase {
  kind: 'CreateSchema';
  name: QualifiedName;
  notExists: boolean; // IF NOT EXISTS
  properties: Property[];
  authorization?: Principal;
}
export interface DropSchema extends NodeBase {
  kind: 'DropSchema';
  name: QualifiedName;
  exists: boolean; // IF EXISTS
  cascade: boolean;
}
export interface CreateTable extends NodeBase {
  kind: 'CreateTable';
  name: QualifiedName;
  notExists: boolean;
  columns: ColumnDefinition[];
  properties: Property[];
  comment?: string;
  /** CREATE OR REPLACE TABLE */
  replace?: boolean;
  likeClauses?: LikeClause[];
}
export interface CreateTableAsSelect extends NodeBase {
  kind: 'CreateTableAsSelect';
  name: QualifiedName;
  notExists: boolean;
  replace?: boolean;
  columnAliases?: Identifier[];
  query: Query;
  withData: boolean; // WITH NO DATA makes it false
  properties: Property[];
  comment?: string;
}
export interface InsertStatement extends NodeBase {
  kind: 'Insert';
  target: QualifiedName;
  /** `INSERT INTO t @ branch` */
  branch?: Identifier;
  columns?: Identifier[];
  query: Query; // INSERT ... VALUES is a Query whose body is Values
}
export interface DeleteStatement extends NodeBase {
  kind: 'Delete';
  table: QualifiedName;
  branch?: Identifier;
  where?: Expression;
}
export interface DropTable extends NodeBase {
  kind: 'DropTable';
  name: QualifiedName;
  exists: boolean;
}

/**
 * `CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (columns)`. Not Trino syntax: parsed so the
 * sqllogictest corpus parses; the engine has no indexes, so the statement layer decides what it does.
 */
export interface CreateIndex extends NodeBase {
  kind: 'CreateIndex';
  name: QualifiedName;
  table: QualifiedName;
  columns: Identifier[];
  unique: boolean;
  notExists: boolean;
}
