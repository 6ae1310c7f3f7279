// Table statistics from Parquet footers: row count, NULL counts and min/max per column equal what
// DuckDB computes from the rows.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { readParquetStatistics } from '../../../../src/connectors/hive/formats/parquet/file-statistics.js';
import { ALL_TYPES_COLUMNS, createAllTypesTable } from './duckdb-files.js';
import { TempDir, canonical, duckExpression, openDuck } from './parquet-test-support.js';
import { TestFileSystem } from './test-file-system.js';

describe('Parquet file statistics', function () {
  this.timeout(60_000);
  let duck: DuckDBConnection;
  let dir: TempDir;

  before(async () => {
    duck = await openDuck();
    dir = new TempDir();
    await createAllTypesTable(duck, 't', 20_000);
  });
  after(() => dir.dispose());

  it("row count, NULL counts, min and max of a DuckDB file's columns equal DuckDB's aggregates", async () => {
    const file = dir.file('stats.parquet');
    await duck.run(`COPY t TO '${file.path}' (FORMAT PARQUET, ROW_GROUP_SIZE 4096)`);
    const fs = new TestFileSystem();
    const stats = await readParquetStatistics(fs, (await fs.stat(file.location))!);
    expect(stats.rowCount).to.equal(20_000);
    for (const name of ['id', 'b', 'ti', 'i32', 'bi', 'dec4', 'dec18', 'dec38', 'v', 'vlow', 'dt', 'ts', 'tsms']) {
      const column = ALL_TYPES_COLUMNS.find((c) => c.name === name)!;
      const expression = duckExpression(name, column.type).replaceAll(`"${name}"`, 'x');
      const row = (
        await duck.runAndReadAll(
          `SELECT count(*) - count(${name}), (SELECT ${expression} FROM (SELECT min(${name}) AS x FROM t)), (SELECT ${expression} FROM (SELECT max(${name}) AS x FROM t)) FROM t`,
        )
      ).getRows()[0];
      const ours = stats.columns.get(name)!;
      expect([ours.nullCount, canonical(column.type, ours.min), canonical(column.type, ours.max)], name).to.deep.equal([
        Number(row[0]),
        String(row[1]),
        String(row[2]),
      ]);
    }
  });
});
