// Writes the tpch connector's tables as dbgen .tbl files, so that DuckDB can load exactly the
// rows our generator produces.

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Session } from '../../src/spi/session.js';
import type { TableMetadata } from '../../src/spi/connector.js';
import { formatTblRows } from '../../src/connectors/tpch/tbl-format.js';
import { TPCH_TABLES } from '../../src/connectors/tpch/tables.js';
import { TpchConnector } from '../../src/connectors/tpch/tpch-connector.js';

export const TPCH_TABLE_NAMES: readonly string[] = TPCH_TABLES.map((t) => t.name);

export const TOOL_SESSION: Session = {
  queryId: 'tpch_tool',
  user: 'tpch',
  timeZone: 'UTC',
  properties: new Map(),
  preparedStatements: new Map(),
  clientTags: [],
  startTime: Date.now(),
};

/** Writes `<dir>/<table>.tbl` for every table of `schema` and returns their metadata. */
export async function exportTpchTables(schema: string, dir: string): Promise<TableMetadata[]> {
  const connector = new TpchConnector();
  const tables: TableMetadata[] = [];
  for (const name of TPCH_TABLE_NAMES) {
    const table = (await connector.getTable(TOOL_SESSION, schema, name))!;
    const columns = table.columns.map((c) => c.name);
    const out = createWriteStream(join(dir, `${name}.tbl`));
    for await (const split of connector.getSplits(TOOL_SESSION, table)) {
      for await (const page of connector.createPageSource(TOOL_SESSION, split, columns)) {
        if (!out.write(formatTblRows(page, columns))) await once(out, 'drain');
      }
    }
    out.end();
    await once(out, 'finish');
    tables.push(table);
  }
  return tables;
}
