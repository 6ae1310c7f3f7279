// Plans UNNEST in FROM: alone (over one empty row), or as the right side of CROSS JOIN, a comma
// join, INNER JOIN ... ON, or LEFT JOIN ... ON true, where its expressions see the left side's
// columns (a lateral reference, as Trino allows). Each unnested array gives one column of its
// elements; WITH ORDINALITY adds the 1-based position.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import type { Assignment, PlanNode, UnnestNode } from '../planner/plan.js';
import { symbolRef, type RowExpression, type Symbol } from '../planner/row-expression.js';
import type { JsonTable } from '../parser/ast-json.js';
import { jsonTableCall } from './json-table-planner.js';
import { unnestedColumns } from './row-expressions.js';
import { BIGINT, type SqlType, typeName } from '../../types/types.js';
import { coerce, coerceToBoolean, translateExpression } from './expression-translator.js';
import type { RelationPlan } from './relation-plan.js';
import type { QueryPlanner } from './query-planner.js';
import { Scope, type Field } from './scope.js';

/** The UNNEST a relation is, possibly under an alias. */
export interface UnnestTarget {
  unnest: ast.Unnest;
  alias?: ast.AliasedRelation;
  /** The arrays to unnest when they are no expressions of the text (JSON_TABLE's rows). */
  arrays?: (translate: (e: ast.Expression) => RowExpression) => RowExpression[];
}

export function unnestTarget(relation: ast.Relation): UnnestTarget | undefined {
  if (relation.kind === 'Unnest') return { unnest: relation };
  if (relation.kind === 'JsonTable') return jsonTableTarget(relation);
  if (relation.kind === 'AliasedRelation' && relation.relation.kind === 'Unnest') return { unnest: relation.relation, alias: relation };
  if (relation.kind === 'AliasedRelation' && relation.relation.kind === 'JsonTable')
    return { ...jsonTableTarget(relation.relation), alias: relation };
  return undefined;
}

/** JSON_TABLE as the UNNEST of its rows (json-table-planner.ts). */
function jsonTableTarget(table: JsonTable): UnnestTarget {
  return {
    unnest: { kind: 'Unnest', expressions: [], withOrdinality: false, location: table.location },
    arrays: (translate) => [jsonTableCall(table, translate, coerce)],
  };
}

/** UNNEST alone in FROM: over a single row of no columns. */
export function planStandaloneUnnest(planner: QueryPlanner, target: UnnestTarget, outer?: Scope): RelationPlan {
  const node: PlanNode = { kind: 'Values', id: planner.context.factory.nodeId(), outputs: [], rows: [[]] };
  return planUnnest(planner, target, { node, scope: new Scope([], outer) }, false);
}

/** `left JOIN UNNEST(...)`: CROSS, comma and INNER joins, and LEFT JOIN ... ON true. */
export function planUnnestJoin(planner: QueryPlanner, join: ast.Join, left: RelationPlan, target: UnnestTarget): RelationPlan {
  if (join.type === 'RIGHT' || join.type === 'FULL') {
    throw new EngineError('NOT_SUPPORTED', `${join.type} JOIN involving UNNEST is not supported`, join.location);
  }
  const criteria = join.criteria;
  if (criteria !== undefined && criteria.kind !== 'JoinOn')
    throw new EngineError('NOT_SUPPORTED', 'UNNEST in a join supports only ON conditions', join.location);
  const on = criteria?.expression;
  const alwaysTrue = on === undefined || (on.kind === 'BooleanLiteral' && on.value);
  if (join.type === 'LEFT' && !alwaysTrue) {
    throw new EngineError(
      'NOT_SUPPORTED',
      'LEFT JOIN involving UNNEST is only supported with condition ON TRUE',
      on?.location ?? join.location,
    );
  }
  const plan = planUnnest(planner, target, left, join.type === 'LEFT');
  if (alwaysTrue) return plan;
  const context = planner.context;
  const condition = coerceToBoolean(
    translateExpression(on, { scope: plan.scope, session: context.session, parameters: context.parameters }),
    'JOIN ON clause',
    on.location,
  );
  return { node: context.factory.filter(plan.node, condition), scope: plan.scope };
}

