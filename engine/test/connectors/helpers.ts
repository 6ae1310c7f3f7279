// Shared by the connector tests: a session and readers that turn page sources into rows.

import { allSplits, type Connector, type Split, type TableMetadata } from '../../src/spi/connector.js';
import type { Session } from '../../src/spi/session.js';
import { getScalar, type Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';

export function testSession(): Session {
  return {
    queryId: '20260101_000000_00001_test1',
    user: 'test',
    timeZone: 'UTC',
    properties: new Map(),
    preparedStatements: new Map(),
    clientTags: [],
    startTime: Date.now(),
  };
}

export function pageRows(page: Page): Scalar[][] {
  const rows: Scalar[][] = [];
  for (let r = 0; r < page.rowCount; r++) rows.push(page.columns.map((c) => getScalar(c, r)));
  return rows;
}

export async function readSplit(connector: Connector, split: Split, columns: readonly string[]): Promise<Page[]> {
  const pages: Page[] = [];
  for await (const page of connector.createPageSource(testSession(), split, columns)) pages.push(page);
  return pages;
}

export async function readSplits(connector: Connector, splits: readonly Split[], columns: readonly string[]): Promise<Scalar[][]> {
  const rows: Scalar[][] = [];
  for (const split of splits) for (const page of await readSplit(connector, split, columns)) rows.push(...pageRows(page));
  return rows;
}

/** All rows of `schema.table`, columns as named (all columns when omitted). */
export async function readTable(connector: Connector, schema: string, table: string, columns?: readonly string[]): Promise<Scalar[][]> {
  const metadata = await requireTable(connector, schema, table);
  const names = columns ?? metadata.columns.map((c) => c.name);
  return readSplits(connector, await allSplits(connector.getSplits(testSession(), metadata)), names);
}

export async function requireTable(connector: Connector, schema: string, table: string): Promise<TableMetadata> {
  const metadata = await connector.getTable(testSession(), schema, table);
  if (metadata === undefined) throw new Error(`test table ${schema}.${table} is missing`);
  return metadata;
}
