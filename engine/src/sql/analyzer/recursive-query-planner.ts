// WITH RECURSIVE as Trino runs it: a query `anchor UNION [ALL] step` whose step refers once to the
// query's own name. Trino unrolls the step max_recursion_depth times; here a RecursiveUnion runs the
// same levels one after the other (exec/recursive-union.ts): level 0 is the anchor, level k the step
// over level k-1 (its work table), and a level beyond the depth with rows fails the query with
// Trino's NOT_SUPPORTED "Recursion depth limit exceeded". A UNION DISTINCT removes duplicates over
// the union of the levels, not between levels: as in Trino it does not stop a cycle. The columns
// have the anchor's types; the step's are coerced to them, and must coerce.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { integerSessionProperty } from '../../spi/session-properties.js';
import { canCoerce } from '../../types/coercion.js';
import { typeName, type SqlType } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import type { PlanNode } from '../planner/plan.js';
import { symbolRef } from '../planner/row-expression.js';
import { forEachAstObject } from './ast-utils.js';
import { coerce } from './expression-translator.js';
import { visibleFields, type NamedQuery, type RelationPlan } from './relation-plan.js';
import { QueryPlanner } from './query-planner.js';
import { Scope } from './scope.js';

/** The two halves of a recursive query. */
interface RecursiveShape {
  anchor: ast.QueryBody;
  step: ast.QueryBody;
  distinct: boolean;
}

/**
 * A WITH RECURSIVE list's query as a named query: recursive (planned by unrolling) when it has the
 * shape, else a plain one, which must not refer to itself. Trino's checks, in Trino's order.
 */
export function recursiveWithQuery(planner: QueryPlanner, withQuery: ast.WithQuery, ctes: Map<string, NamedQuery>): NamedQuery {
  const shape = recursiveShape(withQuery);
  if (shape === undefined) {
    const [reference] = referencesTo(withQuery.query, withQuery.name.value);
    if (reference)
      throw new EngineError('INVALID_RECURSIVE_REFERENCE', 'recursive reference not allowed in this context', reference.location);
    return { query: withQuery.query, columnAliases: withQuery.columnAliases, ctes };
  }
  const unroller = new Unroller(planner, withQuery, shape, ctes);
  // Trino analyzes the query where it is defined: its errors come whether or not it is used.
  unroller.expand();
  return { query: withQuery.query, columnAliases: withQuery.columnAliases, ctes, expand: () => unroller.expand() };
}

function recursiveShape(withQuery: ast.WithQuery): RecursiveShape | undefined {
  const name = withQuery.name.value;
  if (!withQuery.columnAliases)
    throw new EngineError('MISSING_COLUMN_ALIASES', 'missing column aliases in recursive WITH query', withQuery.location);
  const nested = firstOf(withQuery.query, (node) => node.kind === 'With' && node.recursive === true);
  if (nested) throw new EngineError('NESTED_RECURSIVE', 'nested recursive WITH query', nested.location);
  const query = withQuery.query;
  const body = query.body;
  if (body.kind !== 'SetOperation' || body.operator !== 'UNION' || body.corresponding) return undefined;
  // `a UNION b UNION c` is ((a UNION b) UNION c): the last input is the step.
  const anchor: ast.QueryBody = body.inputs.length === 2 ? body.inputs[0] : { ...body, inputs: body.inputs.slice(0, -1) };
  const step = body.inputs[body.inputs.length - 1];
  const [anchorReference] = referencesTo(anchor, name);
  if (anchorReference) throw invalidReference('WITH table name is referenced in the base relation of recursion', anchorReference);
  const stepReferences = referencesTo(step, name);
  if (stepReferences.length > 1)
    throw invalidReference('multiple recursive references in the step relation of recursion', stepReferences[1]);
  if (stepReferences.length === 0) return undefined;
  let specification: ast.QueryBody = step;
  while (specification.kind === 'SubqueryBody') {
    const inner = specification.query;
    if (inner.limit !== undefined)
      throw new EngineError('INVALID_LIMIT_CLAUSE', 'FETCH FIRST / LIMIT clause in the step relation of recursion', limitLocation(inner));
    specification = inner.body;
  }
  const outsideFrom = () =>
    invalidReference('recursive reference outside of FROM clause of the step relation of recursion', stepReferences[0]);
  if (specification.kind !== 'QuerySpecification' || !specification.from) throw outsideFrom();
  const from = specification.from;
  if (referencesTo(from, name).length === 0) throw outsideFrom();
  if (query.with) throw new EngineError('NOT_SUPPORTED', 'immediate WITH clause in recursive query', query.with.location);
  if (query.orderBy.length > 0)
    throw new EngineError('NOT_SUPPORTED', 'immediate ORDER BY clause in recursive query', query.orderBy[0].location);
  if (query.offset) throw new EngineError('NOT_SUPPORTED', 'immediate OFFSET clause in recursive query', query.offset.location);
  if (query.limit !== undefined)
    throw new EngineError('INVALID_LIMIT_CLAUSE', 'immediate FETCH FIRST / LIMIT clause in recursive query', limitLocation(query));
  checkFromOfStep(from, name);
  return { anchor, step, distinct: body.distinct };
}

