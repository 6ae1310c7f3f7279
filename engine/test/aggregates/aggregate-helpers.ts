// Runs aggregates through the real hash aggregation operator.

import { resolveAggregateFunction } from '../../src/functions/aggregate/registry.js';
import { hashAggregation, type AggregationStep } from '../../src/exec/operators/hash-aggregation.js';
import type { Scalar } from '../../src/types/scalar.js';
import type { SqlType } from '../../src/types/types.js';
import { collectPages, collectRows, rowsStream, streamOf, testContext } from '../operators/helpers.js';

export interface CallSpec {
  name: string;
  args: number[];
  distinct?: boolean;
  mask?: number;
}

export function resolveCalls(types: readonly SqlType[], calls: readonly CallSpec[]) {
  return calls.map((c) => ({
    function: resolveAggregateFunction(
      c.name,
      c.args.map((a) => types[a]),
    ),
    argumentChannels: c.args,
    distinct: c.distinct ?? false,
    maskChannel: c.mask,
  }));
}

export async function aggregateRows(
  types: SqlType[],
  rows: Scalar[][],
  groupChannels: number[],
  calls: CallSpec[],
  pageRowCount = 3,
): Promise<Scalar[][]> {
  const aggregates = resolveCalls(types, calls);
  return collectRows(
    hashAggregation(testContext(), rowsStream(types, rows, pageRowCount), { inputTypes: types, groupChannels, aggregates, step: 'single' }),
  );
}

/** The same aggregation as two partial steps over halves of the input, merged by a final step. */
export async function aggregateTwoStep(
  types: SqlType[],
  rows: Scalar[][],
  groupChannels: number[],
  calls: CallSpec[],
): Promise<Scalar[][]> {
  const aggregates = resolveCalls(types, calls);
  const half = Math.floor(rows.length / 2);
  const partial = (part: Scalar[][]) =>
    collectPages(
      hashAggregation(testContext(), rowsStream(types, part, 2), {
        inputTypes: types,
        groupChannels,
        aggregates,
        step: 'partial' as AggregationStep,
      }),
    );
  const pages = [...(await partial(rows.slice(0, half))), ...(await partial(rows.slice(half)))];
  const intermediateTypes = [...groupChannels.map((c) => types[c])];
  const finalAggregates = [];
  let channel = groupChannels.length;
  for (const a of aggregates) {
    const width = a.function.intermediateTypes.length;
    intermediateTypes.push(...a.function.intermediateTypes);
    finalAggregates.push({ ...a, argumentChannels: Array.from({ length: width }, (_, i) => channel + i), maskChannel: undefined });
    channel += width;
  }
  const finalRows = await collectRows(
    hashAggregation(testContext(), streamOf(pages), {
      inputTypes: intermediateTypes,
      groupChannels: groupChannels.map((_, i) => i),
      aggregates: finalAggregates,
      step: 'final',
    }),
  );
  return finalRows;
}
