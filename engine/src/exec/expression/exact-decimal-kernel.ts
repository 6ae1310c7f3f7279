// Decimal +, - and * in doubles. Each row's unscaled operands are read as doubles (exact below 2^53)
// and every intermediate is checked against 2^53 and its type's precision: a product or sum of exact
// integers is exact when its rounded result is below 2^53 (rounding is monotonic and 2^53 is a
// double), so a value that passes is the exact one. A page with a row that does not pass (an
// operand beyond 2^53, a long-decimal operand held as bigints, a result near its precision) is
// computed by the general bigint kernel instead, which raises the overflow errors the types call for.
// The result is an exact-decimal column (exact-decimals.ts): no BigInt is made for it.

import { EXACT_LIMIT, exactDecimalColumn } from '../../columnar/exact-decimals.js';
import type { Column, Page } from '../../columnar/page.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { expressionKey } from '../../sql/planner/expression-key.js';
import { MAX_DECIMAL_PRECISION, SHORT_DECIMAL_PRECISION, decimal, type SqlType } from '../../types/types.js';
import type { FilterResult } from './compiler.js';

/** A page's column computed in doubles, or undefined when a row needs the general kernel. */
export type ExactDecimalKernel = (page: Page) => Column | undefined;
/** A page's selected rows computed in doubles, or undefined when a row needs the general kernel. */
export type ExactDecimalFilter = (page: Page) => FilterResult | undefined;

/** How a channel's rows are read: int64 words (short decimals, bigint; or an exact-decimal column's doubles), or a small integer array. */
type Storage = 'int64' | 'small';

interface Generation {
  lines: string[];
  /** Channels read, and how. */
  channels: Map<number, Storage>;
  counter: number;
}

const MAX_CACHED = 1024;
/** Kernels by expression key (null: not covered); constant folding compiles the same expressions again and again. */
const cached = new Map<string, ExactDecimalKernel | null>();
const cachedFilters = new Map<string, ExactDecimalFilter | null>();

/** Comparison names and their operators on doubles (exact integers at one scale compare as their values do). */
const COMPARISONS: ReadonlyMap<string, string> = new Map([
  ['equal', '==='],
  ['not_equal', '!=='],
  ['less_than', '<'],
  ['less_than_or_equal', '<='],
  ['greater_than', '>'],
  ['greater_than_or_equal', '>='],
]);

/** A kernel computing `expr` in doubles, or undefined when `expr` is not decimal arithmetic it covers. */
export function exactDecimalKernel(expr: RowExpression): ExactDecimalKernel | undefined {
  if (expr.type.kind !== 'decimal' || (expr.kind !== 'call' && expr.kind !== 'cast')) return undefined;
  return memoized(cached, expressionKey(expr), () => build(expr));
}

/**
 * The rows where the boolean `expr` holds, computed in doubles, when `expr` is a comparison of covered
 * decimal expressions or an AND of such (q18's HAVING sum(l_quantity) > 300 on an exact-decimal sum);
 * else undefined. The filter returns undefined for a page that needs the general kernel.
 */
export function exactDecimalFilter(expr: RowExpression): ExactDecimalFilter | undefined {
  if (expr.type.kind !== 'boolean') return undefined;
  return memoized(cachedFilters, expressionKey(expr), () => buildFilter(expr));
}

/** `make()`'s result for `key`, made once (null remembers "not covered"); the cache is emptied when full. */
function memoized<T>(cache: Map<string, T | null>, key: string, make: () => T | undefined): T | undefined {
  let value = cache.get(key);
  if (value === undefined) {
    value = make() ?? null;
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, value);
  }
  return value ?? undefined;
}

