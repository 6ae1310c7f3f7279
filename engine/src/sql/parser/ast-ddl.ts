// Statements that define or describe catalogs, schemas, tables, views, materialized views and
// branches beyond CREATE/DROP SCHEMA and TABLE (which are in ast.ts), and the DML that changes
// rows in place: UPDATE, MERGE, TRUNCATE, CALL and ALTER TABLE ... EXECUTE.

import type { Principal } from './ast-access.js';
import type {
  ColumnDefinition,
  Expression,
  Identifier,
  IntervalLiteral,
  NodeBase,
  Property,
  QualifiedName,
  Query,
  Relation,
  TypeSpec,
} from './ast.js';

export type ManagementStatement =
  | CreateCatalog
  | DropCatalog
  | RenameSchema
  | SetAuthorization
  | CommentStatement
  | RenameTable
  | AddColumn
  | RenameColumn
  | DropColumn
  | SetColumnDefault
  | DropColumnDefault
  | SetColumnType
  | DropNotNullConstraint
  | SetProperties
  | Analyze
  | CreateView
  | DropView
  | RenameView
  | RefreshView
  | CreateMaterializedView
  | DropMaterializedView
  | RenameMaterializedView
  | RefreshMaterializedView
  | CreateBranch
  | DropBranch
  | FastForwardBranch
  | ShowBranches
  | ShowCreate
  | ShowStats
  | Update
  | Merge
  | TruncateTable
  | CallStatement
  | TableExecute;

/** `LIKE t [INCLUDING | EXCLUDING PROPERTIES]` among CREATE TABLE's elements. */
export interface LikeClause extends NodeBase {
  kind: 'LikeClause';
  table: QualifiedName;
  properties?: 'INCLUDING' | 'EXCLUDING';
}

export interface CreateCatalog extends NodeBase {
  kind: 'CreateCatalog';
  name: Identifier;
  notExists: boolean;
  connector: Identifier;
  comment?: string;
  authorization?: Principal;
  properties: Property[];
}
export interface DropCatalog extends NodeBase {
  kind: 'DropCatalog';
  name: Identifier;
  exists: boolean;
  cascade: boolean;
}
/** ALTER SCHEMA s RENAME TO t */
export interface RenameSchema extends NodeBase {
  kind: 'RenameSchema';
  source: QualifiedName;
  target: Identifier;
}
/** ALTER TABLE | SCHEMA | VIEW | MATERIALIZED VIEW | <kind> name SET AUTHORIZATION principal */
export interface SetAuthorization extends NodeBase {
  kind: 'SetAuthorization';
  /** Upper-cased: 'TABLE', 'SCHEMA', 'VIEW', 'MATERIALIZED VIEW' or another kind's name. */
  entityKind: string;
  name: QualifiedName;
  principal: Principal;
}
/** COMMENT ON TABLE | VIEW | COLUMN name IS 'text' | NULL */
export interface CommentStatement extends NodeBase {
  kind: 'Comment';
  target: 'TABLE' | 'VIEW' | 'COLUMN';
  name: QualifiedName;
  comment: string | null;
}

// ALTER TABLE. `tableExists` is ALTER TABLE IF EXISTS, `columnExists` / `columnNotExists` the column's IF [NOT] EXISTS.

export interface RenameTable extends NodeBase {
  kind: 'RenameTable';
  tableExists: boolean;
  source: QualifiedName;
  target: QualifiedName;
}
export interface AddColumn extends NodeBase {
  kind: 'AddColumn';
  tableExists: boolean;
  table: QualifiedName;
  columnNotExists: boolean;
  /** The new column; for a field of a row column (`ADD COLUMN r.f int`) its fieldPath names the row column. */
  column: ColumnDefinition;
  /** FIRST | LAST | AFTER column */
  position?: { kind: 'FIRST' } | { kind: 'LAST' } | { kind: 'AFTER'; column: Identifier };
}
export interface RenameColumn extends NodeBase {
  kind: 'RenameColumn';
  tableExists: boolean;
  table: QualifiedName;
  columnExists: boolean;
  source: QualifiedName;
  target: Identifier;
}
export interface DropColumn extends NodeBase {
  kind: 'DropColumn';
  tableExists: boolean;
  table: QualifiedName;
  columnExists: boolean;
  column: QualifiedName;
}
/** ALTER COLUMN c SET DEFAULT literal */
export interface SetColumnDefault extends NodeBase {
  kind: 'SetColumnDefault';
  tableExists: boolean;
  table: QualifiedName;
  column: QualifiedName;
  defaultValue: Expression;
}
/** ALTER COLUMN c DROP DEFAULT */
export interface DropColumnDefault extends NodeBase {
  kind: 'DropColumnDefault';
  tableExists: boolean;
  table: QualifiedName;
  column: QualifiedName;
}
/** ALTER COLUMN c SET DATA TYPE type */
export interface SetColumnType extends NodeBase {
  kind: 'SetColumnType';
  tableExists: boolean;
  table: QualifiedName;
  column: QualifiedName;
  type: TypeSpec;
}
/** ALTER COLUMN c DROP NOT NULL */
export interface DropNotNullConstraint extends NodeBase {
  kind: 'DropNotNullConstraint';
  tableExists: boolean;
  table: QualifiedName;
  column: Identifier;
}
/** ALTER TABLE | MATERIALIZED VIEW name SET PROPERTIES a = 1, b = DEFAULT */
export interface SetProperties extends NodeBase {
  kind: 'SetProperties';
  target: 'TABLE' | 'MATERIALIZED VIEW';
  name: QualifiedName;
  properties: Property[];
}
export interface Analyze extends NodeBase {
  kind: 'Analyze';
  table: QualifiedName;
  properties: Property[];
}