function planUnnest(planner: QueryPlanner, target: UnnestTarget, source: RelationPlan, outer: boolean): RelationPlan {
  const { factory, session, parameters } = planner.context;
  const { unnest, alias } = target;
  const mappings: UnnestNode['mappings'] = [];
  const projected: Assignment[] = [];
  const translate = (e: ast.Expression) => translateExpression(e, { scope: source.scope, session, parameters });
  const values =
    target.arrays?.(translate) ??
    unnest.expressions.map((e) => {
      const value = translate(e);
      if (value.type.kind !== 'array' && value.type.kind !== 'map')
        throw new EngineError('TYPE_MISMATCH', `Cannot unnest type: ${typeName(value.type)}`, e.location);
      return value;
    });
  for (const value of values) {
    let input: Symbol;
    if (value.kind === 'symbol') input = value.symbol;
    else {
      input = factory.newSymbol('unnest_input', value.type);
      projected.push({ symbol: input, expression: value });
    }
    if (value.type.kind === 'map') {
      // A map unnests to two columns, its keys and its values.
      mappings.push({ input, output: factory.newSymbol('unnested_key', value.type.key), entry: 'key' });
      mappings.push({ input, output: factory.newSymbol('unnested_value', value.type.value), entry: 'value' });
    } else mappings.push({ input, output: factory.newSymbol('unnested', (value.type as { element: SqlType }).element) });
  }
  const outputs = mappings.map((m) => m.output);
  const ordinality = unnest.withOrdinality ? factory.newSymbol('ordinality', BIGINT) : undefined;
  // Arrays of rows expand into a column per field (a projection over the Unnest node); a map's values stay whole.
  const columns = mappings.flatMap((m) =>
    m.entry === undefined
      ? unnestedColumns(m.output, (name, type) => factory.newSymbol(name, type))
      : [{ symbol: m.output, expression: symbolRef(m.output) }],
  );
  // A row of one field expands too: its column is the field, not the row.
  const expands = columns.length !== outputs.length || columns.some((c, i) => c.symbol !== outputs[i]);
  const produced = [...columns.map((c) => c.symbol), ...(ordinality === undefined ? [] : [ordinality])];
  const names = alias?.columnNames?.map((c) => c.value);
  if (names !== undefined && names.length !== produced.length) {
    throw new EngineError(
      'MISMATCHED_COLUMN_ALIASES',
      `Column alias list has ${names.length} entries but '${alias?.alias.value}' has ${produced.length} columns available`,
      alias?.location,
    );
  }
  const qualifier = alias === undefined ? undefined : [alias.alias.value];
  const fields: Field[] = produced.map((symbol, i) => ({ name: names?.[i] ?? columns[i]?.name, qualifier, symbol }));
  const sourceNode = factory.projectExtending(source.node, projected);
  const replicate = source.node.outputs;
  const node: PlanNode = {
    kind: 'Unnest',
    id: factory.nodeId(),
    outputs: [...replicate, ...outputs, ...(ordinality === undefined ? [] : [ordinality])],
    source: sourceNode,
    replicate,
    mappings,
    outer,
    ...(ordinality === undefined ? {} : { ordinality }),
  };
  const expanded = expands
    ? factory.project(
        node,
        [...replicate, ...columns, ...(ordinality === undefined ? [] : [ordinality])].map((s) =>
          'expression' in s ? { symbol: s.symbol, expression: s.expression } : { symbol: s, expression: symbolRef(s) },
        ),
      )
    : node;
  return { node: expanded, scope: new Scope([...source.scope.fields, ...fields], source.scope.outer) };
}
