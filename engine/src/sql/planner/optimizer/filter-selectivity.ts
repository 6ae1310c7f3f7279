// The share of rows a filter keeps, as Trino's FilterStatsCalculator estimates it: conjuncts on a
// column by its statistics (a range or values against constants; several on one column make one
// domain), an OR as the union of its disjuncts (s1 + s2 - s1*s2, an OR of values of one column as
// that column's IN list), NOT as the rest of what its operand keeps, LIKE by its pattern's shape,
// and fixed selectivities where nothing is known.

import type { ColumnDomain, ColumnStatistics } from '../../../spi/connector.js';
import type { PlannerContext } from '../planner-context.js';
import type { PlanNode } from '../plan.js';
import { extractConjuncts } from '../plan-factory.js';
import { expressionKey, type RowExpression } from '../row-expression.js';
import type { Scalar } from '../../../types/scalar.js';
import { columnOrigin } from './column-origin.js';
import { domainSelectivity, MIN_SELECTIVITY } from './domain-selectivity.js';
import { likeSelectivity } from './like-selectivity.js';
import { columnDomains } from './scan-constraints.js';

/** What a filter keeps when nothing is known of it. */
export const DEFAULT_SELECTIVITY = 0.7;

/** What a filter's expressions are estimated against. */
interface Scope {
  /** The column (an output symbol of the filter's source) an expression is, if it is one. */
  columnOf(e: RowExpression): string | undefined;
  statistics(column: string): ColumnStatistics | undefined;
  /** The share a conjunct keeps by what the plan below says of it (a semi join's mark), if any. */
  known(c: RowExpression): number | undefined;
}

/** The share of rows of `sources` (a filter's source, or a join's sides) `predicate` keeps. */
export function filterSelectivity(
  predicate: RowExpression,
  sources: readonly PlanNode[],
  context: PlannerContext,
  known: (c: RowExpression) => number | undefined,
): number {
  const symbols = new Map(sources.flatMap((source) => source.outputs.map((s) => [String(s.id), { symbol: s, source }] as const)));
  const scope: Scope = {
    columnOf: (e) => (e.kind === 'symbol' && symbols.has(String(e.symbol.id)) ? String(e.symbol.id) : undefined),
    statistics: (column) => {
      const { symbol, source } = symbols.get(column)!;
      return columnOrigin(source, symbol, context)?.statistics;
    },
    known,
  };
  return knownSelectivity(predicate, scope) ?? DEFAULT_SELECTIVITY;
}

/** The share of rows `predicate` keeps, or undefined when nothing but the default is known of it. */
function knownSelectivity(predicate: RowExpression, scope: Scope): number | undefined {
  // A conjunct twice filters once (extract-common-predicates adds an OR of one column's values again).
  const conjuncts = [...new Map(extractConjuncts(predicate).map((c) => [expressionKey(c), c])).values()];
  const byStatistics = new Map<string, number>();
  for (const domain of columnDomains(conjuncts, scope.columnOf)) {
    const share = domainShare(domain, scope);
    if (share !== undefined) byStatistics.set(domain.column, share);
  }
  let share = [...byStatistics.values()].reduce((product, s) => product * s, 1);
  let known = byStatistics.size > 0;
  for (const c of conjuncts) {
    const domains = columnDomains([c], scope.columnOf);
    if (domains.length === 1 && byStatistics.has(domains[0].column)) continue;
    const s = scope.known(c) ?? conjunctSelectivity(c, scope);
    known ||= s !== undefined;
    share *= s ?? DEFAULT_SELECTIVITY;
  }
  return known ? share : undefined;
}

function domainShare(domain: ColumnDomain, scope: Scope): number | undefined {
  const statistics = scope.statistics(domain.column);
  return statistics === undefined ? undefined : domainSelectivity(domain, statistics);
}

function conjunctSelectivity(c: RowExpression, scope: Scope): number | undefined {
  if (c.kind === 'call') {
    if (c.name === 'equal') return c.args.some((a) => a.kind === 'constant') ? 0.1 : 0.3;
    if (c.name.startsWith('less') || c.name.startsWith('greater')) return 0.5;
    return undefined;
  }
  if (c.kind !== 'special') return undefined;
  switch (c.form) {
    case 'between':
      return 0.3;
    case 'in':
      return Math.min(0.5, 0.1 * (c.args.length - 1));
    case 'like':
      return likeSelectivity(c);
    case 'not': {
      const kept = knownSelectivity(c.args[0], scope);
      return kept === undefined ? undefined : Math.max(MIN_SELECTIVITY, 1 - kept);
    }
    case 'or':
      return disjunctionSelectivity(extractDisjuncts(c), scope);
    default:
      return undefined;
  }
}

/**
 * An OR of values of one column keeps what that column's IN list does; any other OR the union of
 * what its disjuncts keep (an AND inside by the product), as if they were independent. The union
 * is over the table's rows; but a column constrained by values in every disjunct is filtered
 * below already by the OR of those values (extract-common-predicates pushes it down: TPC-H q07's
 * nations), and the statistics of that column are the table's, not the filtered rows'. So the OR
 * keeps its union's share of the rows those implied filters left: q07's pair of nations (FRANCE,
 * GERMANY) or (GERMANY, FRANCE) keeps 1/2 of the 2 x 2 pairs, not 2 of the 25 x 25.
 */
function disjunctionSelectivity(disjuncts: readonly RowExpression[], scope: Scope): number | undefined {
  const perDisjunct = disjuncts.map((d) => columnDomains(extractConjuncts(d), scope.columnOf));
  const oneColumn =
    disjuncts.length > 1 && perDisjunct.every((domains, i) => domains.length === 1 && isValuesOnly(disjuncts[i], domains[0]));
  if (oneColumn && perDisjunct.every((domains) => domains[0].column === perDisjunct[0][0].column)) {
    const share = domainShare(valuesUnion(perDisjunct.map((domains) => domains[0])), scope);
    if (share !== undefined) return share;
  }
  const shares = disjuncts.map((d) => knownSelectivity(d, scope));
  if (shares.every((s) => s === undefined)) return undefined;
  const union = shares.reduce<number>((u, s) => u + (s ?? DEFAULT_SELECTIVITY) - u * (s ?? DEFAULT_SELECTIVITY), 0);
  return Math.min(1, union / impliedShare(perDisjunct, scope));
}

/** Whether a disjunct is nothing but the values of its one column's domain (an equality or IN). */
function isValuesOnly(disjunct: RowExpression, domain: ColumnDomain): boolean {
  return extractConjuncts(disjunct).length === 1 && domain.values !== undefined && domain.low === undefined && domain.high === undefined;
}

/** What the OR of values of each column every disjunct constrains by values keeps (1 when none). */
function impliedShare(perDisjunct: readonly ColumnDomain[][], scope: Scope): number {
  const columns = perDisjunct[0].filter((d) => d.values !== undefined).map((d) => d.column);
  let share = 1;
  for (const column of columns) {
    const ofColumn = perDisjunct.map((domains) => domains.find((d) => d.column === column && d.values !== undefined));
    if (ofColumn.every((d): d is ColumnDomain => d !== undefined)) share *= domainShare(valuesUnion(ofColumn), scope) ?? 1;
  }
  return share;
}

function valuesUnion(domains: readonly ColumnDomain[]): ColumnDomain {
  const values = new Set<Scalar>(domains.flatMap((d) => d.values ?? []));
  return { column: domains[0].column, values: [...values] };
}

function extractDisjuncts(e: RowExpression): RowExpression[] {
  return e.kind === 'special' && e.form === 'or' ? e.args.flatMap(extractDisjuncts) : [e];
}
