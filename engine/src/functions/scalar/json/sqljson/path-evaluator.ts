// Evaluates a SQL/JSON path over an input item in lax or strict mode (functions/json.md): every path
// expression yields a sequence of items; lax mode unwraps arrays, wraps non-arrays for subscripts and
// suppresses structural errors; predicates are three-valued (null is unknown) and never fail.

import { divideRoundHalfUp, powerOfTen } from '../../../../types/decimal.js';
import { JsonNumber, JsonObject, type JsonNode } from '../../../../types/json/json-node.js';
import type { ArithmeticOperator, ComparisonOperator, JsonPath, PathExpression, PathLiteral, PathPredicate } from './path-ast.js';
import {
  ExactNumber,
  type Item,
  type Numeric,
  TypedItem,
  isStructured,
  itemTypeForError,
  itemTypeName,
  numericOf,
  pathError,
  PathEvaluationError,
  doubleOf,
} from './path-items.js';

interface Context {
  readonly lax: boolean;
  readonly root: Item;
  readonly variables: ReadonlyMap<string, Item>;
  readonly current?: Item;
  readonly last?: number;
}

/** The sequence a path yields for `root`; throws PathEvaluationError where the path fails. */
export function evaluatePath(path: JsonPath, root: Item, variables: ReadonlyMap<string, Item>): Item[] {
  return evaluate(path.expression, { lax: path.lax, root, variables });
}

function unwrapArrays(items: Item[]): Item[] {
  if (!items.some(Array.isArray)) return items;
  const out: Item[] = [];
  for (const item of items) {
    if (Array.isArray(item)) for (const element of item) out.push(element);
    else out.push(item);
  }
  return out;
}

function evaluate(e: PathExpression, ctx: Context): Item[] {
  const lax = (items: Item[]) => (ctx.lax ? unwrapArrays(items) : items);
  switch (e.kind) {
    case 'literal':
      return [literalItem(e.literal)];
    case 'context':
      return [ctx.root];
    case 'variable': {
      const value = ctx.variables.get(e.name);
      if (value === undefined) throw pathError(`no value passed for parameter ${e.name}`);
      return [value];
    }
    case 'last':
      if (ctx.last === undefined) throw pathError('accessing the last array index with no enclosing array');
      return [new ExactNumber(BigInt(ctx.last), 0)];
    case 'current':
      if (ctx.current === undefined) throw pathError('accessing the current item outside a filter');
      return [ctx.current];
    case 'unary':
      return lax(evaluate(e.operand, ctx)).map((item) => {
        const n = numericOf(item) ?? itemTypeError('NUMBER', item);
        if (!e.negate) return n;
        return typeof n === 'number' ? -n : new ExactNumber(-n.unscaled, n.scale);
      });
    case 'binary':
      return [arithmetic(e.operator, singleNumber(lax(evaluate(e.left, ctx))), singleNumber(lax(evaluate(e.right, ctx))))];
    case 'member':
      return memberValues(lax(evaluate(e.base, ctx)), ctx.lax, (object) => {
        const value = object.members.get(e.key);
        if (value === undefined && !ctx.lax) structuralError(`missing member '${e.key}' in JSON object`);
        return value === undefined ? [] : [value];
      });
    case 'wildcardMember':
      return memberValues(lax(evaluate(e.base, ctx)), ctx.lax, (object) => [...object.members.values()]);
    case 'descendant':
      return evaluate(e.base, ctx).flatMap((item) => descendants(item, e.key));
    case 'wildcardArray':
      return evaluate(e.base, ctx).flatMap((item) => arrayOf(item, ctx.lax));
    case 'array':
      return evaluate(e.base, ctx).flatMap((item) => {
        const array = arrayOf(item, ctx.lax);
        const inner: Context = { ...ctx, last: array.length - 1 };
        const out: Item[] = [];
        for (const subscript of e.subscripts) {
          const from = index(evaluate(subscript.from, inner), 'from');
          const to = subscript.to === undefined ? from : index(evaluate(subscript.to, inner), 'to');
          if (!ctx.lax && array.length === 0) structuralError('invalid array subscript for empty array');
          if (!ctx.lax && (from > to || from < 0 || to >= array.length))
            structuralError(`invalid array subscript: [${from}, ${to}] for array of size ${array.length}`);
          for (let i = Math.max(from, 0); i <= Math.min(to, array.length - 1); i++) out.push(array[i]);
        }
        return out;
      });
    case 'filter':
      return lax(evaluate(e.base, ctx)).filter((item) => predicate(e.predicate, { ...ctx, current: item }) === true);
    case 'method':
      return method(e.method, evaluate(e.base, ctx), ctx.lax);
  }
}

function fail(message: string): never {
  throw pathError(message);
}

