// The eight TPC-H tables.

import { CUSTOMER } from './customer.js';
import { LINEITEM } from './lineitem.js';
import { NATION } from './nation.js';
import { ORDERS } from './orders.js';
import { PART } from './part.js';
import { PARTSUPP } from './partsupp.js';
import { REGION } from './region.js';
import { SUPPLIER } from './supplier.js';
import type { TpchTable } from './table.js';

export const TPCH_TABLES: readonly TpchTable[] = [NATION, REGION, PART, SUPPLIER, PARTSUPP, CUSTOMER, ORDERS, LINEITEM];

const byName = new Map(TPCH_TABLES.map((t) => [t.name, t]));

export function tpchTable(name: string): TpchTable | undefined {
  return byName.get(name);
}
