// region: the 5 regions of dists.dss in file order.

import { BIGINT, sequenceColumn, varchar, varcharColumn } from './column-values.js';
import { REGIONS } from './distributions.js';
import { TextLength, drawTextColumn } from './draws.js';
import { defineTable } from './table.js';
import { textPool } from './text-pool.js';

const COMMENT_SEED = 1500869201;
const COMMENT_LENGTH = new TextLength(72);

interface RegionRows {
  start: number;
  rowCount: number;
}

export const REGION = defineTable<RegionRows>({
  name: 'region',
  unitCount: () => REGIONS.size,
  range: (_scale, start, end) => ({ start, rowCount: end - start }),
  columns: [
    { name: 'r_regionkey', type: BIGINT, generate: (r) => sequenceColumn(r.start, r.rowCount) },
    { name: 'r_name', type: varchar(25), generate: (r) => varcharColumn(varchar(25), REGIONS.values.slice(r.start, r.start + r.rowCount)) },
    {
      name: 'r_comment',
      type: varchar(152),
      generate: (r) => drawTextColumn(varchar(152), COMMENT_SEED, r.start, r.rowCount, COMMENT_LENGTH, textPool()),
    },
  ],
});
