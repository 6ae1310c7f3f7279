// Answers of a few TPC-H queries on scale factor 0.01, computed here from the reference generator's
// own rows (../shared/tpch/dbgen-sf0.01/*.tbl): an oracle that shares no code with the engine. Decimals
// are exact (integers of hundredths), written as the engine writes them.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../src/kubelet/images.js';

const shared = path.resolve(repoRoot, '..', 'shared', 'tpch');

/** The reference generator's rows of a table, each as its fields' text. */
export function tblRows(table: string): string[][] {
  return fs
    .readFileSync(path.join(shared, 'dbgen-sf0.01', `${table}.tbl`), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('|'));
}

/** "24710.35" -> 2471035n (hundredths). */
function cents(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(2, '0').slice(0, 2));
}

function decimalText(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

export function tpchQueryText(n: number): string {
  return fs.readFileSync(path.join(shared, 'queries', `q${String(n).padStart(2, '0')}.sql`), 'utf8');
}

export interface ReferenceQuery {
  name: string;
  sql: string;
  expected: unknown[][];
}

/** Q4 (orders with a late line, by priority), Q6 (forecast revenue) and a count and sum by flags. */
export function referenceQueries(): ReferenceQuery[] {
  const lineitem = tblRows('lineitem');
  const orders = tblRows('orders');

  const late = new Set(lineitem.filter((l) => l[11] < l[12]).map((l) => l[0]));
  const byPriority = new Map<string, number>();
  for (const o of orders)
    if (o[4] >= '1993-07-01' && o[4] < '1993-10-01' && late.has(o[0])) byPriority.set(o[5], (byPriority.get(o[5]) ?? 0) + 1);
  const q4 = [...byPriority].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, n]) => [p, n]);

  let revenue = 0n;
  for (const l of lineitem) {
    const discount = cents(l[6]);
    if (l[10] >= '1994-01-01' && l[10] < '1995-01-01' && discount >= 5n && discount <= 7n && cents(l[4]) < 2400n)
      revenue += cents(l[5]) * discount;
  }

  const groups = new Map<string, { count: number; quantity: bigint }>();
  for (const l of lineitem) {
    const key = `${l[8]}|${l[9]}`;
    const g = groups.get(key) ?? { count: 0, quantity: 0n };
    g.count++;
    g.quantity += cents(l[4]);
    groups.set(key, g);
  }
  const flags = [...groups]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, g]) => [...key.split('|'), g.count, decimalText(g.quantity, 2)]);

  return [
    { name: 'q04', sql: tpchQueryText(4), expected: q4 },
    { name: 'q06', sql: tpchQueryText(6), expected: [[decimalText(revenue, 4)]] },
    {
      name: 'flags',
      sql: 'SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity) FROM lineitem GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus',
      expected: flags,
    },
  ];
}

/**
 * Queries over a copy of tiny's lineitem (`lineitem`, a lake table made by CREATE TABLE AS say) and
 * of nation (`nation`, in PostgreSQL say): totals by return flag, and lines by their supplier's
 * nation (the copy joined with tpch's supplier and the nation copy).
 */
export function lineitemCopyQueries(lineitem: string, nation: string): ReferenceQuery[] {
  const lines = tblRows('lineitem');
  const totals = new Map<string, { count: number; quantity: bigint; price: bigint }>();
  for (const l of lines) {
    const t = totals.get(l[8]) ?? { count: 0, quantity: 0n, price: 0n };
    t.count++;
    t.quantity += cents(l[4]);
    t.price += cents(l[5]);
    totals.set(l[8], t);
  }
  const nationOfSupplier = new Map(tblRows('supplier').map((s) => [s[0], s[3]]));
  const nationName = new Map(tblRows('nation').map((n) => [n[0], n[1]]));
  const byNation = new Map<string, number>();
  for (const l of lines) {
    const name = nationName.get(nationOfSupplier.get(l[2])!)!;
    byNation.set(name, (byNation.get(name) ?? 0) + 1);
  }
  const sorted = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
  return [
    {
      name: 'lake totals',
      sql: `SELECT l_returnflag, count(*), sum(l_quantity), sum(l_extendedprice) FROM ${lineitem} GROUP BY l_returnflag ORDER BY l_returnflag`,
      expected: sorted(totals).map(([flag, t]) => [flag, t.count, decimalText(t.quantity, 2), decimalText(t.price, 2)]),
    },
    {
      name: 'lake lines by nation',
      sql: `SELECT n.n_name, count(*) FROM ${lineitem} l JOIN tpch.tiny.supplier s ON l.l_suppkey = s.s_suppkey JOIN ${nation} n ON s.s_nationkey = n.n_nationkey GROUP BY n.n_name ORDER BY n.n_name`,
      expected: sorted(byNation).map(([name, count]) => [name, count]),
    },
  ];
}
