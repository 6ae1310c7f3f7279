// The 22 TPC-H queries of ../shared/tpch/queries, with the specification's parameters.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** engine/dist/scripts/tpch -> repository root -> ../shared/tpch/queries */
export const TPCH_QUERIES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'shared', 'tpch', 'queries');

export function tpchQuery(n: number): string {
  const file = join(TPCH_QUERIES_DIR, `q${String(n).padStart(2, '0')}.sql`);
  return readFileSync(file, 'utf8').trim().replace(/;\s*$/, '');
}
