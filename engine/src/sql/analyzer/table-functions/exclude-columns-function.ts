// system.builtin.exclude_columns(input => TABLE(...), columns => DESCRIPTOR(a, b, ...)): the input's
// columns in order, without the named ones (names compare case-insensitively; unnamed columns are
// always kept), with Trino's checks. It plans to a projection of the input.

import { EngineError } from '../../../errors/engine-error.js';
import { visibleFields } from '../relation-plan.js';
import { QueryPlanner } from '../query-planner.js';
import { Scope } from '../scope.js';
import type { BoundArgument } from './table-function-arguments.js';
import type { TableFunction } from './table-function-planner.js';
import type { RelationPlan } from '../relation-plan.js';

export const EXCLUDE_COLUMNS_FUNCTION: TableFunction = {
  name: 'exclude_columns',
  arguments: [
    { kind: 'table', name: 'INPUT' },
    { kind: 'descriptor', name: 'COLUMNS' },
  ],
  plan(context, args) {
    const input = args.get('INPUT') as Extract<BoundArgument, { kind: 'table' }>;
    const { descriptor } = args.get('COLUMNS') as Extract<BoundArgument, { kind: 'descriptor' }>;
    if (descriptor.fields === undefined) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'COLUMNS descriptor is null');
    if (descriptor.fields.some((f) => f.type !== undefined))
      throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'COLUMNS descriptor contains types');
    const excluded = [...new Set(descriptor.fields.map((f) => f.name.value.toLowerCase()))];
    const fields = visibleFields(input.relation);
    const present = new Set(fields.flatMap((f) => (f.name === undefined ? [] : [f.name.toLowerCase()])));
    const missing = excluded.filter((name) => !present.has(name));
    if (missing.length > 0)
      throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Excluded columns: [${missing.join(', ')}] not present in the table`);
    const kept = fields.filter((f) => f.name === undefined || !excluded.includes(f.name.toLowerCase()));
    if (kept.length === 0) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'All columns are excluded');
    const plan: RelationPlan = {
      node: input.relation.node,
      scope: new Scope(kept.map((f) => ({ name: f.name, qualifier: undefined, symbol: f.symbol }))),
    };
    return { node: QueryPlanner.outputVisible(plan, context), scope: plan.scope };
  },
};
