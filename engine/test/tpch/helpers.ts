// Shared by the tpch tests: reading a generated table through the connector, and the reference files.

import { readFileSync } from 'node:fs';
import { sharedPath } from '../../scripts/shared-dir.js';
import { allSplits, type Split, type TableMetadata } from '../../src/spi/connector.js';
import { TpchConnector } from '../../src/connectors/tpch/tpch-connector.js';
import { concatPages, type Page } from '../../src/columnar/page.js';
import { testSession } from '../connectors/helpers.js';

export const REFERENCE_DIR = sharedPath('tpch', 'dbgen-sf0.01');

export const connector = new TpchConnector();

export async function table(schema: string, name: string): Promise<TableMetadata> {
  const metadata = await connector.getTable(testSession(), schema, name);
  if (metadata === undefined) throw new Error(`tpch.${schema}.${name} is missing`);
  return metadata;
}

export async function readPages(splits: readonly Split[], columns: readonly string[]): Promise<Page[]> {
  const pages: Page[] = [];
  for (const split of splits) for await (const page of connector.createPageSource(testSession(), split, columns)) pages.push(page);
  return pages;
}

/** The whole table (or `columns` of it) as one page, read split by split. */
export async function readTable(
  metadata: TableMetadata,
  columns = metadata.columns.map((c) => c.name),
  splits?: readonly Split[],
): Promise<Page> {
  const pages = await readPages(splits ?? (await allSplits(connector.getSplits(testSession(), metadata))), columns);
  const types = columns.map((name) => {
    const column = metadata.columns.find((c) => c.name === name);
    if (column === undefined) throw new Error(`no column ${name}`);
    return column.type;
  });
  return concatPages(types, pages);
}

export function referenceTbl(name: string): string {
  return readFileSync(`${REFERENCE_DIR}/${name}.tbl`, 'latin1');
}

/** The reference generator's rows of a table, as fields of text. */
export function referenceRows(name: string): string[][] {
  return referenceTbl(name)
    .trim()
    .split('\n')
    .map((line) => line.split('|'));
}
