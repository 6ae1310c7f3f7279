// GROUP BY (with GROUPING SETS, ROLLUP, CUBE) and aggregate calls: a projection computes the
// grouping keys and aggregate arguments, an optional GroupId node multiplies rows per grouping
// set, and an Aggregate node computes the groups. Expressions after it resolve through a hook that
// maps aggregate calls and grouping expressions to the aggregate's outputs.

import { aggregateCallArguments } from './aggregate-call-arguments.js';
import { EngineError } from '../../errors/engine-error.js';
import { resolveAggregateHandle } from '../planner/function-handles.js';
import { BIGINT, BOOLEAN, typeName } from '../../types/types.js';
import { isComparable } from '../../functions/scalar/map-comparison.js';
import type * as ast from '../parser/ast.js';
import { formatExpression } from '../parser/formatter.js';
import type { AggregationCall, Assignment, PlanNode } from '../planner/plan.js';
import {
  constant,
  expressionKey,
  referencedSymbols,
  special,
  symbolRef,
  type RowExpression,
  type Symbol,
} from '../planner/row-expression.js';
import { astKey, containsSubquery, findAggregates, findWindowCalls, functionName, isAggregateCall } from './ast-utils.js';
import { coerce, coerceToBoolean, comparison, translateExpression, type TranslationHook } from './expression-translator.js';
import type { QueryPlanner } from './query-planner.js';
import type { Scope } from './scope.js';
import { subqueryHook, type PlanHolder } from './subquery-planner.js';
import { unsupportedNode } from './unsupported-features.js';

export interface AggregationResult {
  hook: TranslationHook;
  /** A `*` column after aggregation: its grouping key, or an error when it is not one. */
  groupedField(symbol: Symbol, name: string | undefined, location: ast.NodeBase['location']): RowExpression;
}

export function planAggregation(
  planner: QueryPlanner,
  holder: PlanHolder,
  scope: Scope,
  spec: ast.QuerySpecification,
  selectExpressions: (ast.Expression | undefined)[],
  aggregateCalls: ast.FunctionCall[],
): AggregationResult {
  const context = planner.context;
  const factory = context.factory;
  const base = { scope, session: context.session, parameters: context.parameters };
  const preAggregation = (e: ast.Expression) => translateExpression(e, { ...base, hook: subqueryHook(planner, holder, scope) });

  // Grouping sets as lists of AST expressions; ordinals refer to the select list.
  const sets = groupingSets(spec.groupBy, selectExpressions);
  const multipleSets = sets.length > 1;
  const keyExpressions = new Map<string, { expression: RowExpression; symbol: Symbol }>();
  const preAssignments: Assignment[] = [];
  const setSymbols: Symbol[][] = sets.map((set) =>
    set.map((e) => {
      const expression = preAggregation(e);
      if (!isComparable(expression.type))
        throw new EngineError(
          'TYPE_MISMATCH',
          `${typeName(expression.type)} is not comparable, and therefore cannot be used in GROUP BY`,
          e.location,
        );
      const key = expressionKey(expression);
      let entry = keyExpressions.get(key);
      if (!entry) {
        const symbol = expression.kind === 'symbol' && !multipleSets ? expression.symbol : factory.newSymbol('groupkey', expression.type);
        if (symbol !== (expression as { symbol?: Symbol }).symbol) preAssignments.push({ symbol, expression });
        entry = { expression, symbol };
        keyExpressions.set(key, entry);
      }
      return entry.symbol;
    }),
  );
  const groupSymbols = [...keyExpressions.values()].map((k) => k.symbol);

  // Aggregate calls: arguments and FILTER masks become symbols of the projection.
  const calls = new Map<string, AggregationCall>();
  for (const call of aggregateCalls) {
    const key = astKey(call);
    if (calls.has(key)) continue;
    for (const arg of [...call.args, ...(call.filter ? [call.filter] : [])]) {
      const nested = [...findAggregates(arg), ...findWindowCalls(arg)];
      if (nested.length > 0)
        throw new EngineError(
          'NESTED_AGGREGATION',
          `Cannot nest aggregations inside aggregation '${functionName(call)}': [${nested.map((n) => formatExpression(n)).join(', ')}]`,
          nested[0].location,
        );
    }
    const { args, locations: argumentLocations, ordering, lambdaHandle } = aggregateCallArguments(call, preAggregation, base);
    const fn =
      lambdaHandle ??
      resolveAggregateHandle(
        functionName(call),
        args.map((a) => a.type),
        call.location,
        ordering,
      );
    const argSymbols = args.map((a, i) => {
      const coerced = coerce(a, fn.argumentTypes[i], argumentLocations[i]);
      if (coerced.kind === 'symbol') return coerced.symbol;
      const symbol = factory.newSymbol('arg', coerced.type);
      preAssignments.push({ symbol, expression: coerced });
      return symbol;
    });
    let mask: Symbol | undefined;
    if (call.filter) {
      mask = factory.newSymbol('mask', BOOLEAN);
      preAssignments.push({
        symbol: mask,
        expression: coerceToBoolean(preAggregation(call.filter), 'Filter expression', call.filter.location),
      });
    }
    const symbol = factory.newSymbol(functionName(call), fn.returnType);
    calls.set(key, { symbol, function: fn, arguments: argSymbols, distinct: call.distinct, mask });
  }

  let node: PlanNode = factory.projectExtending(holder.node, preAssignments);
  let groupId: Symbol | undefined;
  if (multipleSets) {
    groupId = factory.newSymbol('groupid', BIGINT);
    node = {
      kind: 'GroupId',
      id: factory.nodeId(),
      outputs: [...node.outputs, groupId],
      source: node,
      groupingSets: setSymbols,
      groupIdSymbol: groupId,
    };
  }
  holder.node = factory.aggregate(node, groupId ? [...groupSymbols, groupId] : groupSymbols, [...calls.values()]);

  const hook: TranslationHook = (e) => {
    if (isAggregateCall(e)) return symbolRef(calls.get(astKey(e))!.symbol);
    if (e.kind === 'FunctionCall' && functionName(e) === 'grouping' && !e.window) return groupingValue(e);
    if (findAggregates(e).length > 0 || findWindowCalls(e).length > 0 || containsSubquery(e)) return undefined;
    let translated: RowExpression;
    try {
      translated = translateExpression(e, base);
    } catch {
      return undefined;
    }
    const key = keyExpressions.get(expressionKey(translated));
    if (key) return symbolRef(key.symbol);
    const references = [...referencedSymbols(translated).values()];
    const local = references.filter((s) => scope.fields.some((f) => f.symbol.id === s.id));
    if (local.length === 0) return translated; // constants and correlated references
    // A row field of a grouped row (`k.x` under GROUP BY k) translates through its base below.
    if (e.kind === 'Identifier' || (e.kind === 'Dereference' && translated.kind === 'symbol')) {
      throw new EngineError(
        'EXPRESSION_NOT_AGGREGATE',
        `'${formatExpression(e)}' must be an aggregate expression or appear in GROUP BY clause`,
        e.location,
      );
    }
    return undefined;
  };

  const groupingValue = (e: ast.FunctionCall): RowExpression => {
    const argSymbols = e.args.map((arg) => {
      const entry = keyExpressions.get(expressionKey(translateExpression(arg, base)));
      if (!entry)
        throw new EngineError(
          'INVALID_ARGUMENTS',
          `Invalid reference to grouping function argument: ${formatExpression(arg)}`,
          arg.location,
        );
      return entry.symbol;
    });
    const maskOf = (set: Symbol[]) =>
      argSymbols.reduce((m, s, j) => (set.includes(s) ? m : m | (1n << BigInt(argSymbols.length - 1 - j))), 0n);
    if (!groupId) return constant(maskOf(setSymbols[0] ?? []), BIGINT);
    const args: RowExpression[] = [];
    setSymbols.forEach((set, i) =>
      args.push(comparison('=', symbolRef(groupId!), constant(BigInt(i), BIGINT), e.location), constant(maskOf(set), BIGINT)),
    );
    args.push(constant(null, BIGINT));
    return special('switch', BIGINT, ...args);
  };

  const groupedField = (symbol: Symbol, name: string | undefined, location: ast.NodeBase['location']): RowExpression => {
    const key = keyExpressions.get(expressionKey(symbolRef(symbol)));
    if (!key)
      throw new EngineError(
        'EXPRESSION_NOT_AGGREGATE',
        `'${name ?? symbol.name}' must be an aggregate expression or appear in GROUP BY clause`,
        location,
      );
    return symbolRef(key.symbol);
  };

  return { hook, groupedField };
}

