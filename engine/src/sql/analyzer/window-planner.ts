// Window function calls: arguments, PARTITION BY and ORDER BY keys are projected into symbols,
// then one Window node per distinct (partition, order) specification computes the calls.

import { EngineError } from '../../errors/engine-error.js';
import type { FrameSpec } from '../planner/window-frame.js';
import { resolveWindowHandle } from '../planner/function-handles.js';
import type * as ast from '../parser/ast.js';
import type { Assignment, OrderingItem, WindowCall } from '../planner/plan.js';
import { expressionKey, symbolRef, type RowExpression, type Symbol } from '../planner/row-expression.js';
import { astKey, functionName } from './ast-utils.js';
import { coerce, type TranslationHook } from './expression-translator.js';
import type { QueryPlanner } from './query-planner.js';
import { orderingItem } from './query-planner.js';
import type { PlanHolder } from './subquery-planner.js';
import { planFrame } from './window-frame-planner.js';

export const DEFAULT_FRAME_WITH_ORDER: FrameSpec = { unit: 'RANGE', start: { type: 'UNBOUNDED_PRECEDING' }, end: { type: 'CURRENT_ROW' } };
const DEFAULT_FRAME_WITHOUT_ORDER: FrameSpec = {
  unit: 'RANGE',
  start: { type: 'UNBOUNDED_PRECEDING' },
  end: { type: 'UNBOUNDED_FOLLOWING' },
};

export function planWindows(
  planner: QueryPlanner,
  holder: PlanHolder,
  definitions: ast.WindowDefinition[],
  calls: ast.FunctionCall[],
  translate: (e: ast.Expression) => RowExpression,
): TranslationHook {
  const factory = planner.context.factory;
  const assignments: Assignment[] = [];
  const symbolFor = (e: RowExpression, name = 'winarg'): Symbol => {
    if (e.kind === 'symbol') return e.symbol;
    const existing = assignments.find((a) => expressionKey(a.expression) === expressionKey(e));
    if (existing) return existing.symbol;
    const symbol = factory.newSymbol(name, e.type);
    assignments.push({ symbol, expression: e });
    return symbol;
  };

  interface Group {
    partitionBy: Symbol[];
    orderBy: OrderingItem[];
    functions: WindowCall[];
  }
  const groups = new Map<string, Group>();
  const results = new Map<string, Symbol>();

  for (const call of calls) {
    const key = astKey(call);
    if (results.has(key)) continue;
    const window = resolveSpecification(call.window!, definitions);
    const partitionBy = window.partitionBy.map((e) => symbolFor(translate(e)));
    const orderBy = window.orderBy.map((item) => orderingItem(symbolFor(translate(item.key)), item));
    if (call.withinGroup || call.orderBy)
      throw new EngineError(
        'NOT_SUPPORTED',
        `${functionName(call)} with ORDER BY or WITHIN GROUP as a window function is not supported`,
        call.location,
      );
    const args = call.args.map(translate);
    const fn = resolveWindowHandle(
      functionName(call),
      args.map((a) => a.type),
      call.location,
    );
    const argumentSymbols = args.map((a, i) => symbolFor(coerce(a, fn.argumentTypes[i], call.args[i].location)));
    if (call.distinct) throw new EngineError('NOT_SUPPORTED', 'DISTINCT in window function parameters not yet supported', call.location);
    if (call.filter) throw new EngineError('NOT_SUPPORTED', 'FILTER is not yet supported for window functions', call.location);
    const frame = window.frame
      ? planFrame(window.frame, { call, orderBy: window.orderBy, ordering: orderBy, translate, symbolFor })
      : orderBy.length > 0
        ? DEFAULT_FRAME_WITH_ORDER
        : DEFAULT_FRAME_WITHOUT_ORDER;
    const symbol = factory.newSymbol(functionName(call), fn.returnType);
    results.set(key, symbol);
    const groupKey = JSON.stringify([partitionBy.map((s) => s.id), orderBy.map((o) => [o.symbol.id, o.ascending, o.nullsFirst])]);
    let group = groups.get(groupKey);
    if (!group) {
      group = { partitionBy, orderBy, functions: [] };
      groups.set(groupKey, group);
    }
    group.functions.push({ symbol, function: fn, arguments: argumentSymbols, frame, ignoreNulls: call.nullTreatment === 'IGNORE' });
  }

  let node = factory.projectExtending(holder.node, assignments);
  for (const group of groups.values()) {
    node = {
      kind: 'Window',
      id: factory.nodeId(),
      outputs: [...node.outputs, ...group.functions.map((f) => f.symbol)],
      source: node,
      partitionBy: group.partitionBy,
      orderBy: group.orderBy,
      functions: group.functions,
    };
  }
  holder.node = node;
  return (e) => {
    if (e.kind !== 'FunctionCall' || !e.window) return undefined;
    const symbol = results.get(astKey(e));
    return symbol ? symbolRef(symbol) : undefined;
  };
}

/** The effective window specification: a named window (WINDOW w AS ...) refined by the call's own clauses. */
function resolveSpecification(
  window: ast.WindowSpecification | ast.Identifier,
  definitions: ast.WindowDefinition[],
): ast.WindowSpecification {
  const lookup = (name: ast.Identifier): ast.WindowSpecification => {
    const definition = definitions.find((d) => d.name.value === name.value);
    if (!definition) throw new EngineError('INVALID_WINDOW_REFERENCE', `Cannot resolve WINDOW name ${name.value}`, name.location);
    return resolveSpecification(definition.window, definitions);
  };
  if (window.kind === 'Identifier') return lookup(window);
  if (!window.existingWindowName) return window;
  const base = lookup(window.existingWindowName);
  return {
    ...window,
    partitionBy: base.partitionBy.length > 0 ? base.partitionBy : window.partitionBy,
    orderBy: window.orderBy.length > 0 ? window.orderBy : base.orderBy,
    frame: window.frame ?? base.frame,
  };
}
