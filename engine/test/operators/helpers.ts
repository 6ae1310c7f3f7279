// Test helpers: pages from rows, streams from pages, rows back from streams.

import { MemoryContext } from '../../src/exec/memory.js';
import { columnFromScalars, getScalar, type Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import type { OperatorContext, PageStream } from '../../src/exec/operators/operator.js';
import type { SqlType } from '../../src/types/types.js';

export function testContext(limitBytes = 1 << 30): OperatorContext {
  return { memory: new MemoryContext('test', limitBytes), signal: new AbortController().signal, timeZone: 'UTC' };
}

export function pageOf(types: readonly SqlType[], rows: readonly Scalar[][]): Page {
  return {
    rowCount: rows.length,
    columns: types.map((t, c) =>
      columnFromScalars(
        t,
        rows.map((r) => r[c]),
      ),
    ),
  };
}

/** The rows split into pages of `pageRows`. */
export function pagesOf(types: readonly SqlType[], rows: readonly Scalar[][], pageRows = 3): Page[] {
  const pages: Page[] = [];
  for (let i = 0; i < rows.length; i += pageRows) pages.push(pageOf(types, rows.slice(i, i + pageRows)));
  return pages;
}

export async function* streamOf(pages: readonly Page[]): PageStream {
  for (const p of pages) yield p;
}

export function rowsStream(types: readonly SqlType[], rows: readonly Scalar[][], pageRows = 3): PageStream {
  return streamOf(pagesOf(types, rows, pageRows));
}

export function pageRows(page: Page): Scalar[][] {
  const rows: Scalar[][] = [];
  for (let r = 0; r < page.rowCount; r++) rows.push(page.columns.map((c) => getScalar(c, r)));
  return rows;
}

export async function collectPages(stream: PageStream): Promise<Page[]> {
  const pages: Page[] = [];
  for await (const p of stream) pages.push(p);
  return pages;
}

export async function collectRows(stream: PageStream): Promise<Scalar[][]> {
  const rows: Scalar[][] = [];
  for (const p of await collectPages(stream)) rows.push(...pageRows(p));
  return rows;
}

/** Rows in a canonical order, for comparing results whose order is not defined. */
export function sortedRows(rows: Scalar[][]): Scalar[][] {
  const key = (r: Scalar[]): string => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Resolves with the error a promise rejects with (fails if it resolves). */
export async function errorOf(promise: Promise<unknown>): Promise<Error & { errorName?: string }> {
  try {
    await promise;
  } catch (e) {
    return e as Error & { errorName?: string };
  }
  throw new Error('expected an error');
}
