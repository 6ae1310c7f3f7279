// SQL text from expression ASTs. Parentheses are added exactly where precedence needs them, so the
// text parses back to an equal AST.

import type { Expression, FunctionCall, Identifier, QualifiedName, Query, SortItem, TypeSpec, WindowSpecification, FrameBound } from './ast.js';
import { RESERVED_WORDS } from './keywords.js';

// Binding strength of each expression form when printed; operands below the required level get parentheses.
const OR = 1;
const AND = 2;
const NOT = 3;
const PREDICATE = 4;
const CONCAT = 5;
const ADDITIVE = 6;
const MULTIPLICATIVE = 7;
const UNARY = 8;
const PRIMARY = 9;

/** Formats queries nested in expressions (subqueries); set by formatter.ts to avoid an import cycle. */
export type QueryFormatter = (query: Query) => string;

export function formatIdentifier(id: Identifier): string {
  return id.quoted ? `"${id.value.replace(/"/g, '""')}"` : id.value;
}

export function formatQualifiedName(name: QualifiedName): string {
  return name.parts.map(formatIdentifier).join('.');
}

export function formatStringLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function formatType(type: TypeSpec): string {
  const parameters = type.parameters.length ? `(${type.parameters.join(',')})` : '';
  const zone = / with time zone$/.exec(type.name);
  if (zone) return `${type.name.slice(0, zone.index)}${parameters} with time zone`;
  return `${type.name}${parameters}`;
}

export class ExpressionFormatter {
  constructor(private readonly formatQuery: QueryFormatter) {}

  format(e: Expression): string {
    return this.at(e, OR);
  }

  /** `e` printed where at least `required` binding strength is needed. */
  private at(e: Expression, required: number): string {
    const [text, strength] = this.formatWithStrength(e);
    return strength < required ? `(${text})` : text;
  }

  private formatWithStrength(e: Expression): [string, number] {
    switch (e.kind) {
      case 'LogicalBinary': {
        const level = e.operator === 'OR' ? OR : AND;
        return [`${this.at(e.left, level)} ${e.operator} ${this.at(e.right, level + 1)}`, level];
      }
      case 'Not':
        return [`NOT ${this.at(e.value, NOT)}`, NOT];
      case 'Comparison':
        return [`${this.value(e.left)} ${e.operator} ${this.value(e.right)}`, PREDICATE];
      case 'QuantifiedComparison':
        return [`${this.value(e.value)} ${e.operator} ${e.quantifier} (${this.formatQuery(e.query)})`, PREDICATE];
      case 'IsNull':
        return [`${this.value(e.value)} IS ${e.negated ? 'NOT ' : ''}NULL`, PREDICATE];
      case 'IsDistinctFrom':
        return [`${this.value(e.left)} IS ${e.negated ? 'NOT ' : ''}DISTINCT FROM ${this.value(e.right)}`, PREDICATE];
      case 'Between':
        return [`${this.value(e.value)} ${not(e.negated)}BETWEEN ${this.value(e.min)} AND ${this.value(e.max)}`, PREDICATE];
      case 'InList':
        return [`${this.value(e.value)} ${not(e.negated)}IN (${this.list(e.list)})`, PREDICATE];
      case 'InSubquery':
        return [`${this.value(e.value)} ${not(e.negated)}IN (${this.formatQuery(e.query)})`, PREDICATE];
      case 'Like': {
        const escape = e.escape ? ` ESCAPE ${this.value(e.escape)}` : '';
        return [`${this.value(e.value)} ${not(e.negated)}LIKE ${this.value(e.pattern)}${escape}`, PREDICATE];
      }
      case 'Concat':
        return [`${this.at(e.left, CONCAT)} || ${this.at(e.right, CONCAT + 1)}`, CONCAT];
      case 'ArithmeticBinary': {
        const level = e.operator === '+' || e.operator === '-' ? ADDITIVE : MULTIPLICATIVE;
        return [`${this.at(e.left, level)} ${e.operator} ${this.at(e.right, level + 1)}`, level];
      }
      case 'ArithmeticUnary': {
        // A nested sign is parenthesised so `- -x` never prints as the comment `--x`.
        const operand = e.value.kind === 'ArithmeticUnary' ? `(${this.format(e.value)})` : this.at(e.value, UNARY);
        return [`${e.operator}${operand}`, UNARY];
      }
      default:
        return [this.primary(e), PRIMARY];
    }
  }

  /** An operand of a predicate: any value expression, predicates and boolean forms parenthesised. */
  private value(e: Expression): string {
    return this.at(e, CONCAT);
  }

  private list(items: Expression[]): string {
    return items.map((item) => this.format(item)).join(', ');
  }

