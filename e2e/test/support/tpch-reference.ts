// Answers of a few TPC-H queries on scale factor 0.01, computed here from the reference generator's
// own rows (../shared/tpch/dbgen-sf0.01/*.tbl): an oracle that shares no code with the engine. Decimals
// are exact (integers of hundredths), written as the engine writes them.
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../../src/kubelet/images.js";

const shared = path.resolve(repoRoot, "..", "shared", "tpch");

function rows(table: string): string[][] {
  return fs
    .readFileSync(path.join(shared, "dbgen-sf0.01", `${table}.tbl`), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.split("|"));
}

/** "24710.35" -> 2471035n (hundredths). */
function cents(text: string): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(2, "0").slice(0, 2));
}

function decimalText(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

export function tpchQueryText(n: number): string {
  return fs.readFileSync(path.join(shared, "queries", `q${String(n).padStart(2, "0")}.sql`), "utf8");
}

export interface ReferenceQuery {
  name: string;
  sql: string;
  expected: unknown[][];
}

/** Q4 (orders with a late line, by priority), Q6 (forecast revenue) and a count and sum by flags. */
export function referenceQueries(): ReferenceQuery[] {
  const lineitem = rows("lineitem");
  const orders = rows("orders");

  const late = new Set(lineitem.filter((l) => l[11] < l[12]).map((l) => l[0]));
  const byPriority = new Map<string, number>();
  for (const o of orders) if (o[4] >= "1993-07-01" && o[4] < "1993-10-01" && late.has(o[0])) byPriority.set(o[5], (byPriority.get(o[5]) ?? 0) + 1);
  const q4 = [...byPriority].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, n]) => [p, n]);

  let revenue = 0n;
  for (const l of lineitem) {
    const discount = cents(l[6]);
    if (l[10] >= "1994-01-01" && l[10] < "1995-01-01" && discount >= 5n && discount <= 7n && cents(l[4]) < 2400n) revenue += cents(l[5]) * discount;
  }

  const groups = new Map<string, { count: number; quantity: bigint }>();
  for (const l of lineitem) {
    const key = `${l[8]}|${l[9]}`;
    const g = groups.get(key) ?? { count: 0, quantity: 0n };
    g.count++;
    g.quantity += cents(l[4]);
    groups.set(key, g);
  }
  const flags = [...groups].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, g]) => [...key.split("|"), g.count, decimalText(g.quantity, 2)]);

  return [
    { name: "q04", sql: tpchQueryText(4), expected: q4 },
    { name: "q06", sql: tpchQueryText(6), expected: [[decimalText(revenue, 4)]] },
    {
      name: "flags",
      sql: "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity) FROM lineitem GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus",
      expected: flags,
    },
  ];
}
