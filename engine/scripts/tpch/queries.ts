// The 22 TPC-H queries of ../shared/tpch/queries, with the specification's parameters.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedPath } from '../shared-dir.js';

export const TPCH_QUERIES_DIR = sharedPath('tpch', 'queries');

export function tpchQuery(n: number): string {
  const file = join(TPCH_QUERIES_DIR, `q${String(n).padStart(2, '0')}.sql`);
  return readFileSync(file, 'utf8').trim().replace(/;\s*$/, '');
}
