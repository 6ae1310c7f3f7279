// Walks over AST expressions: structural keys, and finding aggregates, windows and subqueries.

import { isAggregateFunctionName } from '../../functions/aggregate/registry.js';
import { inlineRoutineNamed } from '../routines/routine-scope.js';
import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import { formatExpression } from '../parser/formatter.js';
import { stringifyDeep } from '../planner/deep-json.js';

/** A key equal for structurally equal expressions (locations ignored). */
export function astKey(node: unknown): string {
  return stringifyDeep(node, (key, value) => {
    if (key === 'location') return undefined;
    if (typeof value === 'bigint') return `${value}n`;
    return value;
  });
}

/** The direct sub-expressions of an expression (not descending into subqueries). */
export function expressionChildren(e: ast.Expression): ast.Expression[] {
  switch (e.kind) {
    case 'Dereference':
      return [e.base];
    case 'ArithmeticBinary':
    case 'Comparison':
    case 'LogicalBinary':
    case 'IsDistinctFrom':
    case 'Concat':
      return [e.left, e.right];
    case 'ArithmeticUnary':
    case 'Not':
    case 'IsNull':
    case 'BooleanTest':
    case 'MatchPredicate':
      return [e.value];
    case 'AtTimeZone':
      return e.zone ? [e.value, e.zone] : [e.value];
    case 'Lambda':
      return [e.body];
    case 'Array':
      return e.items;
    case 'Subscript':
      return [e.base, e.index];
    case 'MethodCall':
      return [e.base, ...e.args];
    case 'StaticMethodCall':
      return e.args;
    case 'NamedArgument':
      return [e.value];
    case 'Overlay':
      return e.length ? [e.value, e.replacement, e.start, e.length] : [e.value, e.replacement, e.start];
    case 'Between':
      return [e.value, e.min, e.max];
    case 'InList':
      return [e.value, ...e.list];
    case 'InSubquery':
    case 'QuantifiedComparison':
      return [e.value];
    case 'Like':
      return e.escape ? [e.value, e.pattern, e.escape] : [e.value, e.pattern];
    case 'SearchedCase':
      return [...e.whenClauses.flatMap((w) => [w.operand, w.result]), ...(e.defaultValue ? [e.defaultValue] : [])];
    case 'SimpleCase':
      return [e.operand, ...e.whenClauses.flatMap((w) => [w.operand, w.result]), ...(e.defaultValue ? [e.defaultValue] : [])];
    case 'Cast':
    case 'Extract':
      return [e.value];
    case 'FunctionCall': {
      const out = [...e.args];
      if (e.filter) out.push(e.filter);
      if (e.orderBy) out.push(...e.orderBy.map((s) => s.key));
      if (e.withinGroup) out.push(...e.withinGroup.map((s) => s.key));
      if (e.window && e.window.kind === 'WindowSpecification') {
        out.push(...e.window.partitionBy, ...e.window.orderBy.map((s) => s.key));
      }
      return out;
    }
    case 'Row':
      return e.items;
    case 'JsonExists':
    case 'JsonValue':
    case 'JsonQuery': {
      const { input, passing } = e.invocation;
      const defaults = e.kind === 'JsonValue' ? [e.onEmpty, e.onError].flatMap((b) => (b?.type === 'DEFAULT' ? [b.value] : [])) : [];
      return [input.value, ...passing.map((p) => p.value.value), ...defaults];
    }
    case 'JsonObject':
      return e.members.flatMap((m) => [m.key, m.value.value]);
    case 'JsonArray':
      return e.elements.map((v) => v.value);
    default:
      return [];
  }
}

export function isAggregateCall(e: ast.Expression): boolean {
  return e.kind === 'FunctionCall' && !e.window && isAggregateFunctionName(functionName(e)) && !inlineRoutineNamed(functionName(e));
}

export function isWindowCall(e: ast.Expression): boolean {
  return e.kind === 'FunctionCall' && e.window !== undefined;
}

export function functionName(e: ast.FunctionCall): string {
  return e.name.parts.map((p) => p.value).join('.');
}

/** Aggregate calls in `e`, outermost first, not inside window calls' OVER or subqueries. */
export function findAggregates(e: ast.Expression, into: ast.FunctionCall[] = []): ast.FunctionCall[] {
  if (isAggregateCall(e)) {
    into.push(e as ast.FunctionCall);
    return into;
  }
  if (isWindowCall(e)) {
    // Arguments and OVER clauses of a window call may hold ordinary aggregates: sum(sum(x)) OVER ().
    for (const c of expressionChildren(e)) findAggregates(c, into);
    return into;
  }
  for (const c of expressionChildren(e)) findAggregates(c, into);
  return into;
}

export function findWindowCalls(e: ast.Expression, into: ast.FunctionCall[] = []): ast.FunctionCall[] {
  if (isWindowCall(e)) {
    into.push(e as ast.FunctionCall);
    return into;
  }
  for (const c of expressionChildren(e)) findWindowCalls(c, into);
  return into;
}

const SUBQUERY_KINDS: ReadonlySet<ast.Expression['kind']> = new Set([
  'Subquery',
  'Exists',
  'InSubquery',
  'QuantifiedComparison',
  'MatchPredicate',
  'Unique',
]);

export function containsSubquery(e: ast.Expression): boolean {
  if (SUBQUERY_KINDS.has(e.kind)) return true;
  return expressionChildren(e).some(containsSubquery);
}

/** The first call in `e` (outermost, then left to right; not inside subqueries) whose name `known` rejects. */
export function findUnknownFunction(e: ast.Expression, known: (name: string) => boolean): ast.FunctionCall | undefined {
  if (e.kind === 'FunctionCall' && !known(functionName(e))) return e;
  for (const c of expressionChildren(e)) {
    const found = findUnknownFunction(c, known);
    if (found) return found;
  }
  return undefined;
}

/** EXPRESSION_NOT_SCALAR, as Trino words it, when `e` (a `clause`: 'WHERE clause', 'Lambda expression') holds an aggregate or window call. */
export function rejectAggregatesAndWindows(e: ast.Expression, clause: string): void {
  const found = [...findAggregates(e), ...findWindowCalls(e)];
  if (found.length > 0) {
    const list = found.map((f) => formatExpression(f)).join(', ');
    throw new EngineError(
      'EXPRESSION_NOT_SCALAR',
      `${clause} cannot contain aggregations, window functions or grouping operations: [${list}]`,
      found[0].location,
    );
  }
}

/** Conjuncts of an AND tree. */
export function splitConjuncts(e: ast.Expression): ast.Expression[] {
  if (e.kind === 'LogicalBinary' && e.operator === 'AND') return [...splitConjuncts(e.left), ...splitConjuncts(e.right)];
  return [e];
}

/** How many `?` parameters a statement has. */
export function countParameters(node: unknown): number {
  let max = -1;
  forEachAstObject(node, (record) => {
    if (record.kind === 'Parameter') max = Math.max(max, record.index as number);
  });
  return max + 1;
}

/**
 * Calls `visit` with every object below `root` (looking into arrays; locations skipped, and the keys
 * `skip` names), in no particular order. It keeps its own stack, not the JS one: a statement may
 * nest 1,000 levels and each level is several objects.
 */
export function forEachAstObject(
  root: unknown,
  visit: (node: Record<string, unknown>) => void,
  skip?: (node: Record<string, unknown>, key: string) => boolean,
): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const record = value as Record<string, unknown>;
    visit(record);
    for (const key in record) if (key !== 'location' && !skip?.(record, key)) pending.push(record[key]);
  }
}
