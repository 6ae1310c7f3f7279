import { ParquetFormat } from './dist/src/connectors/hive/formats/parquet/parquet-format.js';
import { TestFileSystem } from './dist/test/connectors/lake/parquet/test-file-system.js';
const OPTIONS = {};
const fs = new TestFileSystem(); const format = new ParquetFormat();
const file = await fs.stat('file:///tmp/pq/li-duck-sf0.1.parquet');
const columns = await format.inferColumns(fs, file, OPTIONS);
const pages = [];
const stats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
for await (const p of format.read({ fs, file, range: { start: 0, length: file.size }, columns, options: OPTIONS, stats })) pages.push(p);
for (let run = 0; run < 3; run++) {
  const t = performance.now();
  const w = format.createWriter(columns, OPTIONS, await fs.create('file:///tmp/pq/w.parquet'));
  for (const p of pages) await w.append(p);
  await w.finish();
  console.log('write ms', Math.round(performance.now() - t));
}
