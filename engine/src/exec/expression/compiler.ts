// The expression compiler: RowExpressions become JavaScript functions over Pages (the way Trino
// generates bytecode). The generated loop reads the input typed arrays directly and writes into a
// preallocated output array and null mask. Code is specialised by which inputs carry a null mask,
// compiled on first use and cached by the expression's structure.

import { EngineError } from '../../errors/engine-error.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { type SqlType, typeName } from '../../types/types.js';
import { type Column, type Page, allocateSlots, columnFromSlots, constantColumn, getScalar } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { CodeGenerator } from './code-generator.js';
import { exactDecimalFilter, exactDecimalKernel } from './exact-decimal-kernel.js';
import { RUNTIME_PROLOGUE, RUNTIME_VALUES } from './runtime-values.js';
import { expressionKey, inputChannels } from '../../sql/planner/expression-key.js';
import { storedExpression } from './js-values.js';
import { branchFreeComparisons, branchFreeTest } from './branch-free-filter.js';

type Kernel<T> = (page: Page) => T;
type Mode = 'column' | 'filter';

export interface FilterResult {
  positions: Int32Array;
  count: number;
}

const MAX_CACHED = 4096;

const kernels = new Map<string, Kernel<unknown>>();

function channelReads(g: CodeGenerator): string {
  // An array channel's elements column (a map's keys and values) is read beside its offsets, a row channel's fields from its column (js-values readExpression).
  return [...g.channels()]
    .map(
      (c) =>
        `const c${c} = cols[${c}].values; const cn${c} = cols[${c}].nulls; const c${c}E = cols[${c}].children?.[0]; const c${c}V = cols[${c}].children?.[1]; const c${c}R = cols[${c}];`,
    )
    .join('\n');
}

// Each kernel's row loop is a function of its own that ends in a bare return: V8 optimizes a loop
// while it runs (on a page's first rows) and enters that code again on later pages, so code after
// the loop that had no type feedback yet (the result object, B.finish) deoptimized the kernel on
// every page (thousands of deoptimizations in q01 on sf0.1). The entry functions, without a loop,
// are optimized whole.
const FILTER_ENTRY = `return function filter(page) {
const n = page.rowCount; const positions = new Int32Array(n);
return { positions, count: rows(page, n, positions) };
};`;

function source(g: CodeGenerator, expr: RowExpression, mode: Mode, nullable: ReadonlySet<number>): string {
  const branchFree = mode === 'filter' ? branchFreeComparisons(expr, nullable) : undefined;
  if (branchFree !== undefined) return branchFreeFilterSource(g, branchFree);
  const result = g.generate(expr);
  const reads = channelReads(g);
  const prologue = `${g.prologueSource()}\n${RUNTIME_PROLOGUE}\n`;
  if (mode === 'filter') {
    const accept = result.isNull === 'false' ? result.value : `!${result.isNull} && ${result.value}`;
    return `${prologue}${FILTER_ENTRY}
function rows(page, n, positions) {
const cols = page.columns;
${reads}
let count = 0;
for (let i = 0; i < n; i++) {
${g.body()}
if (${accept}) positions[count++] = i;
}
return count;
}`;
  }
  const type = expr.type;
  const store = storedExpression(type, result.value);
  const write =
    result.isNull === 'false'
      ? `out[i] = ${store};`
      : `if (${result.isNull}) { if (nulls === null) nulls = new Uint8Array(n); nulls[i] = 1; } else out[i] = ${store};`;
  return `${prologue}return function project(page) {
const n = page.rowCount; const out = B.allocate(n);
return B.finish(out, n, rows(page, n, out));
};
function rows(page, n, out) {
const cols = page.columns;
${reads}
let nulls = null;
for (let i = 0; i < n; i++) {
${g.body()}
${write}
}
return nulls;
}`;
}

/** A filter testing every comparison on every row and storing each row's position, counted only when all hold (see branch-free-filter). */
function branchFreeFilterSource(g: CodeGenerator, comparisons: readonly RowExpression[]): string {
  const tests = comparisons.map((c) => branchFreeTest(g, c));
  return `${g.prologueSource()}\n${RUNTIME_PROLOGUE}\n${FILTER_ENTRY}
function rows(page, n, positions) {
const cols = page.columns;
${channelReads(g)}
let count = 0;
for (let i = 0; i < n; i++) {
${g.body()}
positions[count] = i;
count += ${tests.join(' & ')};
}
return count;
}`;
}

