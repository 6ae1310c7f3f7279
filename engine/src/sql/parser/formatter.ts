// SQL text back from the AST (messages, round-trip tests): expressions, queries and relations; the
// statements are in statement-formatter.ts. The text parses back to an equal AST.

import type {
  DescriptorArgument,
  Expression,
  GroupingElement,
  Property,
  Query,
  QueryBody,
  QuerySpecification,
  Relation,
  SelectItem,
  SortItem,
  TableArgument,
} from './ast.js';
import { ExpressionFormatter, formatIdentifier, formatQualifiedName, formatType } from './expression-formatter.js';
import { formatJsonTable } from './json-formatter.js';
import { formatMeasures, formatPatternClauses, formatRowsPerMatch } from './pattern-formatter.js';
import { formatFunctionSpecification } from './routine-formatter.js';

export { formatStatement } from './statement-formatter.js';

export const expressions = new ExpressionFormatter((query) => formatQuery(query));

export function formatExpression(e: Expression): string {
  return expressions.format(e);
}

export function formatQuery(query: Query): string {
  const parts: string[] = [];
  if (query.functions) parts.push(`WITH ${query.functions.map(formatFunctionSpecification).join(', ')}`);
  if (query.with) {
    const ctes = query.with.queries.map((q) => {
      const aliases = q.columnAliases ? ` (${q.columnAliases.map(formatIdentifier).join(', ')})` : '';
      return `${formatIdentifier(q.name)}${aliases} AS (${formatQuery(q.query)})`;
    });
    parts.push(`WITH ${query.with.recursive ? 'RECURSIVE ' : ''}${ctes.join(', ')}`);
  }
  parts.push(formatQueryBody(query.body));
  parts.push(...orderAndLimit(query.orderBy, query.offset, query.limit, query.withTies));
  return parts.join(' ');
}

function orderAndLimit(orderBy: SortItem[], offset?: Expression, limit?: Expression | 'ALL', withTies?: boolean): string[] {
  const parts: string[] = [];
  if (orderBy.length) parts.push(`ORDER BY ${expressions.sortItems(orderBy)}`);
  if (offset) parts.push(`OFFSET ${formatExpression(offset)} ROWS`);
  if (limit && withTies && limit !== 'ALL') parts.push(`FETCH FIRST ${formatExpression(limit)} ROWS WITH TIES`);
  else if (limit) parts.push(`LIMIT ${limit === 'ALL' ? 'ALL' : formatExpression(limit)}`);
  return parts;
}

/**
 * Set operations print without parentheses: the parser nests them to the left and puts INTERSECT
 * below UNION / EXCEPT, which is exactly the tree this flat text reads back as.
 */
function formatQueryBody(body: QueryBody): string {
  switch (body.kind) {
    case 'QuerySpecification':
      return formatQuerySpecification(body);
    case 'SetOperation': {
      const columns = body.corresponding?.columns;
      const corresponding = body.corresponding ? ` CORRESPONDING${columns ? ` BY (${columns.map(formatIdentifier).join(', ')})` : ''}` : '';
      return body.inputs.map(formatQueryBody).join(` ${body.operator}${body.distinct ? '' : ' ALL'}${corresponding} `);
    }
    case 'Values':
      return `VALUES ${list(body.rows)}`;
    case 'Table':
      return `TABLE ${formatQualifiedName(body.name)}`;
    case 'SubqueryBody':
      return `(${formatQuery(body.query)})`;
  }
}

