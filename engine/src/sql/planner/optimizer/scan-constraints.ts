// Hands a scan's simple predicates to its connector: `column op constant`, BETWEEN and IN over a
// column of the filter right above the scan become column domains (TableScanNode.constraint),
// which a connector may use to skip splits or rows (tpch skips to the rows of a key range). The
// filter stays: connectors prune only where they can, and the engine checks every row.

import type { ColumnDomain, TableConstraint } from '../../../spi/connector.js';
import type { Scalar } from '../../../types/scalar.js';
import type { PlanNode, TableScanNode } from '../plan.js';
import { extractConjuncts } from '../plan-factory.js';
import type { RowExpression } from '../row-expression.js';
import { rewriteBottomUp } from './rewrite-plan.js';

export function pushConstraintsIntoScans(root: PlanNode): PlanNode {
  return rewriteBottomUp(root, (node) => {
    if (node.kind !== 'Filter' || node.source.kind !== 'TableScan') return node;
    const constraint = scanConstraint(node.source, extractConjuncts(node.predicate));
    return constraint.length === 0 ? node : { ...node, source: { ...node.source, constraint } };
  });
}

const FLIPPED: Record<string, string> = {
  less_than: 'greater_than',
  less_than_or_equal: 'greater_than_or_equal',
  greater_than: 'less_than',
  greater_than_or_equal: 'less_than_or_equal',
  equal: 'equal',
};

function scanConstraint(scan: TableScanNode, conjuncts: RowExpression[]): TableConstraint {
  return columnDomains(conjuncts, (e) => {
    if (e.kind !== 'symbol') return undefined;
    const i = scan.outputs.findIndex((s) => s.id === e.symbol.id);
    return i < 0 ? undefined : scan.columns[i].name;
  });
}

/**
 * The domains the conjuncts of the form `column op constant`, BETWEEN and IN give the columns
 * `columnOf` names (undefined: an expression that is not such a column).
 */
export function columnDomains(conjuncts: readonly RowExpression[], columnOf: (e: RowExpression) => string | undefined): ColumnDomain[] {
  const domains = new Map<string, ColumnDomain>();
  const domain = (column: string): ColumnDomain => {
    let d = domains.get(column);
    if (!d) domains.set(column, (d = { column }));
    return d;
  };
  for (const c of conjuncts) {
    if (c.kind === 'call' && c.name in FLIPPED && c.args.length === 2) {
      let [a, b] = c.args;
      let op = c.name;
      if (a.kind === 'constant') {
        [a, b] = [b, a];
        op = FLIPPED[op];
      }
      const column = columnOf(a);
      if (column === undefined || b.kind !== 'constant' || b.value === null || !storedAlike(a, b)) continue;
      bound(domain(column), op, b.value);
    } else if (c.kind === 'special' && c.form === 'between') {
      const column = columnOf(c.args[0]);
      const [, low, high] = c.args;
      if (
        column === undefined ||
        low.kind !== 'constant' ||
        high.kind !== 'constant' ||
        low.value === null ||
        high.value === null ||
        !storedAlike(c.args[0], low) ||
        !storedAlike(c.args[0], high)
      )
        continue;
      bound(domain(column), 'greater_than_or_equal', low.value);
      bound(domain(column), 'less_than_or_equal', high.value);
    } else if (c.kind === 'special' && c.form === 'in') {
      const column = columnOf(c.args[0]);
      const items = c.args.slice(1);
      if (column === undefined || !items.every((i) => i.kind === 'constant' && storedAlike(c.args[0], i))) continue;
      const values = items.map((i) => (i as { value: Scalar }).value).filter((v): v is Exclude<Scalar, null> => v !== null);
      const d = domain(column);
      d.values = d.values ? d.values.filter((v) => v !== null && values.includes(v)) : values;
    }
  }
  return [...domains.values()];
}

/** Whether a constant's value compares with the column's stored values as they are: a decimal's at the same scale. */
function storedAlike(column: RowExpression, constant: RowExpression): boolean {
  const [a, b] = [column.type, constant.type];
  if (a.kind !== 'decimal') return true;
  return b.kind === 'decimal' && b.scale === a.scale;
}

function bound(d: ColumnDomain, op: string, value: Scalar): void {
  const tighterLow = (inclusive: boolean) => !d.low || compare(value, d.low.value) > 0 || (compare(value, d.low.value) === 0 && !inclusive);
  const tighterHigh = (inclusive: boolean) =>
    !d.high || compare(value, d.high.value) < 0 || (compare(value, d.high.value) === 0 && !inclusive);
  switch (op) {
    case 'equal':
      d.values = d.values ? d.values.filter((v) => v === value) : [value];
      break;
    case 'greater_than':
    case 'greater_than_or_equal': {
      const inclusive = op === 'greater_than_or_equal';
      if (tighterLow(inclusive)) d.low = { value, inclusive };
      break;
    }
    case 'less_than':
    case 'less_than_or_equal': {
      const inclusive = op === 'less_than_or_equal';
      if (tighterHigh(inclusive)) d.high = { value, inclusive };
      break;
    }
  }
}

function compare(a: Scalar, b: Scalar): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return 0;
}