/** Accessing what is not there (Trino's structural error): lax mode suppresses it, strict mode fails. */
function structuralError(message: string): never {
  throw pathError(`structural error: ${message}`);
}

function itemTypeError(expected: string, item: Item): never {
  throw pathError(`invalid item type. Expected: ${expected}, actual: ${itemTypeForError(item)}`);
}

function literalItem(literal: PathLiteral): Item {
  switch (literal.kind) {
    case 'null':
      return null;
    case 'boolean':
    case 'string':
      return literal.value;
    case 'number':
      return literal.exact ? ExactNumber.fromText(literal.text) : Number(literal.text);
  }
}

function memberValues(items: Item[], lax: boolean, of: (object: JsonObject) => JsonNode[]): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    if (item instanceof JsonObject) for (const value of of(item)) out.push(value);
    else if (!lax) itemTypeError('OBJECT', item);
  }
  return out;
}

/** Values of `key` in every object within `item`, in preorder (iterative: no stack depth limit). */
function descendants(item: Item, key: string): Item[] {
  const out: Item[] = [];
  const pending: Item[] = [item];
  while (pending.length > 0) {
    const next = pending.pop() as Item;
    let children: JsonNode[] = [];
    if (next instanceof JsonObject) {
      const value = next.members.get(key);
      if (value !== undefined) out.push(value);
      children = [...next.members.values()];
    } else if (Array.isArray(next)) {
      children = next;
    }
    for (let i = children.length - 1; i >= 0; i--) if (isStructured(children[i])) pending.push(children[i]);
  }
  return out;
}

function arrayOf(item: Item, lax: boolean): Item[] {
  if (Array.isArray(item)) return item;
  if (!lax) itemTypeError('ARRAY', item);
  return [item];
}

function singleNumber(items: Item[], what = 'arithmetic binary expression requires singleton operands'): Numeric {
  if (items.length !== 1) fail(what);
  return numericOf(items[0]) ?? itemTypeError('NUMBER', items[0]);
}

function index(items: Item[], end: 'from' | 'to'): number {
  const n = singleNumber(items, `array subscript '${end}' value must be singleton numeric`);
  const value = doubleOf(n);
  if (!Number.isInteger(value)) fail(`cannot convert value ${value} to long`);
  return value;
}

function aligned(a: ExactNumber, b: ExactNumber): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.unscaled * powerOfTen(scale - a.scale), b.unscaled * powerOfTen(scale - b.scale), scale];
}

function arithmetic(operator: ArithmeticOperator, a: Numeric, b: Numeric): Numeric {
  if (a instanceof ExactNumber && b instanceof ExactNumber) {
    const [x, y, scale] = aligned(a, b);
    switch (operator) {
      case '+':
        return new ExactNumber(x + y, scale);
      case '-':
        return new ExactNumber(x - y, scale);
      case '*':
        return new ExactNumber(a.unscaled * b.unscaled, a.scale + b.scale);
      case '/':
        if (y === 0n) fail('Division by zero');
        // As SQL: integers divide to an integer (truncating), decimals to the larger scale (HALF_UP).
        return scale === 0 ? new ExactNumber(x / y, 0) : new ExactNumber(divideRoundHalfUp(x * powerOfTen(scale), y), scale);
      case '%':
        if (y === 0n) fail('Division by zero');
        return new ExactNumber(x % y, scale);
    }
  }
  const [x, y] = [doubleOf(a), doubleOf(b)];
  switch (operator) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
    case '%':
      return x % y;
  }
}

type Truth = boolean | null;

function predicate(p: PathPredicate, ctx: Context): Truth {
  switch (p.kind) {
    case 'and': {
      const left = predicate(p.left, ctx);
      if (left === false) return false;
      const right = predicate(p.right, ctx);
      return right === false ? false : left === null || right === null ? null : true;
    }
    case 'or': {
      const left = predicate(p.left, ctx);
      if (left === true) return true;
      const right = predicate(p.right, ctx);
      return right === true ? true : left === null || right === null ? null : false;
    }
    case 'not': {
      const value = predicate(p.operand, ctx);
      return value === null ? null : !value;
    }
    case 'isUnknown':
      return predicate(p.predicate, ctx) === null;
    case 'exists': {
      const items = sequenceOrUnknown(p.path, ctx);
      return items === null ? null : items.length > 0;
    }
    case 'compare': {
      const left = sequenceOrUnknown(p.left, ctx);
      const right = sequenceOrUnknown(p.right, ctx);
      if (left === null || right === null) return null;
      const [l, r] = ctx.lax ? [unwrapArrays(left), unwrapArrays(right)] : [left, right];
      return anyPair(
        l.flatMap((a) => r.map((b) => () => compare(p.operator, a, b))),
        ctx.lax,
      );
    }
    case 'startsWith': {
      const whole = sequenceOrUnknown(p.whole, ctx);
      const prefix = sequenceOrUnknown(p.prefix, ctx);
      if (whole === null || prefix === null || prefix.length !== 1 || typeof prefix[0] !== 'string') return null;
      const start = prefix[0];
      return anyPair(
        (ctx.lax ? unwrapArrays(whole) : whole).map((item) => () => (typeof item === 'string' ? item.startsWith(start) : null)),
        ctx.lax,
      );
    }
    case 'likeRegex': {
      const items = sequenceOrUnknown(p.base, ctx);
      if (items === null) return null;
      return anyPair(
        (ctx.lax ? unwrapArrays(items) : items).map((item) => () => (typeof item === 'string' ? p.pattern.test(item) : null)),
        ctx.lax,
      );
    }
  }
}

