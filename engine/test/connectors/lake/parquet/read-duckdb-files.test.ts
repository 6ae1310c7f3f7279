// Files DuckDB writes (every type we map, NULLs, several row groups, dictionary and plain
// encodings, data pages v1 and v2, every codec DuckDB offers) read by our Parquet format equal
// DuckDB's own reading of them, value for value; inferColumns gives the documented types.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ParquetFormat } from '../../../../src/connectors/hive/formats/parquet/parquet-format.js';
import { typeName } from '../../../../src/types/types.js';
import { ALL_TYPES_COLUMNS, createAllTypesTable } from './duckdb-files.js';
import { FORMAT_OPTIONS, TempDir, openDuck, readWithDuck, readWithFormat } from './parquet-test-support.js';
import { TestFileSystem } from './test-file-system.js';

const ROWS = 10_000;

describe('Parquet files written by DuckDB read as DuckDB reads them', function () {
  this.timeout(120_000);
  let duck: DuckDBConnection;
  let dir: TempDir;

  before(async () => {
    duck = await openDuck();
    dir = new TempDir();
    await createAllTypesTable(duck, 't', ROWS);
  });
  after(() => dir.dispose());

  it('inferColumns maps every DuckDB type onto ours', async () => {
    const file = dir.file('types.parquet');
    await duck.run(`COPY t TO '${file.path}' (FORMAT PARQUET)`);
    const fs = new TestFileSystem();
    const columns = await new ParquetFormat().inferColumns(fs, (await fs.stat(file.location))!, FORMAT_OPTIONS);
    expect(columns.map((c) => `${c.name} ${typeName(c.type)}`)).to.deep.equal(
      ALL_TYPES_COLUMNS.map((c) => `${c.name} ${typeName(c.type)}`),
    );
  });

  const variants: [string, string][] = [
    ['snappy (DuckDB default), dictionary and plain pages', 'COMPRESSION snappy'],
    ['gzip', 'COMPRESSION gzip'],
    ['zstd', 'COMPRESSION zstd'],
    ['uncompressed', 'COMPRESSION uncompressed'],
    ['lz4 (LZ4_RAW)', 'COMPRESSION lz4'],
    ['brotli', 'COMPRESSION brotli'],
    ['plain encoding only (no dictionaries)', 'COMPRESSION snappy, DICTIONARY_SIZE_LIMIT 1'],
    ['format version 2 (data pages v2, delta and byte-stream-split encodings)', 'COMPRESSION zstd, PARQUET_VERSION V2'],
  ];
  for (const [name, options] of variants) {
    it(`${name}: every value equals DuckDB's`, async () => {
      const file = dir.file(`t-${name.replace(/\W+/g, '-')}.parquet`);
      await duck.run(`COPY t TO '${file.path}' (FORMAT PARQUET, ROW_GROUP_SIZE 2048, ${options})`);
      const theirs = await readWithDuck(duck, file.path, ALL_TYPES_COLUMNS);
      const ours = await readWithFormat(file.location, ALL_TYPES_COLUMNS);
      expect(ours.rows.length).to.equal(ROWS);
      expect(ours.stats.rowGroupsRead).to.be.greaterThan(1);
      for (let r = 0; r < ROWS; r++) {
        for (let c = 0; c < ALL_TYPES_COLUMNS.length; c++) {
          if (ours.rows[r][c] !== theirs[r][c])
            expect.fail(`row ${r} column ${ALL_TYPES_COLUMNS[c].name}: ours ${ours.rows[r][c]}, DuckDB ${theirs[r][c]}`);
        }
      }
    });
  }
});