  private primary(e: Expression): string {
    switch (e.kind) {
      case 'Identifier':
        return formatIdentifier(e);
      case 'Dereference':
        return `${this.at(e.base, PRIMARY)}.${formatIdentifier(e.field)}`;
      case 'NullLiteral':
        return 'NULL';
      case 'BooleanLiteral':
        return e.value ? 'TRUE' : 'FALSE';
      case 'LongLiteral':
        return e.text;
      case 'DecimalLiteral':
      case 'DoubleLiteral':
        return e.text;
      case 'StringLiteral':
        return formatStringLiteral(e.value);
      case 'BinaryLiteral':
        return `X'${e.hex}'`;
      case 'GenericLiteral':
        return `${formatType(e.type).toUpperCase()} ${formatStringLiteral(e.value)}`;
      case 'IntervalLiteral': {
        const sign = e.sign === -1 ? '-' : '';
        return `INTERVAL ${sign}${formatStringLiteral(e.value)} ${e.startField}${e.endField ? ` TO ${e.endField}` : ''}`;
      }
      case 'Parameter':
        return '?';
      case 'Exists':
        return `EXISTS (${this.formatQuery(e.query)})`;
      case 'Subquery':
        return `(${this.formatQuery(e.query)})`;
      case 'SearchedCase':
      case 'SimpleCase': {
        const parts = ['CASE'];
        if (e.kind === 'SimpleCase') parts.push(this.format(e.operand));
        for (const when of e.whenClauses) parts.push(`WHEN ${this.format(when.operand)} THEN ${this.format(when.result)}`);
        if (e.defaultValue) parts.push(`ELSE ${this.format(e.defaultValue)}`);
        parts.push('END');
        return parts.join(' ');
      }
      case 'Cast':
        return `${e.safe ? 'TRY_CAST' : 'CAST'}(${this.format(e.value)} AS ${formatType(e.type)})`;
      case 'Extract':
        return `EXTRACT(${e.field} FROM ${this.value(e.value)})`;
      case 'FunctionCall':
        return this.functionCall(e);
      case 'CurrentTime':
        return e.precision === undefined ? e.function : `${e.function}(${e.precision})`;
      case 'Row':
        return `ROW (${this.list(e.items)})`;
      case 'AllColumns':
        return e.prefix ? `${formatQualifiedName(e.prefix)}.*` : '*';
      default:
        // Every non-primary form is handled by formatWithStrength before reaching here.
        return `(${this.format(e)})`;
    }
  }

  private functionCall(call: FunctionCall): string {
    const name = formatQualifiedName(call.name);
    const niladic = call.name.parts.length === 1 && !call.name.parts[0].quoted && RESERVED_WORDS.has(name.toUpperCase());
    if (niladic && call.args.length === 0 && !call.starArg && /^current_/.test(name)) return name;
    // trim's arguments are value expressions in Trino's grammar.
    const args = call.starArg
      ? '*'
      : call.args.map((arg) => (name === 'trim' ? this.value(arg) : this.format(arg))).join(', ');
    let text = `${name}(${call.distinct ? 'DISTINCT ' : ''}${args}`;
    if (call.orderBy?.length) text += ` ORDER BY ${this.sortItems(call.orderBy)}`;
    text += ')';
    if (call.filter) text += ` FILTER (WHERE ${this.format(call.filter)})`;
    if (call.nullTreatment) text += ` ${call.nullTreatment} NULLS`;
    if (call.window) {
      text += call.window.kind === 'Identifier' ? ` OVER ${formatIdentifier(call.window)}` : ` OVER ${this.window(call.window)}`;
    }
    return text;
  }

  sortItems(items: SortItem[]): string {
    return items
      .map((item) => `${this.format(item.key)} ${item.ordering}${item.nullOrdering ? ` NULLS ${item.nullOrdering}` : ''}`)
      .join(', ');
  }

  window(spec: WindowSpecification): string {
    const parts: string[] = [];
    if (spec.existingWindowName) parts.push(formatIdentifier(spec.existingWindowName));
    if (spec.partitionBy.length) parts.push(`PARTITION BY ${this.list(spec.partitionBy)}`);
    if (spec.orderBy.length) parts.push(`ORDER BY ${this.sortItems(spec.orderBy)}`);
    if (spec.frame) {
      const { unit, start, end } = spec.frame;
      parts.push(end ? `${unit} BETWEEN ${this.bound(start)} AND ${this.bound(end)}` : `${unit} ${this.bound(start)}`);
    }
    return `(${parts.join(' ')})`;
  }

  private bound(bound: FrameBound): string {
    switch (bound.type) {
      case 'UNBOUNDED_PRECEDING':
        return 'UNBOUNDED PRECEDING';
      case 'UNBOUNDED_FOLLOWING':
        return 'UNBOUNDED FOLLOWING';
      case 'CURRENT_ROW':
        return 'CURRENT ROW';
      default:
        return `${bound.value ? this.format(bound.value) : ''} ${bound.type}`;
    }
  }
}

function not(negated: boolean): string {
  return negated ? 'NOT ' : '';
}
