// CSV parsing compared on one generated file (id bigint, name varchar, price double, day date,
// amount decimal(12,2)): the lake's own reader (typed columns straight into pages), papaparse and
// csv-parse (both measured only when installed, e.g. `npm install --no-save papaparse csv-parse`;
// they give strings per row, so the figures for them include no typing). Prints MB/s, never fails.
//
//   node engine/dist/scripts/bench/csv-parsers.js [--rows 1000000] [--runs 3]

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalFileSystem } from '../../src/connectors/hive/file-system/local-file-system.js';
import { csvFormat } from '../../src/connectors/hive/formats/csv/csv-format.js';
import { DEFAULT_FORMAT_OPTIONS } from '../../src/connectors/hive/metastore/lake-table.js';
import { BIGINT, DATE, DOUBLE, decimal, VARCHAR } from '../../src/types/types.js';
import { median } from './statistics.js';

interface Parser {
  name: string;
  parse: () => Promise<number>;
}

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '3' } } });
const rows = Number(values.rows);
const runs = Number(values.runs);

function csvText(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const day = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const name = i % 10 === 0 ? `"name, ${i}"` : `name ${i}`;
    lines.push(`${i},${name},${(i * 0.37).toFixed(3)},${day},${(i % 100000) / 100}`);
  }
  return `${lines.join('\n')}\n`;
}

async function optional<T>(name: string): Promise<T | undefined> {
  try {
    return (await import(name)) as T;
  } catch {
    console.log(`(${name} not installed: \`npm install --no-save ${name}\` to include it)`);
    return undefined;
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'csv-bench-'));
  try {
    const text = csvText(rows);
    const path = join(dir, 'data.csv');
    writeFileSync(path, text);
    const megabytes = Buffer.byteLength(text) / 1024 / 1024;
    const fs = new LocalFileSystem();
    const file = { location: `file://${path}`, size: Buffer.byteLength(text) };
    const columns = [
      { name: 'id', type: BIGINT },
      { name: 'name', type: VARCHAR },
      { name: 'price', type: DOUBLE },
      { name: 'day', type: DATE },
      { name: 'amount', type: decimal(12, 2) },
    ];
    const read = async (selected: typeof columns): Promise<number> => {
      let count = 0;
      const stats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
      const request = {
        fs,
        file,
        range: { start: 0, length: file.size },
        columns: selected,
        tableColumns: columns,
        options: DEFAULT_FORMAT_OPTIONS,
        stats,
      };
      for await (const page of csvFormat.read(request)) count += page.rowCount;
      return count;
    };
    const parsers: Parser[] = [
      { name: 'lake CSV reader, 5 typed columns (file read included)', parse: () => read(columns) },
      { name: 'lake CSV reader, 2 columns (id, price)', parse: () => read([columns[0], columns[2]]) },
    ];
    const papa = await optional<{ default: { parse(text: string): { data: unknown[] } } }>('papaparse');
    if (papa !== undefined)
      parsers.push({ name: 'papaparse (strings, text in memory)', parse: async () => papa.default.parse(text).data.length });
    const csvParse = await optional<{ parse(text: string): unknown[] }>('csv-parse/sync');
    if (csvParse !== undefined)
      parsers.push({ name: 'csv-parse/sync (strings, text in memory)', parse: async () => csvParse.parse(text).length });
    console.log(`\n${rows} rows, ${megabytes.toFixed(1)} MB, median of ${runs} runs:`);
    for (const parser of parsers) {
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        count = await parser.parse();
        times.push(performance.now() - start);
      }
      const seconds = median(times) / 1000;
      console.log(
        `  ${parser.name.padEnd(58)} ${(megabytes / seconds).toFixed(1).padStart(7)} MB/s  ${(count / seconds / 1e6).toFixed(2)} M rows/s`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
