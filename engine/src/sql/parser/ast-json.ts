// The SQL/JSON forms: JSON_EXISTS, JSON_VALUE, JSON_QUERY, JSON_OBJECT, JSON_ARRAY and JSON_TABLE.

import type { Expression, Identifier, NodeBase, TypeSpec } from './ast.js';

export type JsonExpression = JsonExists | JsonValue | JsonQuery | JsonObject | JsonArray;

/** FORMAT JSON [ENCODING UTF8 | UTF16 | UTF32] */
export type JsonFormat = 'JSON' | 'JSON ENCODING UTF8' | 'JSON ENCODING UTF16' | 'JSON ENCODING UTF32';

/** A value given to a JSON form, optionally `FORMAT JSON ...`. */
export interface JsonValueExpression extends NodeBase {
  kind: 'JsonValueExpression';
  value: Expression;
  format?: JsonFormat;
}

/** `input, 'path' [AS name] [PASSING value AS name, ...]`: the arguments every path-based form starts with. */
export interface JsonPathInvocation extends NodeBase {
  kind: 'JsonPathInvocation';
  input: JsonValueExpression;
  path: string;
  /** Where the path's string literal is written. */
  pathLocation?: NodeBase['location'];
  pathName?: Identifier;
  passing: JsonArgument[];
}
export interface JsonArgument extends NodeBase {
  kind: 'JsonArgument';
  value: JsonValueExpression;
  name: Identifier;
}

/** ERROR | NULL | DEFAULT value, for ON EMPTY / ON ERROR of JSON_VALUE and value columns. */
export type JsonValueBehavior = { type: 'ERROR' } | { type: 'NULL' } | { type: 'DEFAULT'; value: Expression };
/** ERROR | NULL | EMPTY ARRAY | EMPTY OBJECT, for JSON_QUERY and query columns. */
export type JsonQueryBehavior = 'ERROR' | 'NULL' | 'EMPTY ARRAY' | 'EMPTY OBJECT';
/** WITHOUT [ARRAY] WRAPPER | WITH [CONDITIONAL | UNCONDITIONAL] [ARRAY] WRAPPER (WITH alone is UNCONDITIONAL). */
export type JsonWrapper = 'WITHOUT' | 'CONDITIONAL' | 'UNCONDITIONAL';
/** KEEP | OMIT QUOTES [ON SCALAR STRING] */
export interface JsonQuotes {
  keep: boolean;
  onScalarString: boolean;
}

export interface JsonExists extends NodeBase {
  kind: 'JsonExists';
  invocation: JsonPathInvocation;
  onError?: 'TRUE' | 'FALSE' | 'UNKNOWN' | 'ERROR';
}
export interface JsonValue extends NodeBase {
  kind: 'JsonValue';
  invocation: JsonPathInvocation;
  returning?: TypeSpec;
  onEmpty?: JsonValueBehavior;
  onError?: JsonValueBehavior;
}
export interface JsonQuery extends NodeBase {
  kind: 'JsonQuery';
  invocation: JsonPathInvocation;
  returning?: TypeSpec;
  returningFormat?: JsonFormat;
  wrapper?: JsonWrapper;
  quotes?: JsonQuotes;
  onEmpty?: JsonQueryBehavior;
  onError?: JsonQueryBehavior;
}
/** `key VALUE value` or `key : value` */
export interface JsonObjectMember extends NodeBase {
  kind: 'JsonObjectMember';
  key: Expression;
  value: JsonValueExpression;
}
export interface JsonObject extends NodeBase {
  kind: 'JsonObject';
  members: JsonObjectMember[];
  /** NULL ON NULL (true) or ABSENT ON NULL (false), as written. */
  nullOnNull?: boolean;
  /** WITH UNIQUE [KEYS] (true) or WITHOUT UNIQUE [KEYS] (false), as written. */
  uniqueKeys?: boolean;
  returning?: TypeSpec;
  returningFormat?: JsonFormat;
}
export interface JsonArray extends NodeBase {
  kind: 'JsonArray';
  elements: JsonValueExpression[];
  nullOnNull?: boolean;
  returning?: TypeSpec;
  returningFormat?: JsonFormat;
}

/** `JSON_TABLE(input, 'path' ... COLUMNS (...) [PLAN ...] [ERROR | EMPTY ON ERROR])` in FROM. */
export interface JsonTable extends NodeBase {
  kind: 'JsonTable';
  invocation: JsonPathInvocation;
  columns: JsonTableColumn[];
  plan?: JsonTablePlan;
  onError?: 'ERROR' | 'EMPTY';
}

export type JsonTableColumn = JsonOrdinalityColumn | JsonValueColumn | JsonQueryColumn | JsonNestedColumns;
/** `name FOR ORDINALITY` */
export interface JsonOrdinalityColumn extends NodeBase {
  kind: 'JsonOrdinalityColumn';
  name: Identifier;
}
export interface JsonValueColumn extends NodeBase {
  kind: 'JsonValueColumn';
  name: Identifier;
  type: TypeSpec;
  path?: string;
  onEmpty?: JsonValueBehavior;
  onError?: JsonValueBehavior;
}
export interface JsonQueryColumn extends NodeBase {
  kind: 'JsonQueryColumn';
  name: Identifier;
  type: TypeSpec;
  format: JsonFormat;
  path?: string;
  wrapper?: JsonWrapper;
  quotes?: JsonQuotes;
  onEmpty?: JsonQueryBehavior;
  onError?: JsonQueryBehavior;
}
/** `NESTED [PATH] 'path' [AS name] COLUMNS (...)` */
export interface JsonNestedColumns extends NodeBase {
  kind: 'JsonNestedColumns';
  path: string;
  pathName?: Identifier;
  columns: JsonTableColumn[];
}

export type JsonTablePlan = JsonTablePlanLeaf | JsonTablePlanJoin | JsonTablePlanSiblings | JsonTableDefaultPlan;
/** A path name in PLAN (...). */
export interface JsonTablePlanLeaf extends NodeBase {
  kind: 'JsonTablePlanLeaf';
  name: Identifier;
}
/** `parent OUTER | INNER child` */
export interface JsonTablePlanJoin extends NodeBase {
  kind: 'JsonTablePlanJoin';
  parent: Identifier;
  type: 'OUTER' | 'INNER';
  child: JsonTablePlan;
}
/** `a UNION b [UNION c ...]` or `a CROSS b [CROSS c ...]` */
export interface JsonTablePlanSiblings extends NodeBase {
  kind: 'JsonTablePlanSiblings';
  type: 'UNION' | 'CROSS';
  plans: JsonTablePlan[];
}
/** `PLAN DEFAULT (OUTER | INNER [, UNION | CROSS])` and the other order; absent parts are absent. */
export interface JsonTableDefaultPlan extends NodeBase {
  kind: 'JsonTableDefaultPlan';
  parentChild?: 'OUTER' | 'INNER';
  siblings?: 'UNION' | 'CROSS';
}