function sequenceOrUnknown(e: PathExpression, ctx: Context): Item[] | null {
  try {
    return evaluate(e, ctx);
  } catch (error) {
    if (error instanceof PathEvaluationError) return null;
    throw error;
  }
}

/**
 * True when some comparison is true. An error (null) makes the result unknown: in strict mode any
 * error; in lax mode an error met before the first true one.
 */
function anyPair(comparisons: Array<() => Truth>, lax: boolean): Truth {
  let found = false;
  for (const comparison of comparisons) {
    const result = comparison();
    if (result === null) return null;
    if (result) {
      if (lax) return true;
      found = true;
    }
  }
  return found;
}

/** A comparison of two items (json.md, "Comparison rules"); null for an error (incompatible types). */
function compare(operator: ComparisonOperator, a: Item, b: Item): Truth {
  if (a === null || b === null) return a === null && b === null && operator === '==';
  if (isStructured(a) || isStructured(b)) return null;
  let order: number;
  const x = numericOf(a);
  const y = numericOf(b);
  if (x !== undefined && y !== undefined) order = compareNumbers(x, y);
  else if (typeof a === 'string' && typeof b === 'string') order = a < b ? -1 : a > b ? 1 : 0;
  else if (typeof a === 'boolean' && typeof b === 'boolean') order = Number(a) - Number(b);
  else if (a instanceof TypedItem && b instanceof TypedItem && a.type.kind === b.type.kind)
    order = String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0;
  else return null;
  switch (operator) {
    case '==':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '>=':
      return order >= 0;
  }
}

function compareNumbers(a: Numeric, b: Numeric): number {
  if (a instanceof ExactNumber && b instanceof ExactNumber) {
    const [x, y] = aligned(a, b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const [x, y] = [doubleOf(a), doubleOf(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function method(name: string, input: Item[], lax: boolean): Item[] {
  switch (name) {
    case 'type':
      return input.map(itemTypeName);
    case 'size':
      return input.map((item) => new ExactNumber(BigInt(Array.isArray(item) ? item.length : lax ? 1 : itemTypeError('ARRAY', item)), 0));
    case 'keyvalue': {
      let id = 0;
      return (lax ? unwrapArrays(input) : input).flatMap((item) => {
        if (!(item instanceof JsonObject)) itemTypeError('OBJECT', item);
        const objectId = new JsonNumber(String(id++), true);
        return [...item.members].map(
          ([key, value]) =>
            new JsonObject(
              new Map<string, JsonNode>([
                ['name', key],
                ['value', value],
                ['id', objectId],
              ]),
            ),
        );
      });
    }
    case 'double':
      return (lax ? unwrapArrays(input) : input).map((item) => {
        if (typeof item === 'string') {
          const value = Number(item.trim());
          if (item.trim() === '' || Number.isNaN(value)) fail(`cannot convert value '${item}' to double`);
          return value;
        }
        return doubleOf(numericOf(item) ?? itemTypeError('NUMBER or TEXT', item));
      });
    default:
      return (lax ? unwrapArrays(input) : input).map((item) => rounding(name, numericOf(item) ?? itemTypeError('NUMBER', item)));
  }
}

/** ceiling(), floor() and abs() as SQL: exact numbers stay exact (ceiling and floor to scale 0). */
function rounding(name: string, n: Numeric): Numeric {
  if (typeof n === 'number') return name === 'ceiling' ? Math.ceil(n) : name === 'floor' ? Math.floor(n) : Math.abs(n);
  if (name === 'abs') return new ExactNumber(n.unscaled < 0n ? -n.unscaled : n.unscaled, n.scale);
  const unit = powerOfTen(n.scale);
  let whole = n.unscaled / unit; // truncated toward zero
  const remainder = n.unscaled % unit;
  if (remainder !== 0n && name === 'ceiling' && n.unscaled > 0n) whole += 1n;
  if (remainder !== 0n && name === 'floor' && n.unscaled < 0n) whole -= 1n;
  return new ExactNumber(whole, 0);
}
