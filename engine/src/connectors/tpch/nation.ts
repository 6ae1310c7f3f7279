// nation: the 25 nations of dists.dss in file order; the region key is the running sum of the
// list's weights.

import { BIGINT, int64Column, sequenceColumn, varchar, varcharColumn } from './column-values.js';
import { NATIONS } from './distributions.js';
import { TextLength, drawTextColumn } from './draws.js';
import { defineTable } from './table.js';
import { textPool } from './text-pool.js';

const COMMENT_SEED = 606179079;
const COMMENT_LENGTH = new TextLength(72);

interface NationRows {
  start: number;
  rowCount: number;
}

export const NATION = defineTable<NationRows>({
  name: 'nation',
  unitCount: () => NATIONS.size,
  range: (_scale, start, end) => ({ start, rowCount: end - start }),
  columns: [
    { name: 'n_nationkey', type: BIGINT, generate: (r) => sequenceColumn(r.start, r.rowCount) },
    { name: 'n_name', type: varchar(25), generate: (r) => varcharColumn(varchar(25), NATIONS.values.slice(r.start, r.start + r.rowCount)) },
    {
      name: 'n_regionkey',
      type: BIGINT,
      generate: (r) => int64Column(BIGINT, NATIONS.runningWeights.slice(r.start, r.start + r.rowCount)),
    },
    {
      name: 'n_comment',
      type: varchar(152),
      generate: (r) => drawTextColumn(varchar(152), COMMENT_SEED, r.start, r.rowCount, COMMENT_LENGTH, textPool()),
    },
  ],
});
