// `GROUP BY AUTO`: the grouping columns are the select items that hold no aggregate call, as Trino
// derives them; the element becomes a plain GROUP BY of those expressions before planning.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import { findAggregates } from './ast-utils.js';

/** `spec` with each GROUP BY AUTO replaced by its columns; `select` holds the select list's expressions (undefined for a `*` field). */
export function resolveAutoGroupBy(spec: ast.QuerySpecification, select: readonly (ast.Expression | undefined)[]): ast.QuerySpecification {
  const groupBy = spec.groupBy;
  if (groupBy === undefined || !groupBy.elements.some((e) => e.kind === 'AutoGroupBy')) return spec;
  const elements = groupBy.elements.map((element): ast.GroupingElement => {
    if (element.kind !== 'AutoGroupBy') return element;
    if (select.some((e) => e === undefined))
      throw new EngineError('NOT_SUPPORTED', 'GROUP BY AUTO with SELECT * is not supported', element.location);
    const expressions = (select as ast.Expression[]).filter((e) => findAggregates(e).length === 0);
    return { kind: 'SimpleGroupBy', expressions, location: element.location };
  });
  return { ...spec, groupBy: { ...groupBy, elements } };
}