function build<T>(expr: RowExpression, inputTypes: readonly SqlType[], nullable: ReadonlySet<number>, mode: Mode): Kernel<T> {
  const g = new CodeGenerator(inputTypes, nullable);
  const text = source(g, expr, mode, nullable);
  const bound = Object.assign(g.boundValues(), RUNTIME_VALUES, {
    type: expr.type,
    allocate: (n: number) => allocateSlots(expr.type, n),
    finish: (out: Scalar[], n: number, nulls: Uint8Array | null) => columnFromSlots(expr.type, out, n, nulls),
  });
  const factory = new Function('B', 'EngineError', text) as (b: unknown, error: typeof EngineError) => Kernel<T>;
  return factory(bound, EngineError);
}

/** Compiles lazily per null-mask pattern of the channels the expression reads. */
function specialised<T>(expr: RowExpression, inputTypes: readonly SqlType[], mode: Mode): Kernel<T> {
  const channels = [...inputChannels(expr)].sort((a, b) => a - b);
  const baseKey = `${mode}|${expressionKey(expr)}|${channels.map((c) => typeName(inputTypes[c] ?? { kind: 'unknown' })).join(',')}`;
  const variants = new Map<string, Kernel<T>>();
  return (page: Page) => {
    let mask = '';
    for (const c of channels) mask += page.columns[c].nulls === null ? '0' : '1';
    let kernel = variants.get(mask);
    if (kernel === undefined) {
      const key = `${baseKey}|${mask}`;
      kernel = kernels.get(key) as Kernel<T> | undefined;
      if (kernel === undefined) {
        const nullable = new Set(channels.filter((_, i) => mask[i] === '1'));
        kernel = build<T>(expr, inputTypes, nullable, mode);
        if (kernels.size >= MAX_CACHED) kernels.clear();
        kernels.set(key, kernel as Kernel<unknown>);
      }
      variants.set(mask, kernel);
    }
    return kernel(page);
  };
}

/** The function computing `expr` for every row of a page whose channels have `inputTypes`. */
export function compileExpression(expr: RowExpression, inputTypes: readonly SqlType[]): (page: Page) => Column {
  const general = specialised<Column>(expr, inputTypes, 'column');
  const exact = exactDecimalKernel(expr);
  return exact === undefined ? general : (page) => exact(page) ?? general(page);
}

/** The rows (positions, ascending) where the boolean `expr` is TRUE; NULL and FALSE drop the row. */
export function compileFilter(expr: RowExpression, inputTypes: readonly SqlType[]): (page: Page) => FilterResult {
  if (expr.type.kind !== 'boolean' && expr.type.kind !== 'unknown') {
    throw new Error(`filter expression must be boolean, got ${typeName(expr.type)}`);
  }
  const general = specialised<FilterResult>(expr, inputTypes, 'filter');
  const exact = exactDecimalFilter(expr);
  return exact === undefined ? general : (page) => exact(page) ?? general(page);
}

/**
 * The function computing one output column per expression. Input references pass their column
 * through without copying; constants become constant columns.
 */
export function compileProjection(exprs: readonly RowExpression[], inputTypes: readonly SqlType[]): (page: Page) => Page {
  const columns: Array<(page: Page) => Column> = exprs.map((e) => {
    if (e.kind === 'input') {
      const channel = e.channel;
      return (page) => page.columns[channel];
    }
    if (e.kind === 'constant') {
      const { value, type } = e;
      return (page) => constantColumn(type, value, page.rowCount);
    }
    return compileExpression(e, inputTypes);
  });
  return (page) => ({ rowCount: page.rowCount, columns: columns.map((f) => f(page)) });
}

const ONE_ROW: Page = { rowCount: 1, columns: [] };

/**
 * The value of an expression without input references (for constant folding). Throws the
 * EngineError evaluation would raise at run time, so callers can leave such expressions unfolded.
 */
export function evaluateConstant(expr: RowExpression): Scalar {
  if (expr.kind === 'constant') return expr.value;
  return getScalar(compileExpression(expr, [])(ONE_ROW), 0);
}
