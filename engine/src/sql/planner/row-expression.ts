// Resolved, typed expressions: what the analyzer produces from AST expressions, what the optimizer
// rewrites and what the expression compiler turns into JavaScript.
//
// Every argument already has the type the callee expects: the analyzer inserts `cast` nodes for
// implicit coercions, so the compiler never guesses. Subqueries never appear here; the planner
// turns them into joins.

import type { Scalar } from '../../types/scalar.js';
import type { SqlType } from '../../types/types.js';
import { stringifyDeep } from './deep-json.js';
import type { Routine } from '../routines/routine.js';

/** A named value produced by a plan node; expressions refer to it by id. */
export interface Symbol {
  readonly id: number;
  readonly name: string;
  readonly type: SqlType;
}

export type RowExpression =
  | SymbolReference
  | InputReference
  | Constant
  | Call
  | CastExpression
  | SpecialForm
  | LambdaExpression
  | LambdaVariable
  | RoutineCall;

/** A reference to a symbol of the input plan node (logical plans). */
export interface SymbolReference {
  kind: 'symbol';
  symbol: Symbol;
  type: SqlType;
}

/** A reference to channel `channel` of the input page (physical plans, what the compiler sees). */
export interface InputReference {
  kind: 'input';
  channel: number;
  type: SqlType;
}

export interface Constant {
  kind: 'constant';
  value: Scalar;
  type: SqlType;
  /** Set on the typeless stand-in of a `?` while DESCRIBE INPUT analyzes a statement. */
  parameter?: ParameterSlot;
}

/**
 * A `?` of a statement being described (DESCRIBE INPUT): it stands in as a NULL of unknown type,
 * and the first type the analysis coerces it to is its type, as Trino's analysis records it.
 */
export interface ParameterSlot {
  index: number;
  inferred?: SqlType;
}

/** The stand-in of a described `?`. */
export function parameterPlaceholder(slot: ParameterSlot): Constant {
  return { kind: 'constant', value: null, type: { kind: 'unknown' }, parameter: slot };
}

/**
 * A scalar function or operator call, resolved against the function registry: `name` is the
 * registry name; operators use: add, subtract, multiply, divide, modulus, negate,
 * equal, not_equal, less_than, less_than_or_equal, greater_than, greater_than_or_equal,
 * is_distinct_from, concat (for `||`).
 */
export interface Call {
  kind: 'call';
  name: string;
  args: RowExpression[];
  type: SqlType;
}

/** CAST / TRY_CAST (safe: a value that cannot be cast yields NULL instead of an error). */
export interface CastExpression {
  kind: 'cast';
  arg: RowExpression;
  type: SqlType;
  safe: boolean;
  /** An INSERT's store assignment: a character value too long for the column fails (storeAssignmentCast). */
  assignment?: boolean;
  /**
   * What a cast reads of the session: its time zone (to timestamp with time zone: zoned-casts.ts), the
   * zone's offset at the query's start (to time with time zone), or the start's date in the zone as
   * epoch days (from time with time zone to a timestamp: zoned-time-casts.ts).
   */
  sessionZone?: string;
}

/**
 * Forms with their own evaluation rules (short circuits, three-valued logic):
 * - and / or: n-ary, three-valued
 * - not, is_null: one argument
 * - if: [condition, then, else]
 * - switch: searched CASE as [when1, then1, when2, then2, ..., else]; a missing ELSE is a NULL constant
 * - coalesce: n-ary
 * - in: [value, item1, item2, ...], three-valued like a chain of `=` joined by OR
 * - between: [value, min, max]
 * - between_symmetric: [value, a, b], `value BETWEEN a AND b OR value BETWEEN b AND a`, each operand evaluated once
 * - like: [value, pattern] or [value, pattern, escape]
 * - nullif: [a, b]
 * - try: [expression]; errors of the expression yield NULL
 */
/** Every special form, in one list: the task-request schema workers validate plans with reads it too. */
export const SPECIAL_FORMS = [
  'and',
  'or',
  'not',
  'is_null',
  'if',
  'switch',
  'coalesce',
  'in',
  'between',
  'between_symmetric',
  'like',
  'nullif',
  'try',
] as const;

