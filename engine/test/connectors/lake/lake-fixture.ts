// A lake catalog on a temporary folder, an in-process engine over it, and DuckDB as the oracle:
// queries read the same files on both sides, values compared after a common text form.

import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { HiveConnector } from '../../../src/connectors/hive/hive-connector.js';
import { openDuckDb, duckRows } from '../../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../../support/engine-harness.js';

export class LakeFixture {
  readonly harness = new EngineHarness();
  readonly connector: HiveConnector;

  private constructor(
    /** The temporary folder: `catalog/` is the metastore's, `data/` holds files tests write. */
    readonly root: string,
  ) {
    this.connector = new HiveConnector('lake', { catalogDir: `file://${join(root, 'catalog')}/`, fileSystem: {} });
    this.harness.catalogs.register('lake', this.connector);
  }

  static create(): LakeFixture {
    return new LakeFixture(mkdtempSync(join(tmpdir(), 'engine-lake-')));
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Writes a file below the root; returns its path. */
  file(relative: string, content: string | Uint8Array): string {
    const path = join(this.root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  }

  path(relative: string): string {
    return join(this.root, relative);
  }

  /** The file:// URI of a folder below the root (with a trailing slash). */
  uri(relative: string): string {
    return `file://${join(this.root, relative)}/`;
  }

  /** Rows with bigints as text, so that they compare with DuckDB's. */
  async rows(sql: string): Promise<unknown[][]> {
    return normalize(await this.harness.rows(sql));
  }

  /**
   * DuckDB writes `select` over `range(3000) r(i)` as one Parquet file in a folder of its own
   * (COPY options `options`), declared as the external table `lake.default.<name>`; its file's path.
   */
  async duckDbTable(name: string, select: string, options: string): Promise<{ path: string; table: string }> {
    const folder = `data/${name}`;
    const path = this.file(`${folder}/a.parquet`, '');
    await duckDbRows(`COPY (SELECT ${select} FROM range(3000) r(i)) TO '${path}' (FORMAT PARQUET, ${options})`);
    const table = `lake.default.${name}`;
    await this.harness.query(`CREATE TABLE ${table} WITH (external_location = '${this.uri(folder)}')`);
    return { path, table };
  }

  async failure(sql: string): Promise<{ name: string; message: string }> {
    const e = await this.harness.failure(sql);
    return { name: e.errorName, message: e.message };
  }
}

/** The Parquet layouts DuckDB writes: its COPY options for each, named. */
export const DUCKDB_PARQUET_LAYOUTS: ReadonlyArray<[label: string, options: string]> = [
  ['data page v1, dictionaries', 'ROW_GROUP_SIZE 1000'],
  // DuckDB writes data pages v1 only; V2 means its v2 encodings (delta, RLE dictionary).
  ['v2 encodings', 'ROW_GROUP_SIZE 1000, PARQUET_VERSION V2'],
  ['no dictionaries, one row group', 'DICTIONARY_SIZE_LIMIT 1'],
];

/** DuckDB writes about 40 MB at `path` in 4 row groups of 10 MB (byte ranges of 16 MiB hold 2, 2 and 0 of them). */
export async function writeFourLargeRowGroups(path: string): Promise<void> {
  const select = 'SELECT i::BIGINT AS id, md5(i::VARCHAR) || md5((i + 7)::VARCHAR) AS label FROM range(1000000) r(i)';
  await duckDbRows(`COPY (${select}) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 250000)`);
}

/** A query over every row of such a file (`from`: our table, or DuckDB's read_parquet of it), its values as text. */
export const ROW_GROUPS_SUMMARY = (from: string): string =>
  `SELECT CAST(count(*) AS varchar), CAST(sum(id) AS varchar), CAST(count(DISTINCT label) AS varchar), min(label), max(label) FROM ${from}`;

/** The sum of a metric (`rowGroupsRead = 3`) over every operator and task an EXPLAIN ANALYZE plan shows. */
export function explainMetricTotal(plan: string, metric: string): number {
  return [...plan.matchAll(new RegExp(`${metric} = (\\d+)`, 'g'))].reduce((sum, m) => sum + Number(m[1]), 0);
}

let duck: DuckDBConnection | undefined;

/** DuckDB's rows for `sql`, bigints as text. */
export async function duckDbRows(sql: string): Promise<unknown[][]> {
  duck ??= await openDuckDb(1);
  return normalize(await duckRows(duck, sql));
}

/**
 * The rows DuckDB reads from a nation table's Parquet files, `columns` in that order: a partitioned
 * table's `regionkey` from its folder names. A table without files has no rows.
 */
export async function duckNationRows(dir: string, partitioned: boolean, columns: string): Promise<unknown[][]> {
  if (dataFiles(dir).length === 0) return [];
  const files = partitioned ? `${dir}/*/*.parquet` : `${dir}/*.parquet`;
  const hive = partitioned ? ", hive_partitioning = true, hive_types = {'regionkey': BIGINT}" : '';
  return duckDbRows(`SELECT ${columns} FROM read_parquet('${files}'${hive}) ORDER BY ALL`);
}

function normalize(rows: readonly (readonly unknown[])[]): unknown[][] {
  return rows.map((row) => row.map((v) => (typeof v === 'bigint' ? v.toString() : v)));
}

/** A configuration file serving tpch and a lake catalog on `catalogDir`, with more lake properties (YAML lines). */
export function lakeConfigFile(dir: string, catalogDir: string, extra = ''): string {
  const file = join(dir, 'engine.yaml');
  writeFileSync(
    file,
    `catalogs:\n  - name: tpch\n    connector: tpch\n  - name: lake\n    connector: hive\n    properties:\n      hive.metastore: file\n      hive.metastore.catalog.dir: file://${catalogDir}/\n${extra}`,
  );
  return file;
}

/** The data files below `dir` (relative paths), hidden folders (the commit log) left out. */
export function dataFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name.startsWith('.')) continue;
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (statSync(path).size > 0) files.push(relative(dir, path));
    }
  };
  walk(dir);
  return files.sort();
}