/** The grouping sets of a GROUP BY clause, each a list of expressions (cross product of its elements). */
function groupingSets(groupBy: ast.GroupBy | undefined, selectExpressions: (ast.Expression | undefined)[]): ast.Expression[][] {
  if (!groupBy) return [[]];
  const resolve = (e: ast.Expression): ast.Expression => {
    if (e.kind !== 'LongLiteral') return e;
    const n = Number(e.value);
    const target = selectExpressions[n - 1];
    if (n < 1 || n > selectExpressions.length)
      throw new EngineError('INVALID_COLUMN_REFERENCE', `GROUP BY position ${e.value} is not in select list`, e.location);
    if (!target) throw new EngineError('NOT_SUPPORTED', `GROUP BY position ${e.value} refers to a * column`, e.location);
    if (findAggregates(target).length > 0)
      throw new EngineError('INVALID_COLUMN_REFERENCE', `GROUP BY position ${e.value} cannot reference an aggregate`, e.location);
    return target;
  };
  let sets: ast.Expression[][] = [[]];
  for (const element of groupBy.elements) {
    const elementSets = setsOf(element).map((s) => s.map(resolve));
    sets = sets.flatMap((prefix) => elementSets.map((s) => [...prefix, ...s]));
  }
  if (groupBy.distinct) {
    const seen = new Set<string>();
    sets = sets.filter((s) => {
      const key = astKey([...s].map(astKey).sort());
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return sets;
}

function setsOf(element: ast.GroupingElement): ast.Expression[][] {
  switch (element.kind) {
    case 'SimpleGroupBy':
      return [element.expressions];
    case 'GroupingSets':
      return element.sets;
    case 'Rollup': {
      const n = element.elements.length;
      return Array.from({ length: n + 1 }, (_, i) => element.elements.slice(0, n - i).flat());
    }
    case 'Cube': {
      const n = element.elements.length;
      const out: ast.Expression[][] = [];
      for (let mask = (1 << n) - 1; mask >= 0; mask--) out.push(element.elements.filter((_, i) => mask & (1 << (n - 1 - i))).flat());
      return out;
    }
    case 'AutoGroupBy':
      throw unsupportedNode(element);
  }
}