function formatQuerySpecification(spec: QuerySpecification): string {
  const parts = [`SELECT ${spec.select.distinct ? 'DISTINCT ' : ''}${spec.select.items.map(selectItem).join(', ')}`];
  if (spec.from) parts.push(`FROM ${formatRelation(spec.from)}`);
  if (spec.where) parts.push(`WHERE ${formatExpression(spec.where)}`);
  if (spec.groupBy) {
    const elements = spec.groupBy.elements.map(groupingElement).join(', ');
    parts.push(`GROUP BY ${spec.groupBy.distinct ? 'DISTINCT ' : ''}${elements}`);
  }
  if (spec.having) parts.push(`HAVING ${formatExpression(spec.having)}`);
  if (spec.windows.length) {
    const windows = spec.windows.map((w) => `${formatIdentifier(w.name)} AS ${expressions.window(w.window)}`);
    parts.push(`WINDOW ${windows.join(', ')}`);
  }
  // The parser keeps these on the Query node; an AST built elsewhere may carry them here.
  parts.push(...orderAndLimit(spec.orderBy, spec.offset, spec.limit));
  return parts.join(' ');
}

function selectItem(item: SelectItem): string {
  if (item.kind === 'AllColumns') return formatExpression(item);
  const text = formatExpression(item.expression);
  return item.alias ? `${text} AS ${formatIdentifier(item.alias)}` : text;
}

function groupingElement(element: GroupingElement): string {
  switch (element.kind) {
    case 'SimpleGroupBy':
      return groupingSet(element.expressions);
    case 'GroupingSets':
      return `GROUPING SETS (${element.sets.map((set) => `(${list(set)})`).join(', ')})`;
    case 'Rollup':
    case 'Cube':
      return `${element.kind.toUpperCase()} (${element.elements.map(groupingSet).join(', ')})`;
    case 'AutoGroupBy':
      return 'AUTO';
  }
}

/** One expression, or `(a, b)` / `()` for a composite set. */
function groupingSet(expressions: Expression[]): string {
  return expressions.length === 1 ? formatExpression(expressions[0]) : `(${list(expressions)})`;
}

export function formatRelation(relation: Relation): string {
  switch (relation.kind) {
    case 'Table': {
      const period = relation.queryPeriod;
      return `${formatQualifiedName(relation.name)}${period ? ` FOR ${period.rangeType} AS OF ${expressions.value(period.end)}` : ''}`;
    }
    case 'AliasedRelation': {
      const columns = relation.columnNames ? ` (${relation.columnNames.map(formatIdentifier).join(', ')})` : '';
      return `${operand(relation.relation)} AS ${formatIdentifier(relation.alias)}${columns}`;
    }
    case 'SubqueryRelation':
      return `(${formatQuery(relation.query)})`;
    case 'ValuesRelation':
      return `(VALUES ${list(relation.values.rows)})`;
    case 'Join': {
      const left = formatRelation(relation.left);
      // A join on the right side only comes from parentheses in the source.
      const right = relation.right.kind === 'Join' ? `(${formatRelation(relation.right)})` : operand(relation.right);
      if (relation.type === 'IMPLICIT') return `${left}, ${right}`;
      if (relation.type === 'CROSS') return `${left} CROSS JOIN ${right}`;
      const type = relation.type === 'INNER' ? 'JOIN' : `${relation.type} JOIN`;
      const criteria = relation.criteria;
      if (criteria?.kind === 'NaturalJoin') return `${left} NATURAL ${type} ${right}`;
      if (criteria?.kind === 'JoinUsing') return `${left} ${type} ${right} USING (${criteria.columns.map(formatIdentifier).join(', ')})`;
      if (criteria?.kind === 'JoinOn') return `${left} ${type} ${right} ON ${formatExpression(criteria.expression)}`;
      return `${left} ${type} ${right}`;
    }
    case 'SampledRelation':
      return `${operand(relation.relation)} TABLESAMPLE ${relation.sampleType} (${formatExpression(relation.percentage)})`;
    case 'PatternRecognitionRelation': {
      const clauses = [
        relation.partitionBy.length > 0 && `PARTITION BY ${list(relation.partitionBy)}`,
        relation.orderBy.length > 0 && `ORDER BY ${expressions.sortItems(relation.orderBy)}`,
        formatMeasures(relation.measures, expressions),
        relation.rowsPerMatch && formatRowsPerMatch(relation.rowsPerMatch),
        formatPatternClauses(relation, expressions),
      ];
      return `${operand(relation.input)} MATCH_RECOGNIZE (${clauses.filter(Boolean).join(' ')})`;
    }
    case 'Unnest':
      return `UNNEST(${list(relation.expressions)})${relation.withOrdinality ? ' WITH ORDINALITY' : ''}`;
    case 'Lateral':
      return `LATERAL (${formatQuery(relation.query)})`;
    case 'TableFunctionInvocation': {
      const args = relation.arguments.map((a) => {
        const value =
          a.value.kind === 'TableArgument'
            ? tableArgument(a.value)
            : a.value.kind === 'DescriptorArgument'
              ? descriptor(a.value)
              : formatExpression(a.value);
        return a.name ? `${formatIdentifier(a.name)} => ${value}` : value;
      });
      const copartition = relation.copartitioning.map((tables) => `(${tables.map(formatQualifiedName).join(', ')})`).join(', ');
      return `TABLE(${formatQualifiedName(relation.name)}(${args.join(', ')}${copartition ? ` COPARTITION ${copartition}` : ''}))`;
    }
    case 'JsonTable':
      return formatJsonTable(relation, expressions);
    case 'Nearest': {
      const where = relation.where ? ` WHERE ${formatExpression(relation.where)}` : '';
      return `NEAREST(FROM ${formatRelation(relation.relation)}${where} MATCH ${formatExpression(relation.match)})`;
    }
  }
}

