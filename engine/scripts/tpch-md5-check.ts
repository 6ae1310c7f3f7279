// Checks the tpch connector against the reference generator at larger scale factors without the
// reference files: renders every table in dbgen's .tbl layout and compares the md5 of the whole
// rendering (and the row count) with the fingerprints of dbgen 2.14's output given in
// ../shared/tpch/README.md.
//
//   node engine/dist/scripts/tpch-md5-check.js [sf0.1] [sf1]      (default: both)
// Exits 1 when any table differs.

import { createHash } from 'node:crypto';
import { formatTblRows } from '../src/connectors/tpch/tbl-format.js';
import { TPCH_TABLES } from '../src/connectors/tpch/tables.js';
import { TpchConnector } from '../src/connectors/tpch/tpch-connector.js';
import { TOOL_SESSION } from './tpch/tbl-export.js';

/** md5 and row count of dbgen's .tbl files, per schema and table. */
const FINGERPRINTS: Record<string, Record<string, [string, number]>> = {
  'sf0.1': {
    nation: ['2f588e0b7fa72939b498c2abecd9fbbe', 25],
    region: ['c235841b00d29ad4f817771fcc851207', 5],
    part: ['3f5dc86fbedff28bf1a88bea8341aa6f', 20000],
    supplier: ['85f567a75bd806f3ccff89341866ab1c', 1000],
    partsupp: ['e3bd40ee500c9cc88fd14a4dc904c09e', 80000],
    customer: ['8f279b30fee7203e32886be01efd823b', 15000],
    orders: ['2520d48234df183e47c57027a52007ee', 150000],
    lineitem: ['dec17abbc566d431f5808c5c9f81b8a5', 600572],
  },
  sf1: {
    nation: ['2f588e0b7fa72939b498c2abecd9fbbe', 25],
    region: ['c235841b00d29ad4f817771fcc851207', 5],
    part: ['b7ca9b82dc3d9c6543a96faac588a281', 200000],
    supplier: ['565f8733ecdb2faf654a3efe0a422957', 10000],
    partsupp: ['1b531d9b3963dd72c920179b31135e84', 800000],
    customer: ['b662b705bc3ac183c1942367cf522e42', 150000],
    orders: ['62264a9feaa3a3fd59805910dfe18a30', 1500000],
    lineitem: ['e6368ad3f339bf1d4a3b8a1beba23870', 6001215],
  },
};

const session = TOOL_SESSION;

async function tableFingerprint(connector: TpchConnector, schema: string, name: string): Promise<[string, number]> {
  const metadata = await connector.getTable(session, schema, name);
  if (metadata === undefined) throw new Error(`tpch.${schema}.${name} is missing`);
  const columns = metadata.columns.map((c) => c.name);
  const hash = createHash('md5');
  let rows = 0;
  for await (const split of connector.getSplits(session, metadata)) {
    for await (const page of connector.createPageSource(session, split, columns)) {
      hash.update(formatTblRows(page, columns), 'latin1');
      rows += page.rowCount;
    }
  }
  return [hash.digest('hex'), rows];
}

async function main(): Promise<void> {
  const schemas = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(FINGERPRINTS);
  const connector = new TpchConnector();
  let failures = 0;
  for (const schema of schemas) {
    const expected = FINGERPRINTS[schema];
    if (expected === undefined) throw new Error(`no fingerprints for ${schema}; known: ${Object.keys(FINGERPRINTS).join(', ')}`);
    for (const { name } of TPCH_TABLES) {
      const started = performance.now();
      const [md5, rows] = await tableFingerprint(connector, schema, name);
      const [expectedMd5, expectedRows] = expected[name];
      const ok = md5 === expectedMd5 && rows === expectedRows;
      if (!ok) failures++;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `${schema.padEnd(6)} ${name.padEnd(9)} ${String(rows).padStart(8)} rows  ${md5}  ${ok ? 'MATCH' : `DIFFERS (expected ${expectedMd5}, ${expectedRows} rows)`}  ${seconds}s`,
      );
    }
  }
  console.log(failures === 0 ? 'all tables match dbgen' : `${failures} table(s) differ from dbgen`);
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();