/** Where the step's reference may not be: the outer side of an outer join, INTERSECT ALL, EXCEPT's right (and an EXCEPT ALL's left). */
function checkFromOfStep(from: ast.Relation, name: string): void {
  const nodes: Record<string, unknown>[] = [];
  forEachAstObject(from, (node) => nodes.push(node));
  nodes.sort((a, b) => compareLocations(a.location as SourceLocation | undefined, b.location as SourceLocation | undefined));
  for (const node of nodes) {
    if (node.kind === 'Join') {
      const join = node as unknown as ast.Join;
      const [left] = referencesTo(join.left, name);
      const [right] = referencesTo(join.right, name);
      if (left && (join.type === 'RIGHT' || join.type === 'FULL'))
        throw invalidReference(`recursive reference in left source of ${join.type} join`, left);
      if (right && (join.type === 'LEFT' || join.type === 'FULL'))
        throw invalidReference(`recursive reference in right source of ${join.type} join`, right);
    }
    if (node.kind !== 'SetOperation') continue;
    const operation = node as unknown as ast.SetOperation;
    if (operation.operator === 'INTERSECT' && !operation.distinct) {
      const [reference] = referencesTo(operation.inputs, name);
      if (reference) throw invalidReference('recursive reference in INTERSECT ALL', reference);
    }
    if (operation.operator !== 'EXCEPT') continue;
    // ((a EXCEPT b) EXCEPT c): from the last input back, each is a right relation, all before it the left one.
    for (let i = operation.inputs.length - 1; i >= 1; i--) {
      const [right] = referencesTo(operation.inputs[i], name);
      if (right)
        throw invalidReference(`recursive reference in right relation of EXCEPT ${operation.distinct ? 'DISTINCT' : 'ALL'}`, right);
      const [left] = referencesTo(operation.inputs.slice(0, i), name);
      if (left && !operation.distinct) throw invalidReference('recursive reference in left relation of EXCEPT ALL', left);
    }
  }
}

/** Plans one recursive query: its anchor, and its step over the previous level (a work table). */
class Unroller {
  private readonly name: string;

  constructor(
    private readonly planner: QueryPlanner,
    private readonly withQuery: ast.WithQuery,
    private readonly shape: RecursiveShape,
    private readonly ctes: Map<string, NamedQuery>,
  ) {
    this.name = withQuery.name.value;
  }

  /** The recursion, under a DISTINCT over all its rows for UNION. */
  expand(): RelationPlan {
    const factory = this.planner.context.factory;
    const id = factory.nodeId();
    const anchor = this.anchor();
    const types = anchor.outputs.map((s) => s.type);
    const table: PlanNode = {
      kind: 'Values',
      id: factory.nodeId(),
      outputs: anchor.outputs.map((s) => factory.newSymbol(s.name, s.type)),
      rows: [],
      workTable: id,
    };
    const step = this.step(types, table);
    const outputs = anchor.outputs.map((s) => factory.newSymbol(s.name, s.type));
    const maxDepth = integerSessionProperty(this.planner.context.session, 'max_recursion_depth');
    let node: PlanNode = { kind: 'RecursiveUnion', id, outputs, anchor, step, maxDepth };
    if (this.shape.distinct) node = factory.aggregate(node, outputs, []);
    return { node, scope: new Scope(outputs.map((symbol) => ({ name: symbol.name, qualifier: undefined, symbol }))) };
  }

