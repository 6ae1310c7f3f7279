// Where the SOURCE stages' tasks go once their first splits are known. A stage over few splits (a
// small table's, say TPC-H partsupp's 3 at sf1 on 2 workers) gives its first task the larger share;
// turning the stages round the nodes one by one put both of q11's partsupp stages' larger shares on
// the same worker whenever a stage in between (a supplier scan's one task) took a turn, and that
// worker then read 4 of the 6 partsupp splits while the other read 2. Placed here the larger stages
// first, each on the rotation of the nodes that leaves the most splits on any node lowest (ties: the
// lowest total of squares, then the stage's turn round the nodes, as before): a longest-job-first
// spread of the initial splits.

import type { PropertyMetadata } from '../../spi/properties.js';

export const SOURCE_PLACEMENT_BY_SPLITS_PROPERTY: PropertyMetadata = {
  name: 'source_placement_by_splits',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    "Whether the SOURCE stages' tasks are placed, the stages of most splits first, where they even out the splits each node starts with, rather than each stage's first task on the next node in turn",
};

/**
 * Per stage, the offset of its task 0 in the nodes (task i on node (i + offset) mod `nodeCount`).
 * `shares`: per stage, the splits each of its tasks starts with; `turns`: per stage, the offset it
 * takes when others do no better (its turn round the nodes).
 */
export function balancedRotations(shares: readonly (readonly number[])[], nodeCount: number, turns: readonly number[]): number[] {
  const loads = new Array<number>(nodeCount).fill(0);
  const offsets = new Array<number>(shares.length).fill(0);
  const total = (s: readonly number[]) => s.reduce((a, b) => a + b, 0);
  const order = shares.map((_, k) => k).sort((a, b) => total(shares[b]) - total(shares[a]) || a - b);
  for (const k of order) {
    let best: { offset: number; max: number; squares: number } | undefined;
    for (let step = 0; step < nodeCount; step++) {
      const offset = (turns[k] + step) % nodeCount;
      const after = [...loads];
      shares[k].forEach((share, i) => (after[(i + offset) % nodeCount] += share));
      const max = Math.max(...after);
      const squares = after.reduce((a, b) => a + b * b, 0);
      if (best === undefined || max < best.max || (max === best.max && squares < best.squares)) best = { offset, max, squares };
    }
    offsets[k] = best!.offset;
    shares[k].forEach((share, i) => (loads[(i + best!.offset) % nodeCount] += share));
  }
  return offsets;
}