export interface CreateView extends NodeBase {
  kind: 'CreateView';
  replace: boolean;
  name: QualifiedName;
  comment?: string;
  security?: 'DEFINER' | 'INVOKER';
  properties: Property[];
  query: Query;
}
export interface DropView extends NodeBase {
  kind: 'DropView';
  exists: boolean;
  name: QualifiedName;
}
export interface RenameView extends NodeBase {
  kind: 'RenameView';
  source: QualifiedName;
  target: QualifiedName;
}
/** ALTER VIEW v REFRESH */
export interface RefreshView extends NodeBase {
  kind: 'RefreshView';
  name: QualifiedName;
}
export interface CreateMaterializedView extends NodeBase {
  kind: 'CreateMaterializedView';
  replace: boolean;
  notExists: boolean;
  name: QualifiedName;
  /** GRACE PERIOD interval */
  gracePeriod?: IntervalLiteral;
  /** WHEN STALE INLINE | FAIL */
  whenStale?: 'INLINE' | 'FAIL';
  comment?: string;
  properties: Property[];
  query: Query;
}
export interface DropMaterializedView extends NodeBase {
  kind: 'DropMaterializedView';
  exists: boolean;
  name: QualifiedName;
}
export interface RenameMaterializedView extends NodeBase {
  kind: 'RenameMaterializedView';
  exists: boolean;
  source: QualifiedName;
  target: QualifiedName;
}
export interface RefreshMaterializedView extends NodeBase {
  kind: 'RefreshMaterializedView';
  name: QualifiedName;
}

/** CREATE [OR REPLACE] BRANCH [IF NOT EXISTS] b [WITH (...)] IN TABLE t [FROM source] */
export interface CreateBranch extends NodeBase {
  kind: 'CreateBranch';
  replace: boolean;
  notExists: boolean;
  name: Identifier;
  properties: Property[];
  table: QualifiedName;
  from?: Identifier;
}
export interface DropBranch extends NodeBase {
  kind: 'DropBranch';
  exists: boolean;
  name: Identifier;
  table: QualifiedName;
}
/** ALTER BRANCH source IN TABLE t FAST FORWARD TO target */
export interface FastForwardBranch extends NodeBase {
  kind: 'FastForwardBranch';
  source: Identifier;
  table: QualifiedName;
  target: Identifier;
}
export interface ShowBranches extends NodeBase {
  kind: 'ShowBranches';
  table: QualifiedName;
}

/** SHOW CREATE SCHEMA | VIEW | MATERIALIZED VIEW | FUNCTION name (SHOW CREATE TABLE is ShowCreateTable). */
export interface ShowCreate extends NodeBase {
  kind: 'ShowCreate';
  target: 'SCHEMA' | 'VIEW' | 'MATERIALIZED VIEW' | 'FUNCTION';
  name: QualifiedName;
}
/** SHOW STATS FOR table, or SHOW STATS FOR (query). */
export interface ShowStats extends NodeBase {
  kind: 'ShowStats';
  target: QualifiedName | Query;
}

/** UPDATE t [@ branch] SET a = 1, b = 2 [WHERE ...] */
export interface Update extends NodeBase {
  kind: 'Update';
  table: QualifiedName;
  branch?: Identifier;
  assignments: UpdateAssignment[];
  where?: Expression;
}
export interface UpdateAssignment extends NodeBase {
  kind: 'UpdateAssignment';
  column: Identifier;
  value: Expression;
}
/** MERGE INTO t [@ branch] [[AS] alias] USING relation ON condition WHEN ... */
export interface Merge extends NodeBase {
  kind: 'Merge';
  target: QualifiedName;
  branch?: Identifier;
  alias?: Identifier;
  source: Relation;
  on: Expression;
  cases: MergeCase[];
}
export type MergeCase = MergeUpdate | MergeDelete | MergeInsert;
/** WHEN MATCHED [AND condition] THEN UPDATE SET a = 1, ... */
export interface MergeUpdate extends NodeBase {
  kind: 'MergeUpdate';
  condition?: Expression;
  assignments: UpdateAssignment[];
}
/** WHEN MATCHED [AND condition] THEN DELETE */
export interface MergeDelete extends NodeBase {
  kind: 'MergeDelete';
  condition?: Expression;
}
/** WHEN NOT MATCHED [AND condition] THEN INSERT [(a, b)] VALUES (1, 2) */
export interface MergeInsert extends NodeBase {
  kind: 'MergeInsert';
  condition?: Expression;
  columns?: Identifier[];
  values: Expression[];
}
export interface TruncateTable extends NodeBase {
  kind: 'TruncateTable';
  table: QualifiedName;
}
/** CALL procedure(arguments); a named argument is a NamedArgument expression. */
export interface CallStatement extends NodeBase {
  kind: 'Call';
  name: QualifiedName;
  arguments: Expression[];
}
/** ALTER TABLE t EXECUTE procedure[(arguments)] [WHERE ...] */
export interface TableExecute extends NodeBase {
  kind: 'TableExecute';
  table: QualifiedName;
  procedure: Identifier;
  arguments: Expression[];
  where?: Expression;
}
