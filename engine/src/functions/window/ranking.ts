// Ranking functions: row_number, rank, dense_rank, percent_rank, cume_dist, ntile. They read the
// partition and its peer groups, never the frame.

import { BIGINT, DOUBLE, type SqlType } from '../../types/types.js';
import type { ColumnOutput } from '../aggregate/aggregate-function.js';
import type { WindowEvaluator, WindowFunction, WindowPartition } from './window-function.js';
import { bigintWriter, integerArgument, invalidArgument } from './window-support.js';

type Evaluate = (p: WindowPartition, out: ColumnOutput) => void;

const rowNumber: Evaluate = (p, out) => {
  const write = bigintWriter(out);
  for (let i = p.start; i < p.end; i++) write(i, i - p.start + 1);
};

const rank: Evaluate = (p, out) => {
  const write = bigintWriter(out);
  for (let i = p.start; i < p.end; i++) write(i, p.peerStart[i] - p.start + 1);
};

const denseRank: Evaluate = (p, out) => {
  const write = bigintWriter(out);
  let r = 0;
  for (let i = p.start; i < p.end; i++) {
    if (p.peerStart[i] === i) r++;
    write(i, r);
  }
};

const percentRank: Evaluate = (p, out) => {
  const values = out.values as Float64Array;
  const size = p.end - p.start;
  for (let i = p.start; i < p.end; i++) {
    values[i] = size === 1 ? 0 : (p.peerStart[i] - p.start) / (size - 1);
    out.nulls[i] = 0;
  }
};

const cumeDist: Evaluate = (p, out) => {
  const values = out.values as Float64Array;
  const size = p.end - p.start;
  for (let i = p.start; i < p.end; i++) {
    values[i] = (p.peerEnd[i] - p.start) / size;
    out.nulls[i] = 0;
  }
};

/** ntile(n): Trino's bucket assignment (the first `size % n` buckets get one row more). */
const ntile: Evaluate = (p, out) => {
  const write = bigintWriter(out);
  const size = p.end - p.start;
  for (let i = p.start; i < p.end; i++) {
    const buckets = integerArgument(p.args[0], i);
    if (buckets === null) {
      out.nulls[i] = 1;
      continue;
    }
    if (buckets <= 0) throw invalidArgument('Buckets must be greater than 0');
    const position = i - p.start;
    const rowsPerBucket = Math.floor(size / buckets);
    const remainder = size % buckets;
    const bucket =
      position < (rowsPerBucket + 1) * remainder
        ? Math.floor(position / (rowsPerBucket + 1)) + 1
        : Math.floor((position - remainder) / rowsPerBucket) + 1;
    write(i, bucket);
  }
};

const RANKING: Record<string, { evaluate: Evaluate; returnType: SqlType; argumentTypes: SqlType[] }> = {
  row_number: { evaluate: rowNumber, returnType: BIGINT, argumentTypes: [] },
  rank: { evaluate: rank, returnType: BIGINT, argumentTypes: [] },
  dense_rank: { evaluate: denseRank, returnType: BIGINT, argumentTypes: [] },
  percent_rank: { evaluate: percentRank, returnType: DOUBLE, argumentTypes: [] },
  cume_dist: { evaluate: cumeDist, returnType: DOUBLE, argumentTypes: [] },
  ntile: { evaluate: ntile, returnType: BIGINT, argumentTypes: [BIGINT] },
};

export const RANKING_FUNCTION_NAMES = Object.keys(RANKING);

/** The ranking function `name`, or undefined when the argument count does not fit. */
export function rankingFunction(name: string, argumentCount: number): WindowFunction | undefined {
  const def = RANKING[name];
  if (def === undefined || def.argumentTypes.length !== argumentCount) return undefined;
  const evaluator: WindowEvaluator = { evaluate: def.evaluate };
  return { name, argumentTypes: def.argumentTypes, returnType: def.returnType, createEvaluator: () => evaluator };
}

export function rankingSignature(name: string): { args: string[]; returns: string } {
  const def = RANKING[name];
  return { args: def.argumentTypes.map(() => 'bigint'), returns: def.returnType.kind };
}