function build(expr: RowExpression): ExactDecimalKernel | undefined {
  const g: Generation = { lines: [], channels: new Map(), counter: 0 };
  const result = generate(g, expr);
  if (result === undefined) return undefined;
  // Nothing after the loop that needs type feedback (a call, a property store): V8 optimizes the
  // kernel inside its loop on the first page and enters that code again on later pages, so such a
  // site, without feedback when it was compiled, deoptimized the kernel on every page. The NULL
  // mask leaves through a closure variable.
  const source = `let lastNulls = null;
return { nulls: () => lastNulls, kernel: function exactDecimals(page) {
const n = page.rowCount; const cols = page.columns;
${channelReads(g)}
const out = new Float64Array(n); let nulls = null;
for (let i = 0; i < n; i++) {
${g.channels.size === 0 ? '' : `if (${nullTest(g)}) { if (nulls === null) nulls = new Uint8Array(n); nulls[i] = 1; continue; }`}
${g.lines.join('\n')}
out[i] = ${result};
}
lastNulls = nulls;
return out;
} };`;
  const type = expr.type;
  const { kernel, nulls } = new Function(source)() as { kernel: (page: Page) => Float64Array | undefined; nulls: () => Uint8Array | null };
  return (page) => {
    const out = kernel(page);
    return out === undefined ? undefined : exactDecimalColumn(type, page.rowCount, nulls(), out);
  };
}

function buildFilter(expr: RowExpression): ExactDecimalFilter | undefined {
  const g: Generation = { lines: [], channels: new Map(), counter: 0 };
  const operands = expr.kind === 'special' && expr.form === 'and' ? expr.args : [expr];
  const tests: string[] = [];
  for (const operand of operands) {
    const test = generateComparison(g, operand);
    if (test === undefined) return undefined;
    tests.push(test);
  }
  if (g.channels.size === 0) return undefined;
  // A row with a NULL operand drops: its comparison is NULL, and an AND holding a NULL is NULL or FALSE.
  const source = `return function exactDecimalFilter(page) {
const n = page.rowCount; const cols = page.columns;
${channelReads(g)}
const positions = new Int32Array(n); let count = 0;
for (let i = 0; i < n; i++) {
if (${nullTest(g)}) continue;
${g.lines.join('\n')}
if (${tests.join(' && ')}) positions[count++] = i;
}
return { positions, count };
};`;
  return new Function(source)() as ExactDecimalFilter;
}

/** Reads of the channels the loop uses: an exact-decimal column's doubles, int64 words, or a small integer array. */
function channelReads(g: Generation): string {
  return [...g.channels]
    .map(([c, storage]) =>
      storage === 'small'
        ? `const d${c} = cols[${c}].values; const n${c} = cols[${c}].nulls;`
        : `const x${c} = cols[${c}].exact ?? null; const b${c} = x${c} === null ? cols[${c}].values : null; ` +
          `if (x${c} === null && !(b${c} instanceof BigInt64Array)) return undefined; ` +
          `const w${c} = x${c} === null ? new Int32Array(b${c}.buffer, b${c}.byteOffset, 2 * n) : null; const n${c} = cols[${c}].nulls;`,
    )
    .join('\n');
}

function nullTest(g: Generation): string {
  return [...g.channels.keys()].map((c) => `(n${c} !== null && n${c}[i] === 1)`).join(' || ');
}

/** A comparison (or BETWEEN) of covered decimal expressions, all at the largest scale among them, or undefined. */
function generateComparison(g: Generation, e: RowExpression): string | undefined {
  const operator = e.kind === 'call' && e.args.length === 2 ? COMPARISONS.get(e.name) : undefined;
  const between = e.kind === 'special' && e.form === 'between' && e.args.length === 3;
  if ((operator === undefined && !between) || (e.kind !== 'call' && e.kind !== 'special')) return undefined;
  const scale = Math.max(...e.args.map((a) => (a.type.kind === 'decimal' ? a.type.scale : 0)));
  const common = decimal(MAX_DECIMAL_PRECISION, scale);
  const values: string[] = [];
  for (const arg of e.args) {
    const x = arg.type.kind === 'decimal' ? generate(g, arg) : undefined;
    if (x === undefined || arg.type.kind !== 'decimal') return undefined;
    values.push(scaled(g, x, scale - arg.type.scale, common));
  }
  return between ? `(${values[1]} <= ${values[0]} && ${values[0]} <= ${values[2]})` : `(${values[0]} ${operator} ${values[1]})`;
}

