// partsupp: four rows per part, one for each of the part's suppliers. Its streams own four values
// (comments eight) per part, exactly what the four rows draw, so they run on without skips.

import { BIGINT, INTEGER, MONEY, Int64Values, int32Column, int64Column, varchar } from './column-values.js';
import { TextLength, drawInts, drawTextColumn } from './draws.js';
import type { Scale } from './scale.js';
import { defineTable } from './table.js';
import { textPool } from './text-pool.js';

export const SUPPLIERS_PER_PART = 4;
const AVAILABLE_QUANTITY_SEED = 1671059989;
const SUPPLY_COST_SEED = 1051288424;
const COMMENT_SEED = 1961692154;
const COMMENT_LENGTH = new TextLength(124);

const COMMENT = varchar(199);

/** The key of supplier `n` (0..3) of a part: spread so that each supplier serves parts evenly. */
export function partSupplierKey(partKey: number, n: number, suppliers: number): number {
  return ((partKey + n * (Math.floor(suppliers / SUPPLIERS_PER_PART) + Math.floor((partKey - 1) / suppliers))) % suppliers) + 1;
}

class PartSuppRows {
  /** The first partsupp row. */
  readonly firstRow: number;
  readonly rowCount: number;

  constructor(
    readonly scale: Scale,
    /** The first part (0-based). */
    readonly start: number,
    end: number,
  ) {
    this.firstRow = start * SUPPLIERS_PER_PART;
    this.rowCount = (end - start) * SUPPLIERS_PER_PART;
  }
}

function partKeys(r: PartSuppRows): Int64Values {
  const out = new Int64Values(r.rowCount);
  for (let i = 0; i < r.rowCount; i++) out.set(i, r.start + 1 + Math.floor(i / SUPPLIERS_PER_PART));
  return out;
}

function supplierKeys(r: PartSuppRows): Int64Values {
  const out = new Int64Values(r.rowCount);
  const suppliers = r.scale.suppliers;
  for (let i = 0; i < r.rowCount; i++) {
    out.set(i, partSupplierKey(r.start + 1 + Math.floor(i / SUPPLIERS_PER_PART), i % SUPPLIERS_PER_PART, suppliers));
  }
  return out;
}

export const PARTSUPP = defineTable<PartSuppRows>({
  name: 'partsupp',
  maxRowsPerUnit: SUPPLIERS_PER_PART,
  unitCount: (scale) => scale.parts,
  range: (scale, start, end) => new PartSuppRows(scale, start, end),
  columns: [
    { name: 'ps_partkey', type: BIGINT, generate: (r) => partKeys(r).column(BIGINT) },
    { name: 'ps_suppkey', type: BIGINT, generate: (r) => supplierKeys(r).column(BIGINT) },
    {
      name: 'ps_availqty',
      type: INTEGER,
      generate: (r) => int32Column(INTEGER, drawInts(AVAILABLE_QUANTITY_SEED, 1, r.firstRow, r.rowCount, 1, 9999)),
    },
    {
      name: 'ps_supplycost',
      type: MONEY,
      generate: (r) => int64Column(MONEY, drawInts(SUPPLY_COST_SEED, 1, r.firstRow, r.rowCount, 100, 100000)),
    },
    {
      name: 'ps_comment',
      type: COMMENT,
      generate: (r) => drawTextColumn(COMMENT, COMMENT_SEED, r.firstRow, r.rowCount, COMMENT_LENGTH, textPool()),
    },
  ],
});
