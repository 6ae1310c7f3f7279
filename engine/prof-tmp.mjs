import { ParquetFormat } from '/work/wt-parquet/engine/dist/src/connectors/hive/formats/parquet/parquet-format.js';
import { TestFileSystem } from '/work/wt-parquet/engine/dist/test/connectors/lake/parquet/test-file-system.js';
import { DuckDBInstance } from '@duckdb/node-api';
const OPTIONS = { skipHeaderLineCount: 0, csvSeparator: ',', csvQuote: '"', csvEscape: '\\' };
const path = process.argv[2];
const which = process.argv[3];
const fs = new TestFileSystem();
const format = new ParquetFormat();
const file = await fs.stat('file://' + path);
const cols = await format.inferColumns(fs, file, OPTIONS);
const columns = which === 'all' ? cols : cols.filter(c => which.split(',').includes(c.name));
for (let run = 0; run < 4; run++) {
  const stats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
  const t = performance.now(); let rows = 0;
  for (const range of format.ranges(file, OPTIONS, 64 << 20)) for await (const p of format.read({ fs, file, range, columns, options: OPTIONS, stats })) rows += p.rowCount;
  console.log(rows, Math.round(performance.now() - t), 'ms', stats.bytesRead);
}