/** The variable holding `e`'s value in the row loop, or undefined when `e` is not covered. */
function generate(g: Generation, e: RowExpression): string | undefined {
  if (e.type.kind !== 'decimal') return undefined;
  switch (e.kind) {
    case 'input':
      return readInput(g, e.channel, 'int64');
    case 'constant':
      return typeof e.value === 'bigint' && e.value < BigInt(EXACT_LIMIT) && e.value > -BigInt(EXACT_LIMIT) ? `(${e.value})` : undefined;
    case 'cast':
      return generateRescale(g, e.arg, e.type);
    case 'call':
      return generateCall(g, e.name, e.args, e.type);
    default:
      return undefined;
  }
}

/** An integer column cast to a decimal (q11's ps_supplycost * ps_availqty), read as it is stored. */
function generateInteger(g: Generation, e: RowExpression): string | undefined {
  if (e.kind !== 'input') return undefined;
  switch (e.type.kind) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
      return readInput(g, e.channel, 'small');
    case 'bigint':
      return readInput(g, e.channel, 'int64');
    default:
      return undefined;
  }
}

function readInput(g: Generation, channel: number, storage: Storage): string | undefined {
  const known = g.channels.get(channel);
  if (known !== undefined && known !== storage) return undefined;
  g.channels.set(channel, storage);
  const value = fresh(g, 'v');
  if (storage === 'small') {
    g.lines.push(`const ${value} = d${channel}[i];`);
    return value;
  }
  const hi = fresh(g, 'h');
  g.lines.push(
    `let ${value}; if (x${channel} !== null) ${value} = x${channel}[i]; else {`,
    `const ${hi} = w${channel}[2 * i + 1]; if (${hi} < -2097152 || ${hi} >= 2097152) return undefined;`,
    `${value} = ${hi} * 4294967296 + (w${channel}[2 * i] >>> 0); }`,
  );
  return value;
}

/** A cast to a decimal of a decimal or an integer that drops no digit: the unscaled value times a power of ten. */
function generateRescale(g: Generation, arg: RowExpression, to: SqlType): string | undefined {
  if (to.kind !== 'decimal') return undefined;
  if (arg.type.kind !== 'decimal') {
    const x = generateInteger(g, arg);
    return x === undefined ? undefined : checked(g, `${x} * ${10 ** to.scale}`, to);
  }
  if (to.scale < arg.type.scale) return undefined;
  const x = generate(g, arg);
  // Checked even at the same scale: a narrower precision may not hold the value.
  return x === undefined ? undefined : checked(g, `${x} * ${10 ** (to.scale - arg.type.scale)}`, to);
}

function generateCall(g: Generation, name: string, args: readonly RowExpression[], type: SqlType): string | undefined {
  if (type.kind !== 'decimal' || args.length !== 2 || (name !== 'add' && name !== 'subtract' && name !== 'multiply')) return undefined;
  const [a, b] = args;
  if (a.type.kind !== 'decimal' || b.type.kind !== 'decimal') return undefined;
  const x = generate(g, a);
  const y = generate(g, b);
  if (x === undefined || y === undefined) return undefined;
  if (name === 'multiply') return checked(g, `${x} * ${y}`, type);
  // decimalAddition: both operands at the result scale.
  const xs = scaled(g, x, type.scale - a.type.scale, type);
  const ys = scaled(g, y, type.scale - b.type.scale, type);
  return checked(g, `${xs} ${name === 'add' ? '+' : '-'} ${ys}`, type);
}

/** `x` times 10^digits, checked (x itself when digits is 0). */
function scaled(g: Generation, x: string, digits: number, type: SqlType): string {
  return digits === 0 ? x : checked(g, `${x} * ${10 ** digits}`, type);
}

/**
 * A variable holding `expression`, leaving for the general kernel when its magnitude reaches 2^53
 * (it may be rounded) or the precision of `type` (the general kernel decides whether that is an error).
 */
function checked(g: Generation, expression: string, type: SqlType): string {
  const precision = type.kind === 'decimal' ? type.precision : SHORT_DECIMAL_PRECISION;
  // 10^p for p <= 15 is below 2^53 and exact; from 16 digits on, 2^53 is the tighter bound.
  const limit = precision <= 15 ? 10 ** precision : EXACT_LIMIT;
  const v = fresh(g, 'r');
  g.lines.push(`const ${v} = ${expression}; if (!(${v} < ${limit} && ${v} > -${limit})) return undefined;`);
  return v;
}

function fresh(g: Generation, prefix: string): string {
  return `${prefix}${g.counter++}`;
}
