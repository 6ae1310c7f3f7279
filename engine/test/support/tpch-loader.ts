// Loads the TPC-H reference rows at sf0.01 (../shared/tpch/dbgen-sf0.01) into memory tables.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { columnFromScalars, type Scalar } from '../../src/exec/page.js';
import { parseTypeSpec } from '../../src/types/coercion.js';
import { parseDecimal, rescale } from '../../src/types/decimal.js';
import { parseDate } from '../../src/types/datetime.js';
import type { SqlType } from '../../src/types/types.js';
import type { EngineHarness } from './engine-harness.js';
import { TPCH_TABLES } from './tpch-schema.js';

const here = dirname(fileURLToPath(import.meta.url));
/** engine/dist/test/support -> repository root -> ../shared */
export const TPCH_DATA_DIR = resolve(here, '..', '..', '..', '..', '..', 'shared', 'tpch', 'dbgen-sf0.01');

export async function loadTpchTables(engine: EngineHarness, schema = 'default'): Promise<void> {
  const connector = engine.catalogs.get('memory')!;
  for (const [table, columns] of Object.entries(TPCH_TABLES)) {
    await engine.query(`CREATE TABLE memory.${schema}.${table} (${columns.map(([n, t]) => `${n} ${t}`).join(', ')})`);
    const types = columns.map(([, t]) => typeOf(t));
    const lines = readFileSync(join(TPCH_DATA_DIR, `${table}.tbl`), 'utf8').split('\n').filter((l) => l.length > 0);
    const values: Scalar[][] = types.map(() => []);
    for (const line of lines) {
      const fields = line.split('|');
      types.forEach((t, i) => values[i].push(parseField(fields[i], t)));
    }
    const page = { rowCount: lines.length, columns: types.map((t, i) => columnFromScalars(t, values[i])) };
    connector.insert!(engine.session, schema, table, [page]);
  }
}

function typeOf(spec: string): SqlType {
  const m = /^(\w+)(?:\((\d+)(?:,(\d+))?\))?$/.exec(spec)!;
  return parseTypeSpec(m[1], [m[2], m[3]].filter((x) => x !== undefined).map(Number));
}

function parseField(text: string, type: SqlType): Scalar {
  switch (type.kind) {
    case 'bigint':
      return BigInt(text);
    case 'integer':
      return Number(text);
    case 'decimal': {
      const d = parseDecimal(text)!;
      return rescale(d.unscaled, d.scale, type.scale);
    }
    case 'date':
      return parseDate(text)!;
    default:
      return text;
  }
}
