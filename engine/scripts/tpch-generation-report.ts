// How fast the tpch connector generates data, single-threaded: the text pool build, rows per
// second for each table (all columns, read through the connector's splits and page sources), the
// time for all of a scale factor, and a few column subsets (what a query over them pays).
//
//   node engine/dist/scripts/tpch-generation-report.js [schema]     (default: sf1)
// CPU time is reported beside wall time: on a shared machine it is the steadier figure.

import { TPCH_TABLES } from '../src/connectors/tpch/tables.js';
import { textPool } from '../src/connectors/tpch/text-pool.js';
import { TpchConnector } from '../src/connectors/tpch/tpch-connector.js';
import { TOOL_SESSION } from './tpch/tbl-export.js';

const session = TOOL_SESSION;

const COLUMN_SUBSETS: [string, string[]][] = [
  ['lineitem', ['l_quantity']],
  ['lineitem', ['l_orderkey', 'l_extendedprice', 'l_discount', 'l_shipdate']],
  ['lineitem', ['l_comment']],
  ['orders', ['o_orderkey', 'o_custkey', 'o_orderdate']],
  ['orders', ['o_totalprice']],
];

interface Timing {
  rows: number;
  wallSeconds: number;
  cpuSeconds: number;
}

async function timed(run: () => Promise<number>): Promise<Timing> {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  const rows = await run();
  const cpu = process.cpuUsage(cpuStart);
  return { rows, wallSeconds: (performance.now() - wallStart) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

async function scan(connector: TpchConnector, schema: string, table: string, columns?: string[]): Promise<number> {
  const metadata = await connector.getTable(session, schema, table);
  if (metadata === undefined) throw new Error(`tpch.${schema}.${table} is missing`);
  const names = columns ?? metadata.columns.map((c) => c.name);
  let rows = 0;
  for await (const split of connector.getSplits(session, metadata)) {
    for await (const page of connector.createPageSource(session, split, names)) rows += page.rowCount;
  }
  return rows;
}

function line(label: string, t: Timing): string {
  const rate = t.rows / t.wallSeconds;
  return `${label.padEnd(58)} ${String(t.rows).padStart(9)} rows  ${t.wallSeconds.toFixed(2).padStart(6)} s wall  ${t.cpuSeconds.toFixed(2).padStart(6)} s cpu  ${Math.round(rate).toLocaleString('en-US').padStart(11)} rows/s`;
}

async function main(): Promise<void> {
  const schema = process.argv[2] ?? 'sf1';
  const connector = new TpchConnector();
  console.log(`tpch generation, schema ${schema}, single-threaded (node ${process.version})`);

  const pool = await timed(async () => textPool().size);
  console.log(
    `text pool (${pool.rows} bytes, built once per process)`.padEnd(58),
    `${pool.wallSeconds.toFixed(2).padStart(24)} s wall  ${pool.cpuSeconds.toFixed(2).padStart(6)} s cpu`,
  );

  let total: Timing = { rows: 0, wallSeconds: pool.wallSeconds, cpuSeconds: pool.cpuSeconds };
  for (const { name } of TPCH_TABLES) {
    const t = await timed(() => scan(connector, schema, name));
    console.log(line(`${name} (all columns)`, t));
    total = { rows: total.rows + t.rows, wallSeconds: total.wallSeconds + t.wallSeconds, cpuSeconds: total.cpuSeconds + t.cpuSeconds };
  }
  console.log(line(`all of ${schema}, text pool included`, total));

  for (const [table, columns] of COLUMN_SUBSETS) {
    console.log(line(`${table} (${columns.join(', ')})`, await timed(() => scan(connector, schema, table, columns))));
  }
}

await main();
