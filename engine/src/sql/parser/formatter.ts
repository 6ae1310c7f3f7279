// SQL text back from the AST (EXPLAIN output, round-trip tests). The text parses back to an equal AST.

import type {
  ColumnDefinition,
  Expression,
  GroupingElement,
  Property,
  Query,
  QueryBody,
  QuerySpecification,
  Relation,
  SelectItem,
  SortItem,
  Statement,
} from './ast.js';
import {
  ExpressionFormatter,
  formatIdentifier,
  formatQualifiedName,
  formatStringLiteral,
  formatType,
} from './expression-formatter.js';

const expressions = new ExpressionFormatter((query) => formatQuery(query));

export function formatExpression(e: Expression): string {
  return expressions.format(e);
}

export function formatStatement(s: Statement): string {
  switch (s.kind) {
    case 'QueryStatement':
      return formatQuery(s.query);
    case 'Explain': {
      const options = [s.type && `TYPE ${s.type}`, s.format && `FORMAT ${s.format}`].filter(Boolean);
      return [
        'EXPLAIN',
        s.analyze && 'ANALYZE',
        s.verbose && 'VERBOSE',
        options.length > 0 && `(${options.join(', ')})`,
        formatStatement(s.statement),
      ]
        .filter(Boolean)
        .join(' ');
    }
    case 'ShowCatalogs':
      return `SHOW CATALOGS${like(s)}`;
    case 'ShowSchemas':
      return `SHOW SCHEMAS${s.catalog ? ` FROM ${formatIdentifier(s.catalog)}` : ''}${like(s)}`;
    case 'ShowTables':
      return `SHOW TABLES${s.schema ? ` FROM ${formatQualifiedName(s.schema)}` : ''}${like(s)}`;
    case 'ShowColumns':
      return `SHOW COLUMNS FROM ${formatQualifiedName(s.table)}${like(s)}`;
    case 'ShowFunctions':
      return `SHOW FUNCTIONS${like(s)}`;
    case 'ShowSession':
      return `SHOW SESSION${like(s)}`;
    case 'ShowCreateTable':
      return `SHOW CREATE TABLE ${formatQualifiedName(s.table)}`;
    case 'DescribeInput':
      return `DESCRIBE INPUT ${formatIdentifier(s.name)}`;
    case 'DescribeOutput':
      return `DESCRIBE OUTPUT ${'name' in s ? formatIdentifier(s.name) : `(${formatQuery(s.query)})`}`;
    case 'Use':
      return `USE ${s.catalog ? `${formatIdentifier(s.catalog)}.` : ''}${formatIdentifier(s.schema)}`;
    case 'SetSession':
      return `SET SESSION ${formatQualifiedName(s.name)} = ${formatExpression(s.value)}`;
    case 'ResetSession':
      return `RESET SESSION ${formatQualifiedName(s.name)}`;
    case 'Prepare':
      return `PREPARE ${formatIdentifier(s.name)} FROM ${s.sql}`;
    case 'Execute':
      return `EXECUTE ${formatIdentifier(s.name)}${s.parameters.length ? ` USING ${list(s.parameters)}` : ''}`;
    case 'Deallocate':
      return `DEALLOCATE PREPARE ${formatIdentifier(s.name)}`;
    case 'CreateSchema':
      return `CREATE SCHEMA ${s.notExists ? 'IF NOT EXISTS ' : ''}${formatQualifiedName(s.name)}${properties(s.properties)}`;
    case 'DropSchema':
      return `DROP SCHEMA ${s.exists ? 'IF EXISTS ' : ''}${formatQualifiedName(s.name)}${s.cascade ? ' CASCADE' : ''}`;
    case 'CreateTable':
      return (
        `CREATE TABLE ${s.notExists ? 'IF NOT EXISTS ' : ''}${formatQualifiedName(s.name)} ` +
        `(${s.columns.map(columnDefinition).join(', ')})${comment(s.comment)}${properties(s.properties)}`
      );
    case 'CreateTableAsSelect': {
      const aliases = s.columnAliases ? ` (${s.columnAliases.map(formatIdentifier).join(', ')})` : '';
      return (
        `CREATE TABLE ${s.notExists ? 'IF NOT EXISTS ' : ''}${formatQualifiedName(s.name)}${aliases}` +
        `${comment(s.comment)}${properties(s.properties)} AS ${formatQuery(s.query)}${s.withData ? '' : ' WITH NO DATA'}`
      );
    }
    case 'Insert': {
      const columns = s.columns ? ` (${s.columns.map(formatIdentifier).join(', ')})` : '';
      return `INSERT INTO ${formatQualifiedName(s.target)}${columns} ${formatQuery(s.query)}`;
    }
    case 'Delete':
      return `DELETE FROM ${formatQualifiedName(s.table)}${s.where ? ` WHERE ${formatExpression(s.where)}` : ''}`;
    case 'DropTable':
      return `DROP TABLE ${s.exists ? 'IF EXISTS ' : ''}${formatQualifiedName(s.name)}`;
    case 'CreateIndex':
      return (
        `CREATE ${s.unique ? 'UNIQUE ' : ''}INDEX ${s.notExists ? 'IF NOT EXISTS ' : ''}${formatQualifiedName(s.name)} ` +
        `ON ${formatQualifiedName(s.table)} (${s.columns.map(formatIdentifier).join(', ')})`
      );
  }
}

