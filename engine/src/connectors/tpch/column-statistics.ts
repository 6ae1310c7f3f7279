// Per column statistics of the generated tables at a scale factor, as Trino's tpch connector gives
// them (there from files computed over the data; here from how dbgen draws each column): no column
// holds NULLs, and the distinct counts are exact where the values are keys or fixed lists (nations,
// flags, priorities), and otherwise the expected count of distinct values of n uniform draws from
// the column's d possible values, d (1 - (1 - 1/d)^n) (dates from their ranges, prices and
// quantities from theirs). Free texts (names, addresses, comments) count as distinct per row: an
// upper bound, and no TPC-H query groups or joins on them.

import type { ColumnStatistics } from '../../spi/connector.js';
import { expectedDistinct } from '../distinct-draws.js';
import { ORDER_DATE_DAYS, RECEIPT_DAYS_MAX, SHIP_DAYS_MAX } from './order-lines.js';
import { partRetailPrice } from './part.js';
import type { Scale } from './scale.js';

/** Account balances are drawn in cents from -999.99 to 9999.99. */
const ACCOUNT_BALANCES = 1_099_999;
/** Supply costs in cents from 1.00 to 1000.00. */
const SUPPLY_COSTS = 99_901;
const ORDER_DATES = ORDER_DATE_DAYS + 1;
const SHIP_DATES = ORDER_DATES + SHIP_DAYS_MAX - 1;
/** Commit dates are 30..90 days after the order. */
const COMMIT_DATES = ORDER_DATES + 60;
const RECEIPT_DATES = SHIP_DATES + RECEIPT_DAYS_MAX - 1;
const QUANTITIES = 50;

/** Distinct counts by column for the table at this scale (the table's `rows`), or undefined for an unknown table. */
function distinctCounts(table: string, scale: Scale, rows: number): Record<string, number> | undefined {
  const { parts, suppliers, customers, orders } = scale;
  const draws = (values: number) => expectedDistinct(rows, values);
  switch (table) {
    case 'region':
      return { r_regionkey: rows, r_name: rows, r_comment: rows };
    case 'nation':
      return { n_nationkey: rows, n_name: rows, n_regionkey: 5, n_comment: rows };
    case 'supplier':
      return {
        s_suppkey: rows,
        s_name: rows,
        s_address: rows,
        s_nationkey: draws(25),
        s_phone: rows,
        s_acctbal: draws(ACCOUNT_BALANCES),
        s_comment: rows,
      };
    case 'customer':
      return {
        c_custkey: rows,
        c_name: rows,
        c_address: rows,
        c_nationkey: draws(25),
        c_phone: rows,
        c_acctbal: draws(ACCOUNT_BALANCES),
        c_mktsegment: draws(5),
        c_comment: rows,
      };
    case 'part':
      return {
        p_partkey: rows,
        p_name: rows,
        p_mfgr: draws(5),
        p_brand: draws(25),
        p_type: draws(150),
        p_size: draws(50),
        p_container: draws(40),
        p_retailprice: retailPrices(parts),
        p_comment: rows,
      };
    case 'partsupp':
      return {
        ps_partkey: parts,
        ps_suppkey: suppliers,
        ps_availqty: draws(9999),
        ps_supplycost: draws(SUPPLY_COSTS),
        ps_comment: rows,
      };
    case 'orders':
      return {
        o_orderkey: rows,
        // Every third customer places no orders.
        o_custkey: draws(customers - Math.floor(customers / 3)),
        o_orderstatus: draws(3),
        o_totalprice: rows,
        o_orderdate: draws(ORDER_DATES),
        o_orderpriority: draws(5),
        o_clerk: draws(scale.clerks),
        o_shippriority: 1,
        o_comment: rows,
      };
    case 'lineitem':
      return {
        l_orderkey: orders,
        l_partkey: draws(parts),
        l_suppkey: draws(suppliers),
        l_linenumber: Math.min(7, rows),
        l_quantity: draws(QUANTITIES),
        l_extendedprice: draws(QUANTITIES * retailPrices(parts)),
        l_discount: draws(11),
        l_tax: draws(9),
        l_returnflag: draws(3),
        l_linestatus: draws(2),
        l_shipdate: draws(SHIP_DATES),
        l_commitdate: draws(COMMIT_DATES),
        l_receiptdate: draws(RECEIPT_DATES),
        l_shipinstruct: draws(4),
        l_shipmode: draws(7),
        l_comment: rows,
      };
    default:
      return undefined;
  }
}

/** The column statistics of the table at this scale, by standard column name. */
export function tpchColumnStatistics(table: string, scale: Scale, rows: number): Record<string, ColumnStatistics> {
  const counts = distinctCounts(table, scale, rows) ?? {};
  return Object.fromEntries(Object.entries(counts).map(([column, count]) => [column, { nullsFraction: 0, distinctValuesCount: count }]));
}

const retailPriceCounts = new Map<number, number>();

/** The greatest p_retailprice in cents: 90000 + 20000 + 999 * 100. */
const MAX_RETAIL_PRICE = 209_900;
/** p_retailprice repeats with this period of keys (lcm(10 * 20001, 1000)): past it every price has occurred. */
const RETAIL_PRICE_PERIOD = 20_001_000;

/** p_retailprice is a function of p_partkey: its distinct values over the keys 1..parts, counted once per part count. */
function retailPrices(parts: number): number {
  let count = retailPriceCounts.get(parts);
  if (count === undefined) {
    const seen = new Uint8Array(MAX_RETAIL_PRICE + 1);
    count = 0;
    for (let key = 1; key <= Math.min(parts, RETAIL_PRICE_PERIOD); key++) {
      const price = partRetailPrice(key);
      if (seen[price] === 0) {
        seen[price] = 1;
        count++;
      }
    }
    retailPriceCounts.set(parts, count);
  }
  return count;
}
