// Window function calls: arguments, PARTITION BY and ORDER BY keys are projected into symbols,
// then one Window node per distinct (partition, order) specification computes the calls.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { isAggregateFunctionName } from '../../functions/aggregate/registry.js';
import { isWindowFunctionName } from '../../functions/window/registry.js';
import { formatExpression } from '../parser/formatter.js';
import type { FrameSpec } from '../planner/window-frame.js';
import { resolveWindowHandle, type WindowFunctionHandle } from '../planner/function-handles.js';
import { aggregateCallArguments } from './aggregate-call-arguments.js';
import type * as ast from '../parser/ast.js';
import type { Assignment, OrderingItem, WindowCall } from '../planner/plan.js';
import { expressionKey, symbolRef, type RowExpression, type Symbol } from '../planner/row-expression.js';
import { astKey, functionName } from './ast-utils.js';
import { coerce, type TranslationContext, type TranslationHook } from './expression-translator.js';
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
  spec: ast.QuerySpecification,
  calls: ast.FunctionCall[],
  translate: (e: ast.Expression) => RowExpression,
  context: TranslationContext,
): TranslationHook {
  const definitions = spec.windows;
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
    const { args, locations, fn } = windowCallArguments(call, spec, translate, context);
    const argumentSymbols = args.map((a, i) => symbolFor(coerce(a, fn.argumentTypes[i], locations[i])));
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

/**
 * A window call's arguments and function, checked as Trino checks them (errors that Trino reports
 * at the query specification are reported there): an aggregate takes its ORDER BY keys, DISTINCT
 * and lambdas as when grouped; a window function takes none of them.
 */
function windowCallArguments(
  call: ast.FunctionCall,
  spec: ast.QuerySpecification,
  translate: (e: ast.Expression) => RowExpression,
  context: TranslationContext,
): { args: RowExpression[]; locations: (SourceLocation | undefined)[]; fn: WindowFunctionHandle } {
  if (call.filter) throw new EngineError('NOT_SUPPORTED', 'FILTER is not yet supported for window functions', spec.location);
  const name = functionName(call);
  if (isAggregateFunctionName(name) && !isWindowFunctionName(name)) {
    const { args, locations, ordering, lambdaHandle } = aggregateCallArguments(call, translate, context, true);
    const fn = resolveWindowHandle(name, lambdaHandle?.resolvedWith ?? args.map((a) => a.type), call.location, {
      ordering,
      distinct: call.distinct,
      lambdas: lambdaHandle?.lambdas,
    });
    return { args, locations, fn };
  }
  const args = call.args.map(translate);
  if (!isWindowFunctionName(name)) throw new EngineError('FUNCTION_NOT_WINDOW', `Not a window function: ${name}`, spec.location);
  if (call.distinct)
    throw new EngineError(
      'NOT_SUPPORTED',
      `Only aggregation window functions with DISTINCT are supported: ${formatExpression(call)}`,
      spec.location,
    );
  if (call.orderBy || call.withinGroup)
    throw new EngineError('NOT_SUPPORTED', 'Only aggregation window functions with ORDER BY are supported', call.location);
  const fn = resolveWindowHandle(
    name,
    args.map((a) => a.type),
    call.location,
  );
  return { args, locations: call.args.map((a) => a.location), fn };
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
