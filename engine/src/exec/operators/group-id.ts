// GROUPING SETS / ROLLUP / CUBE: each input page goes out once per grouping set, with the grouping
// channels outside that set replaced by NULL and a trailing bigint column holding the set's index.

import { constantColumn, type Column } from '../../columnar/page.js';
import { BIGINT, type SqlType } from '../../types/types.js';
import type { PageStream } from './operator.js';

export async function* groupId(
  input: PageStream,
  types: readonly SqlType[],
  groupingSets: readonly number[][],
  groupChannels: readonly number[],
): PageStream {
  const nulledPerSet = groupingSets.map((set) => new Set(groupChannels.filter((c) => !set.includes(c))));
  for await (const page of input) {
    const n = page.rowCount;
    if (n === 0) continue;
    for (let s = 0; s < groupingSets.length; s++) {
      const nulled = nulledPerSet[s];
      const columns: Column[] = page.columns.map((c, channel) => (nulled.has(channel) ? constantColumn(types[channel], null, n) : c));
      columns.push(constantColumn(BIGINT, BigInt(s), n));
      yield { rowCount: n, columns };
    }
  }
}