  /** The anchor's rows, named as the query's column aliases. */
  private anchor(): PlanNode {
    const factory = this.planner.context.factory;
    const anchor = new QueryPlanner(this.planner.context, this.ctes).planQueryBody(this.shape.anchor);
    const fields = visibleFields(anchor);
    const aliases = this.withQuery.columnAliases as ast.Identifier[];
    checkAliases(aliases, fields.length);
    return factory.project(
      anchor.node,
      fields.map((f, i) => ({ symbol: factory.newSymbol(aliases[i].value, f.symbol.type), expression: symbolRef(f.symbol) })),
    );
  }

  /** The step's rows over `previous` (what its reference reads), coerced to the anchor's column types. */
  private step(types: SqlType[], previous: PlanNode): PlanNode {
    const factory = this.planner.context.factory;
    const reference: NamedQuery = {
      query: this.withQuery.query,
      columnAliases: this.withQuery.columnAliases,
      ctes: this.ctes,
      expand: () => ({
        node: previous,
        scope: new Scope(previous.outputs.map((symbol) => ({ name: symbol.name, qualifier: undefined, symbol }))),
      }),
    };
    const step = new QueryPlanner(this.planner.context, new Map(this.ctes).set(this.name, reference)).planQueryBody(this.shape.step);
    const fields = visibleFields(step);
    const location = this.shape.step.location;
    if (fields.length !== types.length) {
      throw new EngineError(
        'TYPE_MISMATCH',
        `base and step relations of recursion have different number of fields: ${types.length}, ${fields.length}`,
        location,
      );
    }
    fields.forEach((f, i) => {
      if (!canCoerce(f.symbol.type, types[i])) {
        throw new EngineError(
          'TYPE_MISMATCH',
          `recursion step relation output type (${typeName(f.symbol.type)}) is not coercible to recursion base relation output type (${typeName(types[i])}) at column ${i + 1}`,
          location,
        );
      }
    });
    return factory.project(
      step.node,
      fields.map((f, i) => ({
        symbol: factory.newSymbol(previous.outputs[i].name, types[i]),
        expression: coerce(symbolRef(f.symbol), types[i]),
      })),
    );
  }
}

function checkAliases(aliases: ast.Identifier[], columns: number): void {
  if (aliases.length !== columns) {
    throw new EngineError(
      'MISMATCHED_COLUMN_ALIASES',
      `Column alias list has ${aliases.length} entries but relation has ${columns} columns`,
      aliases[0].location,
    );
  }
  const seen = new Set<string>();
  for (const alias of aliases) {
    const key = alias.value.toLowerCase();
    if (seen.has(key))
      throw new EngineError('DUPLICATE_COLUMN_NAME', `Column name '${alias.value}' specified more than once`, alias.location);
    seen.add(key);
  }
}

function invalidReference(message: string, reference: ast.TableReference): EngineError {
  return new EngineError('INVALID_RECURSIVE_REFERENCE', message, reference.location);
}

function limitLocation(query: ast.Query): SourceLocation {
  return query.limit !== undefined && query.limit !== 'ALL' ? query.limit.location : query.location;
}

/**
 * The references to the query `name` below `root`, first in the text first: one-part table names
 * equal to it, except inside a query whose own WITH defines the name again (it shadows the name there).
 */
function referencesTo(root: unknown, name: string): ast.TableReference[] {
  const found: ast.TableReference[] = [];
  forEachAstObject(
    root,
    (node) => {
      if (node.kind !== 'Table') return;
      const table = node as unknown as ast.TableReference;
      if (table.name.parts.length === 1 && table.name.parts[0].value === name) found.push(table);
    },
    (node) => node.kind === 'Query' && ((node as unknown as ast.Query).with?.queries.some((q) => q.name.value === name) ?? false),
  );
  return found.sort((a, b) => compareLocations(a.location, b.location));
}

function firstOf(root: unknown, test: (node: Record<string, unknown>) => boolean): { location: SourceLocation } | undefined {
  const found: { location: SourceLocation }[] = [];
  forEachAstObject(root, (node) => {
    if (test(node)) found.push(node as unknown as { location: SourceLocation });
  });
  return found.sort((a, b) => compareLocations(a.location, b.location))[0];
}

function compareLocations(a: SourceLocation | undefined, b: SourceLocation | undefined): number {
  if (!a || !b) return a ? -1 : b ? 1 : 0;
  return a.line - b.line || a.column - b.column;
}