/** A relation where a join needs parentheses (aliased, sampled, the input of MATCH_RECOGNIZE, a join's right side). */
function operand(relation: Relation): string {
  return relation.kind === 'Join' ? `(${formatRelation(relation)})` : formatRelation(relation);
}

/** TABLE(t) [AS x] [PARTITION BY ...] [PRUNE | KEEP WHEN EMPTY] [ORDER BY ...] */
function tableArgument(argument: TableArgument): string {
  const aliased = argument.relation.kind === 'AliasedRelation' ? argument.relation : undefined;
  const inner = aliased ? aliased.relation : argument.relation;
  const source =
    inner.kind === 'Table'
      ? formatQualifiedName(inner.name)
      : inner.kind === 'SubqueryRelation'
        ? formatQuery(inner.query)
        : formatRelation(inner);
  const parts = [`TABLE(${source})`];
  if (aliased)
    parts.push(
      `AS ${formatIdentifier(aliased.alias)}${aliased.columnNames ? ` (${aliased.columnNames.map(formatIdentifier).join(', ')})` : ''}`,
    );
  if (argument.partitionBy) parts.push(`PARTITION BY (${list(argument.partitionBy)})`);
  if (argument.emptyBehavior) parts.push(`${argument.emptyBehavior} WHEN EMPTY`);
  if (argument.orderBy) parts.push(`ORDER BY (${expressions.sortItems(argument.orderBy)})`);
  return parts.join(' ');
}

function descriptor(argument: DescriptorArgument): string {
  if (!argument.fields) return 'CAST(NULL AS DESCRIPTOR)';
  return `DESCRIPTOR(${argument.fields.map((f) => (f.type ? `${formatIdentifier(f.name)} ${formatType(f.type)}` : formatIdentifier(f.name))).join(', ')})`;
}

export function list(items: Expression[]): string {
  return items.map(formatExpression).join(', ');
}

/** ` WITH (a = 1, b = DEFAULT)`, or nothing for no properties. */
export function formatProperties(props: Property[]): string {
  if (props.length === 0) return '';
  return ` WITH (${formatPropertyAssignments(props)})`;
}

export function formatPropertyAssignments(props: Property[]): string {
  return props.map((p) => `${formatIdentifier(p.name)} = ${p.value ? formatExpression(p.value) : 'DEFAULT'}`).join(', ');
}
