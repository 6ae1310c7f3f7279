import { DuckDBInstance } from '@duckdb/node-api';
import { TpchConnector } from './dist/src/connectors/tpch/tpch-connector.js';
import { TOOL_SESSION } from './dist/scripts/tpch/tbl-export.js';
import { ParquetFormat } from './dist/src/connectors/hive/formats/parquet/parquet-format.js';
import { TestFileSystem } from './dist/test/connectors/lake/parquet/test-file-system.js';
const schema = process.argv[2] ?? 'sf0.1';
const c = new TpchConnector();
const table = await c.getTable(TOOL_SESSION, schema, 'lineitem');
const fs = new TestFileSystem();
const w = new ParquetFormat().createWriter(table.columns, {}, await fs.create(`file:///tmp/pq/li-ours-${schema}.parquet`));
let gen = 0, app = 0; const t0 = performance.now();
for await (const split of c.getSplits(TOOL_SESSION, table)) {
  const it = c.createPageSource(TOOL_SESSION, split, table.columns.map(x => x.name))[Symbol.asyncIterator]();
  for (;;) { let t = performance.now(); const n = await it.next(); gen += performance.now() - t; if (n.done) break; t = performance.now(); await w.append(n.value); app += performance.now() - t; }
}
let t = performance.now(); await w.finish(); const fin = performance.now() - t;
console.log('gen', Math.round(gen), 'append', Math.round(app), 'finish', Math.round(fin));
const db = await (await DuckDBInstance.create(':memory:')).connect();
await db.run(`COPY (SELECT * FROM read_parquet('/tmp/pq/li-ours-${schema}.parquet')) TO '/tmp/pq/li-duck-${schema}.parquet' (FORMAT PARQUET)`);
