// A query's dynamic filters (the build keys of joins above the scan, known once the builds are
// complete) applied to one lake split: a partition value outside them leaves the split nothing
// to read; domains on data columns join the split's constraint, so that the reader skips row
// groups and pages by their statistics and drops the rows outside them (parquet-reader.ts).

import type { ColumnDomain, TableConstraint } from '../../../spi/connector.js';
import type { Scalar } from '../../../types/scalar.js';
import { mayMatch, parsePartitionValue } from '../splits/partitions.js';
import type { LakeSplitInfo } from '../splits/lake-split.js';
import { prunable } from '../splits/split-lister.js';

/** The split with the dynamic filter in its constraint, or undefined when none of its rows can pass it. */
export function withDynamicFilter(info: LakeSplitInfo, dynamicFilter: TableConstraint | undefined): LakeSplitInfo | undefined {
  if (dynamicFilter === undefined || dynamicFilter.length === 0) return info;
  for (const domain of dynamicFilter) {
    const p = info.partitionColumns.findIndex((c) => c.name === domain.column);
    if (p < 0 || !prunable(info.partitionColumns[p].type)) continue;
    const value = parsePartitionValue(info.partitionValues[p] ?? undefined, info.partitionColumns[p], info.location);
    if (!mayMatch(value, domain)) return undefined;
  }
  const onData = dynamicFilter.filter((d) => {
    const column = info.dataColumns.find((c) => c.name === d.column);
    return column !== undefined && prunable(column.type);
  });
  if (onData.length === 0) return info;
  const constraint = [...(info.constraint ?? [])];
  for (const domain of onData) {
    const i = constraint.findIndex((d) => d.column === domain.column);
    if (i < 0) constraint.push(domain);
    else constraint[i] = intersect(constraint[i], domain);
  }
  return { ...info, constraint };
}

/** Both domains of one column as one (the reader then tests each row once). */
function intersect(a: ColumnDomain, b: ColumnDomain): ColumnDomain {
  const low = tighter(a.low, b.low, 1);
  const high = tighter(a.high, b.high, -1);
  let values = a.values ?? b.values;
  if (a.values !== undefined && b.values !== undefined) {
    const other = new Set(b.values);
    values = a.values.filter((v) => other.has(v));
  }
  return {
    column: a.column,
    ...(low === undefined ? {} : { low }),
    ...(high === undefined ? {} : { high }),
    ...(values === undefined ? {} : { values }),
  };
}

type Bound = ColumnDomain['low'];

/** The stricter of two bounds: `direction` 1 for lower bounds (the greater), -1 for upper bounds (the lesser). */
function tighter(a: Bound, b: Bound, direction: 1 | -1): Bound {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const c = compare(a.value, b.value);
  if (c === undefined) return a;
  if (c === 0) return a.inclusive ? b : a;
  return c * direction > 0 ? a : b;
}

function compare(a: Scalar, b: Scalar): number | undefined {
  if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'bigint')) return undefined;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}
