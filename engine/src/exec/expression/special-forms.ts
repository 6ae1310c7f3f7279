// Code for the special forms of row-expression.ts: three-valued AND/OR/NOT, IS NULL, IF, searched
// CASE, COALESCE, IN, BETWEEN [SYMMETRIC], LIKE, NULLIF and TRY. Operands that a row does not need are not
// evaluated for that row.

import type { SpecialForm, RowExpression } from '../../sql/planner/row-expression.js';
import { commonSuperType } from '../../types/coercion.js';
import { castFunction } from '../../types/casts.js';
import { padChar } from '../../types/chars.js';
import { type SqlType, BOOLEAN, typeName, typesEqual } from '../../types/types.js';
import type { Scalar } from '../../types/scalar.js';
import type { CodeGenerator, Emitted } from './code-generator.js';
import { defaultLiteral } from './js-values.js';
import { cachedLikeMatcher, compileLikePattern } from './like-pattern.js';

/** Errors TRY turns into NULL (Trino's TRY catches these). */
export const TRYABLE_ERRORS: ReadonlySet<string> = new Set([
  'DIVISION_BY_ZERO',
  'INVALID_CAST_ARGUMENT',
  'INVALID_FUNCTION_ARGUMENT',
  'NUMERIC_VALUE_OUT_OF_RANGE',
]);

export function generateSpecialForm(g: CodeGenerator, e: SpecialForm): Emitted {
  switch (e.form) {
    case 'and':
    case 'or':
      return logical(g, e.args, e.form === 'and');
    case 'not': {
      const a = g.generate(e.args[0]);
      if (a.isNull === 'true') return a;
      return { value: `!${a.value}`, isNull: a.isNull };
    }
    case 'is_null': {
      const a = g.generate(e.args[0]);
      return { value: a.isNull, isNull: 'false' };
    }
    case 'if':
      return searchedCase(g, [e.args[0], e.args[1], e.args[2] ?? nullOf(e.type)], e.type);
    case 'switch':
      return searchedCase(g, e.args, e.type);
    case 'coalesce':
      return coalesce(g, e.args, e.type);
    case 'in':
      return inList(g, e.args);
    case 'between':
    case 'between_symmetric':
      return between(g, e.args, e.form === 'between_symmetric');
    case 'like':
      return like(g, e.args);
    case 'nullif':
      return nullIf(g, e.args, e.type);
    case 'try':
      return tryForm(g, e.args[0], e.type);
  }
}

function nullOf(type: SqlType): RowExpression {
  return { kind: 'constant', value: null, type };
}

/**
 * AND: FALSE if any operand is FALSE (later operands are then not evaluated), else NULL if any is
 * NULL, else TRUE. OR likewise with TRUE.
 */
function logical(g: CodeGenerator, args: readonly RowExpression[], isAnd: boolean): Emitted {
  const result = g.declare(BOOLEAN, { value: String(isAnd), isNull: 'false' });
  const label = g.fresh('L');
  const decisive = isAnd ? '!' : '';
  g.emit(`${label}: {`);
  for (const arg of args) {
    const a = g.generate(arg);
    if (a.isNull === 'true') {
      g.emit(`${result.isNull} = true;`);
      continue;
    }
    g.emit(
      `if (${a.isNull === 'false' ? '' : `!${a.isNull} && `}${decisive}${a.value}) { ${result.value} = ${!isAnd}; ${result.isNull} = false; break ${label}; }`,
    );
    if (a.isNull !== 'false') g.emit(`if (${a.isNull}) ${result.isNull} = true;`);
  }
  g.emit('}');
  return result;
}

/** [when1, then1, when2, then2, ..., else]: the first WHEN that is TRUE picks its THEN. */
function searchedCase(g: CodeGenerator, args: readonly RowExpression[], type: SqlType): Emitted {
  const result = g.declare(type);
  const label = g.fresh('L');
  g.emit(`${label}: {`);
  const pairs = Math.floor(args.length / 2);
  for (let k = 0; k < pairs; k++) {
    const when = g.generate(args[2 * k]);
    if (when.isNull === 'true') continue;
    g.emit(`if (${when.isNull === 'false' ? '' : `!${when.isNull} && `}${when.value}) {`);
    assign(g, result, g.generate(args[2 * k + 1]));
    g.emit(`break ${label};`);
    g.emit('}');
  }
  if (args.length % 2 === 1) assign(g, result, g.generate(args[args.length - 1]));
  g.emit('}');
  return result;
}

function assign(g: CodeGenerator, target: Emitted, source: Emitted): void {
  g.emit(`${target.value} = ${source.value}; ${target.isNull} = ${source.isNull};`);
}

