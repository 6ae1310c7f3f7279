// Relations of FROM beyond tables, subqueries and joins: sampling, UNNEST, LATERAL, table functions,
// NEAREST. (MATCH_RECOGNIZE is in ast-pattern.ts, JSON_TABLE in ast-json.ts.)

import type { Expression, Identifier, NodeBase, QualifiedName, Query, Relation, SortItem, TypeSpec } from './ast.js';

/** `relation TABLESAMPLE BERNOULLI | SYSTEM (percentage)`, located at TABLESAMPLE. */
export interface SampledRelation extends NodeBase {
  kind: 'SampledRelation';
  relation: Relation;
  sampleType: 'BERNOULLI' | 'SYSTEM';
  percentage: Expression;
}
/** `UNNEST(a, b) [WITH ORDINALITY]` */
export interface Unnest extends NodeBase {
  kind: 'Unnest';
  expressions: Expression[];
  withOrdinality: boolean;
}
/** `LATERAL (query)` */
export interface Lateral extends NodeBase {
  kind: 'Lateral';
  query: Query;
}
/** `TABLE(name(arguments [COPARTITION (t1, t2), ...]))`: a table function. */
export interface TableFunctionInvocation extends NodeBase {
  kind: 'TableFunctionInvocation';
  name: QualifiedName;
  arguments: TableFunctionArgument[];
  copartitioning: QualifiedName[][];
}
export interface TableFunctionArgument extends NodeBase {
  kind: 'TableFunctionArgument';
  name?: Identifier;
  value: TableArgument | DescriptorArgument | Expression;
}
/** `TABLE(t) [AS x (a, b)] [PARTITION BY ...] [PRUNE | KEEP WHEN EMPTY] [ORDER BY ...]` */
export interface TableArgument extends NodeBase {
  kind: 'TableArgument';
  /** A Table for `TABLE(name)`, a SubqueryRelation for `TABLE(query)`, possibly aliased. */
  relation: Relation;
  partitionBy?: Expression[];
  emptyBehavior?: 'PRUNE' | 'KEEP';
  orderBy?: SortItem[];
}
/** `DESCRIPTOR(a [type], ...)`, or `CAST(NULL AS DESCRIPTOR)` (no fields). */
export interface DescriptorArgument extends NodeBase {
  kind: 'DescriptorArgument';
  fields?: DescriptorField[];
}
export interface DescriptorField extends NodeBase {
  kind: 'DescriptorField';
  name: Identifier;
  type?: TypeSpec;
}
/** `NEAREST(FROM relation [WHERE ...] MATCH condition)` */
export interface Nearest extends NodeBase {
  kind: 'Nearest';
  relation: Relation;
  where?: Expression;
  match: Expression;
}