export interface SpecialForm {
  kind: 'special';
  form: (typeof SPECIAL_FORMS)[number];
  args: RowExpression[];
  type: SqlType;
}

/**
 * A lambda (`(x, y) -> body`), only ever an argument of a call whose signature has a function(...)
 * parameter there; its type is `function(parameter types..., body type)`. The body refers to the
 * parameters as `variable`s (an inner lambda's parameter shadows an outer one of the same name) and
 * may capture the row's columns as symbol (logical) or input (physical) references.
 */
export interface LambdaExpression {
  kind: 'lambda';
  parameters: readonly LambdaParameter[];
  body: RowExpression;
  type: SqlType;
}

export interface LambdaParameter {
  readonly name: string;
  readonly type: SqlType;
}

/** A reference to a parameter of an enclosing lambda, by its name. */
export interface LambdaVariable {
  kind: 'variable';
  name: string;
  type: SqlType;
}

/** A call of a SQL routine (WITH FUNCTION, CREATE FUNCTION): the routine itself travels with the call. */
export interface RoutineCall {
  kind: 'routine';
  routine: Routine;
  args: RowExpression[];
  type: SqlType;
}

export function constant(value: Scalar, type: SqlType): Constant {
  return { kind: 'constant', value, type };
}

export function symbolRef(symbol: Symbol): SymbolReference {
  return { kind: 'symbol', symbol, type: symbol.type };
}

export function inputRef(channel: number, type: SqlType): InputReference {
  return { kind: 'input', channel, type };
}

export function call(name: string, type: SqlType, ...args: RowExpression[]): Call {
  return { kind: 'call', name, args, type };
}

export function special(form: SpecialForm['form'], type: SqlType, ...args: RowExpression[]): SpecialForm {
  return specialOf(form, type, args);
}

/** `special` over an array: no spread, so an IN list of any length fits (spreading 200,000 arguments overflows the stack). */
export function specialOf(form: SpecialForm['form'], type: SqlType, args: RowExpression[]): SpecialForm {
  return { kind: 'special', form, args, type };
}

/** The direct children of an expression. */
export function children(e: RowExpression): RowExpression[] {
  switch (e.kind) {
    case 'call':
    case 'special':
    case 'routine':
      return e.args;
    case 'cast':
      return [e.arg];
    case 'lambda':
      return [e.body];
    default:
      return [];
  }
}

/** Rebuilds `e` with each child replaced by `f(child)`. */
export function mapChildren(e: RowExpression, f: (child: RowExpression) => RowExpression): RowExpression {
  switch (e.kind) {
    case 'call':
    case 'special':
    case 'routine': {
      // A loop here, not Array.map or a helper: recursions through mapChildren take a frame less per level.
      const args: RowExpression[] = new Array(e.args.length);
      for (let i = 0; i < args.length; i++) args[i] = f(e.args[i]);
      return { ...e, args };
    }
    case 'cast':
      return { ...e, arg: f(e.arg) };
    case 'lambda':
      return { ...e, body: f(e.body) };
    default:
      return e;
  }
}

/** Every symbol an expression references. */
export function referencedSymbols(e: RowExpression, into: Map<number, Symbol> = new Map()): Map<number, Symbol> {
  if (e.kind === 'symbol') into.set(e.symbol.id, e.symbol);
  for (const c of children(e)) referencedSymbols(c, into);
  return into;
}

/** A key equal for structurally equal expressions (symbols compared by id). */
export function expressionKey(e: RowExpression): string {
  return stringifyDeep(e, (key, value) => {
    if (key === 'symbol' && value && typeof value === 'object') return `#${(value as Symbol).id}`;
    if (typeof value === 'bigint') return `${value}n`;
    if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
    return value;
  });
}

/** Replaces symbol references by `f(symbol)` where it returns an expression. */
export function replaceSymbols(e: RowExpression, f: (s: Symbol) => RowExpression | undefined): RowExpression {
  if (e.kind === 'symbol') return f(e.symbol) ?? e;
  return mapChildren(e, (c) => replaceSymbols(c, f));
}
