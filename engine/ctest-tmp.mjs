import { readFileSync } from 'node:fs';
import { gzipSync, gunzipSync, constants } from 'node:zlib';
import { snappyCompress, snappyUncompress } from './dist/src/connectors/hive/formats/parquet/snappy.js';
// sample: chunks of the uncompressed-ish lineitem file bytes (our file decompressed pages not handy): use the DuckDB file's raw bytes after decompression via reading pages? use a synthetic mix
const buf = readFileSync('/tmp/pq/li-ours-sf0.1.parquet');
// make uncompressed-like data: decompress is hard; approximate with tbl text of lineitem-ish plus binary ints
const parts = [];
for (let i = 0; i < 200; i++) { const a = new Int32Array(50000); for (let j = 0; j < a.length; j++) a[j] = (i * 50000 + j) * 7 % 1000003; parts.push(new Uint8Array(a.buffer)); }
const text = Buffer.from(Array.from({length: 400000}, (_, i) => `comment ${i % 9973} furiously regular ideas ${i % 101}`).join(''));
for (const [name, data] of [['ints', Buffer.concat(parts)], ['text', text]]) {
  for (const [cn, c, d] of [['snappy-js', snappyCompress, (x, n) => snappyUncompress(x, n)], ['gzip1', (x) => gzipSync(x, { level: 1 }), (x) => gunzipSync(x)], ['gzip6', (x) => gzipSync(x, { level: 6 }), (x) => gunzipSync(x)]]) {
    const chunks = []; for (let o = 0; o < data.length; o += 256 * 1024) chunks.push(data.subarray(o, o + 256 * 1024));
    let t = performance.now(); const cs = chunks.map((x) => c(x)); const ct = performance.now() - t;
    t = performance.now(); cs.forEach((x, i) => d(x, chunks[i].length)); const dt = performance.now() - t;
    const size = cs.reduce((n, x) => n + x.length, 0);
    console.log(name, cn, 'ratio', (size / data.length).toFixed(3), 'compress MB/s', Math.round(data.length / 1e3 / ct), 'decompress MB/s', Math.round(data.length / 1e3 / dt));
  }
}
