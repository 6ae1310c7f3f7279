// What the parser accepts (all of Trino's grammar) but the engine does not run yet, in one place:
// each such construct has a name here, and a statement that contains one fails with NOT_SUPPORTED
// "<name> is not supported" at the construct's position (the first one in the text) before any
// analysis starts.

import { notSupported, type EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import { formatQualifiedName } from '../parser/expression-formatter.js';
import { forEachAstObject } from './ast-utils.js';

/** Statement kinds the engine does not run at all. */
type UnsupportedStatement =
  | Exclude<ast.ManagementStatement, SupportedManagement>
  | Exclude<ast.AccessStatement, ast.SetTimeZone | ast.StartTransaction | ast.Commit | ast.Rollback>
  | ast.CreateIndex;

/** Management statements the engine runs (SHOW CREATE only for views, SET PROPERTIES only for tables: their other targets are refused below). */
type SupportedManagement =
  | ast.ShowStats
  | ast.CreateView
  | ast.DropView
  | ast.ShowCreate
  | ast.Update
  | ast.Merge
  | ast.TruncateTable
  | ast.AddColumn
  | ast.DropNotNullConstraint
  | ast.DropColumn
  | ast.RenameColumn
  | ast.RenameTable
  | ast.SetProperties
  | ast.CommentStatement
  | ast.RenameView
  | ast.SetColumnType
  | ast.SetAuthorization
  | ast.TableExecute;

/** The statements the engine runs. */
export type SupportedStatement = Exclude<ast.Statement, UnsupportedStatement>;

/** The feature each unsupported statement kind is, as its syntax names it (kinds with variants are named in statementFeature). */
const STATEMENT_FEATURES: Record<Exclude<UnsupportedStatement['kind'], 'Comment' | 'SetProperties'>, string> = {
  CreateIndex: 'CREATE INDEX',
  CreateCatalog: 'CREATE CATALOG',
  DropCatalog: 'DROP CATALOG',
  RenameSchema: 'ALTER SCHEMA ... RENAME TO',
  SetColumnDefault: 'ALTER TABLE ... ALTER COLUMN ... SET DEFAULT',
  DropColumnDefault: 'ALTER TABLE ... ALTER COLUMN ... DROP DEFAULT',
  Analyze: 'ANALYZE',
  RefreshView: 'ALTER VIEW ... REFRESH',
  CreateMaterializedView: 'CREATE MATERIALIZED VIEW',
  DropMaterializedView: 'DROP MATERIALIZED VIEW',
  RenameMaterializedView: 'ALTER MATERIALIZED VIEW ... RENAME TO',
  RefreshMaterializedView: 'REFRESH MATERIALIZED VIEW',
  CreateBranch: 'CREATE BRANCH',
  DropBranch: 'DROP BRANCH',
  FastForwardBranch: 'ALTER BRANCH ... FAST FORWARD',
  ShowBranches: 'SHOW BRANCHES',
  Call: 'CALL',
  CreateRole: 'CREATE ROLE',
  DropRole: 'DROP ROLE',
  GrantRoles: 'GRANT',
  RevokeRoles: 'REVOKE',
  GrantPrivileges: 'GRANT',
  RevokePrivileges: 'REVOKE',
  Deny: 'DENY',
  SetRole: 'SET ROLE',
  ShowGrants: 'SHOW GRANTS',
  ShowRoles: 'SHOW ROLES',
  ShowRoleGrants: 'SHOW ROLE GRANTS',
  SetSessionAuthorization: 'SET SESSION AUTHORIZATION',
  ResetSessionAuthorization: 'RESET SESSION AUTHORIZATION',
  SetPath: 'SET PATH',
  ExecuteImmediate: 'EXECUTE IMMEDIATE',
};

/** An unsupported construct: the whole message and where it points. */
interface Unsupported {
  message: string;
  location: SourceLocation;
}

const feature = (name: string, location: SourceLocation): Unsupported => ({ message: `${name} is not supported`, location });

/** Every node the walker may meet that can be, or can hold, an unsupported construct. */
type Node =
  | ast.Statement
  | ast.Expression
  | ast.Relation
  | ast.Query
  | ast.QueryBody
  | ast.GroupingElement
  | ast.TypeSpec
  | ast.ColumnDefinition
  | ast.With
  | ast.Corresponding
  | ast.QueryPeriod
  | ast.LikeClause
  | ast.WithSession
  | ast.FunctionSpecification
  | ast.FramePatternRecognition;

/** The unsupported construct `node` itself is (not looking into its children), if any. */
function unsupportedConstruct(node: Node): Unsupported | undefined {
  switch (node.kind) {
    case 'SetProperties':
      return node.target === 'TABLE' ? undefined : feature(`ALTER ${node.target} ... SET PROPERTIES`, node.location);
    case 'ShowCreate':
      return node.target === 'VIEW' || node.target === 'FUNCTION' ? undefined : feature(`SHOW CREATE ${node.target}`, node.location);
    case 'SetAuthorization':
      return ['TABLE', 'VIEW', 'SCHEMA', 'MATERIALIZED VIEW'].includes(node.entityKind)
        ? undefined
        : feature(`ALTER ${node.entityKind} ... SET AUTHORIZATION`, node.location);
    case 'CreateTable':
    case 'CreateTableAsSelect':
      return node.replace ? feature('CREATE OR REPLACE TABLE', node.location) : undefined;
    case 'CreateSchema':
      return node.authorization ? feature('CREATE SCHEMA ... AUTHORIZATION', node.authorization.location) : undefined;
    case 'ColumnDefinition':
      return unsupportedColumn(node);
    case 'LikeClause':
      return feature('CREATE TABLE ... LIKE', node.location);
    case 'QueryPeriod':
      return feature(`FOR ${node.rangeType} AS OF`, node.location);
    case 'Join':
      return node.criteria?.kind === 'NaturalJoin' ? { message: 'Natural join not supported', location: node.location } : undefined;
    case 'PatternRecognitionRelation':
      return feature('MATCH_RECOGNIZE', node.location);
    case 'FramePatternRecognition':
      return { message: 'Row pattern recognition in window frames (MEASURES, PATTERN, DEFINE) is not supported', location: node.location };
    case 'TypeSpec':
      return node.intervalPrecision ? feature('Interval precision', node.location) : undefined;
    default:
      return unsupportedExpression(node);
  }
}

function unsupportedColumn(column: ast.ColumnDefinition): Unsupported | undefined {
  if (column.fieldPath) {
    const name = [...column.fieldPath, column.name].map((p) => p.value).join('.');
    return { message: `Column name '${name}' must not be qualified`, location: column.location };
  }
  return undefined;
}

function unsupportedExpression(node: Node): Unsupported | undefined {
  switch (node.kind) {
    case 'MatchPredicate':
      return feature('MATCH predicate', node.location);
    case 'Unique':
      return feature('UNIQUE predicate', node.location);
    case 'Measure':
      return { message: 'Row pattern measures (measure OVER window) are not supported', location: node.location };
    // A routine's call takes named arguments: another call meets the translator's unsupportedNode.
    case 'NamedArgument':
      return undefined;
    case 'CaseOperand':
      return { message: 'Predicates as WHEN clauses of a simple CASE are not supported', location: node.location };
    case 'AllColumns':
      return node.aliases && !node.target
        ? { message: 'Column aliases for * (.* AS (...)) are not supported', location: node.aliases[0].location }
        : undefined;
    case 'FunctionCall': {
      const name = formatQualifiedName(node.name);
      if (node.processingMode) return feature(`${node.processingMode} semantics`, node.location);
      return node.withinGroup && name.toLowerCase() !== 'listagg' ? feature(`${name}(...) WITHIN GROUP`, node.location) : undefined;
    }
    default:
      return statementFeature(node);
  }
}

function statementFeature(node: Node): Unsupported | undefined {
  const name = (STATEMENT_FEATURES as Record<string, string | undefined>)[node.kind];
  return name === undefined ? undefined : feature(name, node.location);
}

/** The NOT_SUPPORTED error for `node` when it is (or holds) a construct the engine does not run. */
export function findUnsupported(node: object): EngineError | undefined {
  let first: Unsupported | undefined;
  visit(node, (found) => {
    if (!first || before(found.location, first.location)) first = found;
  });
  return first && notSupported(first.message, first.location);
}

/** Throws NOT_SUPPORTED when the statement holds a construct the engine does not run. */
export function assertSupported(statement: ast.Statement): asserts statement is SupportedStatement {
  const error = findUnsupported(statement);
  if (error) throw error;
}

/** For a node that reached a planner that cannot run it: the same error the statement check gives. */
export function unsupportedNode(node: { kind: string; location: SourceLocation }): EngineError {
  return findUnsupported(node) ?? notSupported(`${node.kind} is not supported`, node.location);
}

function before(a: SourceLocation, b: SourceLocation): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}

/** Every node below `value`; a PREPARE's statement is checked when it is executed, not when it is prepared. */
function visit(value: unknown, report: (found: Unsupported) => void): void {
  forEachAstObject(
    value,
    (record) => {
      // A property's ARRAY[...] is read by the property (list properties such as partitioned_by): only its items are checked.
      if (isListPropertyValue(record)) visit((record.value as ast.ArrayConstructor).items, report);
      if (typeof record.kind !== 'string' || !record.location) return;
      const found = unsupportedConstruct(record as unknown as Node);
      if (found) report(found);
    },
    (record, key) => (key === 'statement' && record.kind === 'Prepare') || (key === 'value' && isListPropertyValue(record)),
  );
}

/** A property given an ARRAY[...] (a list property's value). */
function isListPropertyValue(record: Record<string, unknown>): boolean {
  return record.kind === 'Property' && (record.value as { kind?: string } | undefined)?.kind === 'Array';
}