function coalesce(g: CodeGenerator, args: readonly RowExpression[], type: SqlType): Emitted {
  const result = g.declare(type);
  const label = g.fresh('L');
  g.emit(`${label}: {`);
  for (const arg of args) {
    const a = g.generate(arg);
    if (a.isNull === 'true') continue;
    if (a.isNull === 'false') {
      g.emit(`${result.value} = ${a.value}; ${result.isNull} = false; break ${label};`);
      break;
    }
    g.emit(`if (!${a.isNull}) { ${result.value} = ${a.value}; ${result.isNull} = false; break ${label}; }`);
  }
  g.emit('}');
  return result;
}

/** The type two operands are compared in (the analyzer normally made them equal already). */
function comparisonType(a: SqlType, b: SqlType): SqlType {
  const t = commonSuperType(a, b);
  if (t === undefined) throw new Error(`cannot compare ${typeName(a)} with ${typeName(b)}`);
  return t;
}

/** `a = b` on non-null generated operands of type `type`, as a JS boolean expression. */
function equalCode(g: CodeGenerator, type: SqlType, a: Emitted, b: Emitted): string {
  return g.callOn('equal', [type, type], BOOLEAN, [nonNull(a), nonNull(b)]).value;
}

function nonNull(e: Emitted): Emitted {
  return { value: e.value, isNull: 'false' };
}

/** value IN (items): TRUE on a match; otherwise NULL if the value or any item is NULL, else FALSE. */
function inList(g: CodeGenerator, args: readonly RowExpression[]): Emitted {
  const [valueExpr, ...items] = args;
  const type = items.reduce((t, item) => comparisonType(t, item.type), valueExpr.type);
  const value = g.coerce(g.generate(valueExpr), valueExpr.type, type);
  const result = g.declare(BOOLEAN, { value: 'false', isNull: value.isNull });
  if (value.isNull === 'true') return result;

  // A Set finds primitives only: byte arrays, containers and zoned timestamps (equal by instant) compare through `equal`.
  const constants =
    items.every((i) => i.kind === 'constant') &&
    !['varbinary', 'timestamp with time zone', 'time with time zone', 'array', 'map', 'row'].includes(type.kind) &&
    items.length > 1;
  g.emit(`if (!${result.isNull}) {`);
  if (constants) {
    const set = new Set(items.map((i) => (i.kind === 'constant' ? constantIn(i.value, i.type, type) : null)));
    const hasNull = set.delete(null);
    const floating = type.kind === 'double' || type.kind === 'real';
    g.emit(`${result.value} = ${floating ? `${value.value} === ${value.value} && ` : ''}${g.bind(set)}.has(${value.value});`);
    if (hasNull) g.emit(`if (!${result.value}) ${result.isNull} = true;`);
  } else {
    const label = g.fresh('L');
    g.emit(`${label}: {`);
    for (const itemExpr of items) {
      const item = g.coerce(g.generate(itemExpr), itemExpr.type, type);
      if (item.isNull === 'true') {
        g.emit(`${result.isNull} = true;`);
        continue;
      }
      if (item.isNull !== 'false') g.emit(`if (${item.isNull}) { ${result.isNull} = true; } else {`);
      // An item equal but for NULLs inside (arrays, rows) makes the result NULL unless another matches.
      const equal = g.callOn('equal', [type, type], BOOLEAN, [nonNull(value), nonNull(item)]);
      g.emit(
        `if (${equal.value}) { ${result.value} = true; ${result.isNull} = false; break ${label}; } else if (${equal.isNull}) ${result.isNull} = true;`,
      );
      if (item.isNull !== 'false') g.emit('}');
    }
    g.emit('}');
  }
  g.emit('}');
  return result;
}

/** A constant IN-list item as a value of the comparison type (null stays null). */
function constantIn(value: Scalar, from: SqlType, to: SqlType): Scalar {
  if (value === null || typesEqual(from, to)) return value;
  return (castFunction(from, to) as (v: Scalar) => Scalar)(value);
}

/** value BETWEEN low AND high; symmetric: also TRUE when value is between high and low (three-valued OR of the two). */
function between(g: CodeGenerator, args: readonly RowExpression[], symmetric: boolean): Emitted {
  const type = args.reduce((t, a) => comparisonType(t, a.type), args[0].type);
  const [value, low, high] = args.map((a) => g.coerce(g.generate(a), a.type, type));
  const ascending = betweenOf(g, type, value, low, high);
  if (!symmetric) return ascending;
  const descending = betweenOf(g, type, value, high, low);
  const result = g.declare(BOOLEAN, { value: 'false', isNull: 'false' });
  const isTrue = (e: Emitted) => `(!${e.isNull} && ${e.value})`;
  g.emit(`if (${isTrue(ascending)} || ${isTrue(descending)}) { ${result.value} = true; }`);
  g.emit(`else if (${ascending.isNull} || ${descending.isNull}) { ${result.isNull} = true; }`);
  return result;
}

