// SQL text of the SQL/JSON forms: JSON_EXISTS, JSON_VALUE, JSON_QUERY, JSON_OBJECT, JSON_ARRAY and JSON_TABLE.

import type {
  JsonExpression,
  JsonFormat,
  JsonPathInvocation,
  JsonQueryBehavior,
  JsonQuotes,
  JsonTable,
  JsonTableColumn,
  JsonTablePlan,
  JsonValueBehavior,
  JsonValueExpression,
  JsonWrapper,
  TypeSpec,
} from './ast.js';
import { formatIdentifier, formatStringLiteral, formatType } from './expression-formatter.js';
import type { ExpressionPrinter } from './pattern-formatter.js';

export function formatJsonExpression(e: JsonExpression, p: ExpressionPrinter): string {
  switch (e.kind) {
    case 'JsonExists':
      return `JSON_EXISTS(${invocation(e.invocation, p)}${e.onError ? ` ${e.onError} ON ERROR` : ''})`;
    case 'JsonValue':
      return `JSON_VALUE(${invocation(e.invocation, p)}${returning(e.returning)}${behaviors(e.onEmpty, e.onError, (b) => valueBehavior(b, p))})`;
    case 'JsonQuery':
      return `JSON_QUERY(${invocation(e.invocation, p)}${returning(e.returning, e.returningFormat)}${queryOptions(e)})`;
    case 'JsonObject': {
      const members = e.members.map((m) => `${p.format(m.key)} VALUE ${valueExpression(m.value, p)}`).join(', ');
      const unique = e.uniqueKeys === undefined ? '' : ` ${e.uniqueKeys ? 'WITH' : 'WITHOUT'} UNIQUE KEYS`;
      return `JSON_OBJECT(${members}${nullOnNull(e.nullOnNull)}${unique}${returning(e.returning, e.returningFormat)})`;
    }
    case 'JsonArray': {
      const elements = e.elements.map((v) => valueExpression(v, p)).join(', ');
      return `JSON_ARRAY(${elements}${nullOnNull(e.nullOnNull)}${returning(e.returning, e.returningFormat)})`;
    }
  }
}

export function formatJsonTable(t: JsonTable, p: ExpressionPrinter): string {
  const plan = !t.plan
    ? ''
    : t.plan.kind === 'JsonTableDefaultPlan'
      ? ` PLAN DEFAULT (${[t.plan.parentChild, t.plan.siblings].filter(Boolean).join(', ')})`
      : ` PLAN (${formatPlan(t.plan)})`;
  return `JSON_TABLE(${invocation(t.invocation, p)} ${columns(t.columns, p)}${plan}${t.onError ? ` ${t.onError} ON ERROR` : ''})`;
}

function invocation(i: JsonPathInvocation, p: ExpressionPrinter): string {
  const name = i.pathName ? ` AS ${formatIdentifier(i.pathName)}` : '';
  const passing = i.passing.length
    ? ` PASSING ${i.passing.map((a) => `${valueExpression(a.value, p)} AS ${formatIdentifier(a.name)}`).join(', ')}`
    : '';
  return `${valueExpression(i.input, p)}, ${formatStringLiteral(i.path)}${name}${passing}`;
}

function valueExpression(v: JsonValueExpression, p: ExpressionPrinter): string {
  return `${p.format(v.value)}${v.format ? ` FORMAT ${v.format}` : ''}`;
}

function returning(type: TypeSpec | undefined, format?: JsonFormat): string {
  return type ? ` RETURNING ${formatType(type)}${format ? ` FORMAT ${format}` : ''}` : '';
}

function nullOnNull(value: boolean | undefined): string {
  return value === undefined ? '' : value ? ' NULL ON NULL' : ' ABSENT ON NULL';
}

function behaviors<T>(onEmpty: T | undefined, onError: T | undefined, format: (b: T) => string): string {
  return `${onEmpty === undefined ? '' : ` ${format(onEmpty)} ON EMPTY`}${onError === undefined ? '' : ` ${format(onError)} ON ERROR`}`;
}

function valueBehavior(b: JsonValueBehavior, p: ExpressionPrinter): string {
  return b.type === 'DEFAULT' ? `DEFAULT ${p.format(b.value)}` : b.type;
}

function queryOptions(o: { wrapper?: JsonWrapper; quotes?: JsonQuotes; onEmpty?: JsonQueryBehavior; onError?: JsonQueryBehavior }): string {
  const wrapper = o.wrapper === undefined ? '' : o.wrapper === 'WITHOUT' ? ' WITHOUT ARRAY WRAPPER' : ` WITH ${o.wrapper} ARRAY WRAPPER`;
  const quotes = o.quotes ? ` ${o.quotes.keep ? 'KEEP' : 'OMIT'} QUOTES${o.quotes.onScalarString ? ' ON SCALAR STRING' : ''}` : '';
  return `${wrapper}${quotes}${behaviors(o.onEmpty, o.onError, (b) => b)}`;
}

function columns(list: JsonTableColumn[], p: ExpressionPrinter): string {
  return `COLUMNS (${list.map((c) => column(c, p)).join(', ')})`;
}

function column(c: JsonTableColumn, p: ExpressionPrinter): string {
  const path = 'path' in c && c.path !== undefined && c.kind !== 'JsonNestedColumns' ? ` PATH ${formatStringLiteral(c.path)}` : '';
  switch (c.kind) {
    case 'JsonOrdinalityColumn':
      return `${formatIdentifier(c.name)} FOR ORDINALITY`;
    case 'JsonValueColumn':
      return `${formatIdentifier(c.name)} ${formatType(c.type)}${path}${behaviors(c.onEmpty, c.onError, (b) => valueBehavior(b, p))}`;
    case 'JsonQueryColumn':
      return `${formatIdentifier(c.name)} ${formatType(c.type)} FORMAT ${c.format}${path}${queryOptions(c)}`;
    case 'JsonNestedColumns':
      return `NESTED PATH ${formatStringLiteral(c.path)}${c.pathName ? ` AS ${formatIdentifier(c.pathName)}` : ''} ${columns(c.columns, p)}`;
  }
}

function formatPlan(plan: JsonTablePlan): string {
  switch (plan.kind) {
    case 'JsonTablePlanLeaf':
      return formatIdentifier(plan.name);
    case 'JsonTablePlanJoin':
      return `${formatIdentifier(plan.parent)} ${plan.type} ${planPrimary(plan.child)}`;
    case 'JsonTablePlanSiblings':
      return plan.plans.map(planPrimary).join(` ${plan.type} `);
    case 'JsonTableDefaultPlan':
      return `DEFAULT (${[plan.parentChild, plan.siblings].filter(Boolean).join(', ')})`;
  }
}

function planPrimary(plan: JsonTablePlan): string {
  return plan.kind === 'JsonTablePlanLeaf' ? formatPlan(plan) : `(${formatPlan(plan)})`;
}
