// The eight TPC-H tables.

import { NATION } from './nation.js';
import { REGION } from './region.js';
import type { TpchTable } from './table.js';

export const TPCH_TABLES: readonly TpchTable[] = [NATION, REGION];

const byName = new Map(TPCH_TABLES.map((t) => [t.name, t]));

export function tpchTable(name: string): TpchTable | undefined {
  return byName.get(name);
}