export function formatQuery(query: Query): string {
  const parts: string[] = [];
  if (query.with) {
    const ctes = query.with.queries.map((q) => {
      const aliases = q.columnAliases ? ` (${q.columnAliases.map(formatIdentifier).join(', ')})` : '';
      return `${formatIdentifier(q.name)}${aliases} AS (${formatQuery(q.query)})`;
    });
    parts.push(`WITH ${query.with.recursive ? 'RECURSIVE ' : ''}${ctes.join(', ')}`);
  }
  parts.push(formatQueryBody(query.body));
  parts.push(...orderAndLimit(query.orderBy, query.offset, query.limit));
  return parts.join(' ');
}

function orderAndLimit(orderBy: SortItem[], offset?: Expression, limit?: Expression | 'ALL'): string[] {
  const parts: string[] = [];
  if (orderBy.length) parts.push(`ORDER BY ${expressions.sortItems(orderBy)}`);
  if (offset) parts.push(`OFFSET ${formatExpression(offset)} ROWS`);
  if (limit) parts.push(`LIMIT ${limit === 'ALL' ? 'ALL' : formatExpression(limit)}`);
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
    case 'SetOperation':
      return `${formatQueryBody(body.left)} ${body.operator}${body.distinct ? '' : ' ALL'} ${formatQueryBody(body.right)}`;
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
      return element.expressions.length === 1 ? formatExpression(element.expressions[0]) : `(${list(element.expressions)})`;
    case 'GroupingSets':
      return `GROUPING SETS (${element.sets.map((set) => `(${list(set)})`).join(', ')})`;
    case 'Rollup':
      return `ROLLUP (${list(element.expressions)})`;
    case 'Cube':
      return `CUBE (${list(element.expressions)})`;
  }
}

export function formatRelation(relation: Relation): string {
  switch (relation.kind) {
    case 'Table':
      return formatQualifiedName(relation.name);
    case 'AliasedRelation': {
      const inner = relation.relation.kind === 'Join' ? `(${formatRelation(relation.relation)})` : formatRelation(relation.relation);
      const columns = relation.columnNames ? ` (${relation.columnNames.map(formatIdentifier).join(', ')})` : '';
      return `${inner} AS ${formatIdentifier(relation.alias)}${columns}`;
    }
    case 'SubqueryRelation':
      return `(${formatQuery(relation.query)})`;
    case 'ValuesRelation':
      return `(VALUES ${list(relation.values.rows)})`;
    case 'Join': {
      const left = formatRelation(relation.left);
      // A join on the right side only comes from parentheses in the source.
      const right = relation.right.kind === 'Join' ? `(${formatRelation(relation.right)})` : formatRelation(relation.right);
      if (relation.type === 'IMPLICIT') return `${left}, ${right}`;
      if (relation.type === 'CROSS') return `${left} CROSS JOIN ${right}`;
      const type = relation.type === 'INNER' ? 'JOIN' : `${relation.type} JOIN`;
      const criteria = relation.criteria;
      if (criteria?.kind === 'NaturalJoin') return `${left} NATURAL ${type} ${right}`;
      if (criteria?.kind === 'JoinUsing') return `${left} ${type} ${right} USING (${criteria.columns.map(formatIdentifier).join(', ')})`;
      if (criteria?.kind === 'JoinOn') return `${left} ${type} ${right} ON ${formatExpression(criteria.expression)}`;
      return `${left} ${type} ${right}`;
    }
  }
}

function list(items: Expression[]): string {
  return items.map(formatExpression).join(', ');
}

function like(s: { like?: string; escape?: string }): string {
  if (s.like === undefined) return '';
  return ` LIKE ${formatStringLiteral(s.like)}${s.escape !== undefined ? ` ESCAPE ${formatStringLiteral(s.escape)}` : ''}`;
}

function comment(text: string | undefined): string {
  return text === undefined ? '' : ` COMMENT ${formatStringLiteral(text)}`;
}

function properties(props: Property[]): string {
  if (props.length === 0) return '';
  return ` WITH (${props.map((p) => `${formatIdentifier(p.name)} = ${p.value ? formatExpression(p.value) : 'DEFAULT'}`).join(', ')})`;
}

function columnDefinition(column: ColumnDefinition): string {
  const constraint = column.constraint ? ` ${column.constraint}` : '';
  return `${formatIdentifier(column.name)} ${formatType(column.type)}${column.nullable ? '' : ' NOT NULL'}${constraint}${comment(column.comment)}${properties(column.properties ?? [])}`;
}