/** value BETWEEN low AND high = low <= value AND value <= high, three-valued. */
function betweenOf(g: CodeGenerator, type: SqlType, value: Emitted, low: Emitted, high: Emitted): Emitted {
  const lowerOk = g.callOn('less_than_or_equal', [type, type], BOOLEAN, [low, value]);
  const upperOk = g.callOn('less_than_or_equal', [type, type], BOOLEAN, [value, high]);
  const result = g.declare(BOOLEAN, { value: 'false', isNull: 'false' });
  const lowerFalse = lowerOk.isNull === 'false' ? `!${lowerOk.value}` : `(!${lowerOk.isNull} && !${lowerOk.value})`;
  const upperFalse = upperOk.isNull === 'false' ? `!${upperOk.value}` : `(!${upperOk.isNull} && !${upperOk.value})`;
  g.emit(`if (${lowerFalse} || ${upperFalse}) { ${result.value} = false; }`);
  g.emit(`else if (${lowerOk.isNull} || ${upperOk.isNull}) { ${result.isNull} = true; }`);
  g.emit(`else { ${result.value} = true; }`);
  return result;
}

function like(g: CodeGenerator, args: readonly RowExpression[]): Emitted {
  const [valueExpr, patternExpr, escapeExpr] = args;
  const value = likeSubject(g, valueExpr);
  const constantText = (e: RowExpression | undefined): string | null | undefined =>
    e === undefined ? undefined : e.kind === 'constant' ? (e.value as string | null) : undefined;
  const pattern = constantText(patternExpr);
  const escape = constantText(escapeExpr);
  if (pattern === null || escape === null) return { value: 'false', isNull: 'true' };
  if (pattern !== undefined && (escapeExpr === undefined || escape !== undefined)) {
    const matches = g.bind(compileLikePattern(pattern, escape));
    if (value.isNull === 'true') return value;
    const result = g.declare(BOOLEAN, { value: 'false', isNull: value.isNull });
    g.emit(`if (!${result.isNull}) ${result.value} = ${matches}(${value.value});`);
    return result;
  }
  const patternValue = g.generate(patternExpr);
  const escapeValue = escapeExpr === undefined ? undefined : g.generate(escapeExpr);
  const anyNull = [value.isNull, patternValue.isNull, escapeValue?.isNull ?? 'false'].filter((f) => f !== 'false').join(' || ') || 'false';
  const result = g.declare(BOOLEAN, { value: 'false', isNull: anyNull });
  const matcher = g.bind(cachedLikeMatcher);
  g.emit(
    `if (!${result.isNull}) ${result.value} = ${matcher}(${patternValue.value}${escapeValue === undefined ? '' : `, ${escapeValue.value}`})(${value.value});`,
  );
  return result;
}

/** The value LIKE matches: a char(n) value padded to n (Trino's like on char), else the varchar itself. */
function likeSubject(g: CodeGenerator, e: RowExpression): Emitted {
  const value = g.generate(e);
  if (e.type.kind !== 'char' || value.isNull === 'true') return value;
  const padded = g.fresh('v');
  g.emit(`const ${padded} = ${g.bind(padChar)}(${value.value}, ${e.type.length});`);
  return { value: padded, isNull: value.isNull };
}

/** NULLIF(a, b): NULL when a = b, else a (b is evaluated only when a is not NULL). */
function nullIf(g: CodeGenerator, args: readonly RowExpression[], type: SqlType): Emitted {
  const [aExpr, bExpr] = args;
  const a = g.generate(aExpr);
  const result = g.declare(type, a);
  if (a.isNull === 'true') return result;
  const compareType = comparisonType(aExpr.type, bExpr.type);
  g.emit(`if (!${result.isNull}) {`);
  const b = g.coerce(g.generate(bExpr), bExpr.type, compareType);
  const left = g.coerce(a, aExpr.type, compareType);
  if (b.isNull !== 'true') {
    const bNotNull = b.isNull === 'false' ? '' : `!${b.isNull} && `;
    g.emit(`if (${bNotNull}${equalCode(g, compareType, left, b)}) { ${result.isNull} = true; ${result.value} = ${defaultLiteral(type)}; }`);
  }
  g.emit('}');
  return result;
}

function tryForm(g: CodeGenerator, arg: RowExpression, type: SqlType): Emitted {
  const result = g.declare(type);
  const tryable = g.bind(TRYABLE_ERRORS);
  g.emit('try {');
  assign(g, result, g.generate(arg));
  g.emit(
    `} catch (e) { if (!(e instanceof EngineError) || !${tryable}.has(e.errorName)) throw e; ${result.value} = ${defaultLiteral(type)}; ${result.isNull} = true; }`,
  );
  return result;
}
