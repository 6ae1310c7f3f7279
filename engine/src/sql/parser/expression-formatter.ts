// SQL text from expression ASTs. Parentheses are added exactly where precedence needs them, so the
// text parses back to an equal AST.

import type {
  Expression,
  FrameBound,
  FunctionCall,
  Identifier,
  IntervalLiteral,
  QualifiedName,
  Query,
  SortItem,
  TypeSpec,
  WindowFrame,
  WindowSpecification,
} from './ast.js';
import { formatJsonExpression } from './json-formatter.js';
import { RESERVED_WORDS } from './keywords.js';
import { formatPatternClauses, formatMeasures } from './pattern-formatter.js';

// Binding strength of each expression form when printed; operands below the required level get parentheses.
// A lambda binds loosest: its body takes all that follows.
const LAMBDA = 0;
const OR = 1;
const AND = 2;
const NOT = 3;
const PREDICATE = 4;
const CONCAT = 5;
const ADDITIVE = 6;
const MULTIPLICATIVE = 7;
const UNARY = 8;
const AT_TIME_ZONE = 9;
const PRIMARY = 10;

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
  if (type.fields)
    return `row(${type.fields.map((f) => (f.name ? `${formatIdentifier(f.name)} ${formatType(f.type)}` : formatType(f.type))).join(', ')})`;
  if (type.intervalPrecision) {
    const { leading, fractional } = type.intervalPrecision;
    const [start, end] = type.name === 'interval year to month' ? ['year', 'month'] : ['day', 'second'];
    return `interval ${start}${leading === undefined ? '' : `(${leading})`} to ${end}${fractional === undefined ? '' : `(${fractional})`}`;
  }
  const all = [...type.parameters.map(String), ...(type.typeParameters ?? []).map(formatType)];
  const parameters = all.length ? `(${all.join(',')})` : '';
  const zone = / with time zone$/.exec(type.name);
  if (zone) return `${type.name.slice(0, zone.index)}${parameters} with time zone`;
  return `${type.name}${parameters}`;
}

/** `INTERVAL -'1' DAY(2) TO SECOND(3)` */
export function formatIntervalLiteral(e: IntervalLiteral): string {
  const sign = e.sign === -1 ? '-' : '';
  const { leading, fractional } = e.precision ?? {};
  const startPrecision =
    leading === undefined
      ? ''
      : e.startField === 'SECOND' && !e.endField && fractional !== undefined
        ? `(${leading}, ${fractional})`
        : `(${leading})`;
  const endPrecision = e.endField === 'SECOND' && fractional !== undefined ? `(${fractional})` : '';
  const end = e.endField ? ` TO ${e.endField}${endPrecision}` : '';
  return `INTERVAL ${sign}${formatStringLiteral(e.value)} ${e.startField}${startPrecision}${end}`;
}

export class ExpressionFormatter {
  constructor(private readonly formatQuery: QueryFormatter) {}

  format(e: Expression): string {
    return this.at(e, LAMBDA);
  }

  /** `e` printed where at least `required` binding strength is needed. */
  at(e: Expression, required: number): string {
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
      case 'BooleanTest':
        return [`${this.value(e.value)} IS ${e.negated ? 'NOT ' : ''}${e.truthValue}`, PREDICATE];
      case 'MatchPredicate': {
        const options = [e.unique && 'UNIQUE', e.matchType].filter(Boolean).join(' ');
        return [`${this.value(e.value)} MATCH ${options ? `${options} ` : ''}(${this.formatQuery(e.query)})`, PREDICATE];
      }
      case 'Lambda': {
        const parameters =
          e.parameters.length === 1 ? formatIdentifier(e.parameters[0]) : `(${e.parameters.map(formatIdentifier).join(', ')})`;
        return [`${parameters} -> ${this.format(e.body)}`, LAMBDA];
      }
      case 'NamedArgument':
        return [`${formatIdentifier(e.name)} => ${this.format(e.value)}`, LAMBDA];
      case 'AtTimeZone': {
        const zone = e.zone ? `TIME ZONE ${this.format(e.zone)}` : 'LOCAL';
        return [`${this.at(e.value, PRIMARY)} AT ${zone}`, AT_TIME_ZONE];
      }
      case 'IsDistinctFrom':
        return [`${this.value(e.left)} IS ${e.negated ? 'NOT ' : ''}DISTINCT FROM ${this.value(e.right)}`, PREDICATE];
      case 'Between': {
        const symmetry = e.symmetry ? `${e.symmetry} ` : '';
        return [`${this.value(e.value)} ${not(e.negated)}BETWEEN ${symmetry}${this.value(e.min)} AND ${this.value(e.max)}`, PREDICATE];
      }
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
        const signed = e.value.kind === 'ArithmeticUnary' || isNegativeLiteral(e.value);
        const operand = signed ? `(${this.format(e.value)})` : this.at(e.value, UNARY);
        return [`${e.operator}${operand}`, UNARY];
      }
      case 'LongLiteral':
        // A negative literal (`-5`) binds as its sign does.
        return [e.text, isNegativeLiteral(e) ? UNARY : PRIMARY];
      default:
        return [this.primary(e), PRIMARY];
    }
  }

  /** An operand of a predicate: any value expression, predicates and boolean forms parenthesised. */
  value(e: Expression): string {
    return this.at(e, CONCAT);
  }

  list(items: Expression[]): string {
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
      case 'IntervalLiteral':
        return formatIntervalLiteral(e);
      case 'Parameter':
        return '?';
      case 'Exists':
        return `EXISTS (${this.formatQuery(e.query)})`;
      case 'Unique':
        return `UNIQUE (${this.formatQuery(e.query)})`;
      case 'Array':
        return `ARRAY[${this.list(e.items)}]`;
      case 'Subscript':
        return `${this.at(e.base, PRIMARY)}[${this.value(e.index)}]`;
      case 'MethodCall':
        return `${this.at(e.base, PRIMARY)}.${formatIdentifier(e.method)}(${this.list(e.args)})`;
      case 'StaticMethodCall':
        return `${formatQualifiedName(e.target)}::${formatIdentifier(e.method)}(${this.list(e.args)})`;
      case 'Measure':
        return `${formatIdentifier(e.name)} OVER ${this.over(e.window)}`;
      case 'Overlay': {
        const length = e.length ? ` FOR ${this.value(e.length)}` : '';
        return `OVERLAY(${this.value(e.value)} PLACING ${this.value(e.replacement)} FROM ${this.value(e.start)}${length})`;
      }
      case 'CaseOperand':
        return '';
      case 'JsonExists':
      case 'JsonValue':
      case 'JsonQuery':
      case 'JsonObject':
      case 'JsonArray':
        return formatJsonExpression(e, this);
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
      case 'Row': {
        const names = e.fieldNames;
        return `ROW (${e.items.map((item, i) => (names?.[i] ? `${this.format(item)} AS ${formatIdentifier(names[i])}` : this.format(item))).join(', ')})`;
      }
      case 'AllColumns': {
        const target = e.prefix ? `${formatQualifiedName(e.prefix)}.*` : e.target ? `${this.at(e.target, PRIMARY)}.*` : '*';
        return e.aliases ? `${target} AS (${e.aliases.map(formatIdentifier).join(', ')})` : target;
      }
      default:
        // Every non-primary form is handled by formatWithStrength before reaching here.
        return `(${this.format(e)})`;
    }
  }

  private functionCall(call: FunctionCall): string {
    const name = formatQualifiedName(call.name);
    const niladic = call.name.parts.length === 1 && !call.name.parts[0].quoted && RESERVED_WORDS.has(name.toUpperCase());
    if (niladic && call.args.length === 0 && !call.starArg && /^current_/.test(name)) return name;
    // trim's and normalize's arguments are value expressions in Trino's grammar; normalize's form is a word.
    const args = call.starArg
      ? '*'
      : call.args
          .map((arg, i) =>
            name === 'normalize' && i === 1 && arg.kind === 'StringLiteral'
              ? arg.value
              : name === 'trim' || name === 'normalize'
                ? this.value(arg)
                : this.format(arg),
          )
          .join(', ');
    let text = `${call.processingMode ? `${call.processingMode} ` : ''}${name}(${call.distinct ? 'DISTINCT ' : ''}${args}`;
    const overflow = call.listaggOverflow;
    if (overflow?.behavior === 'ERROR') text += ' ON OVERFLOW ERROR';
    if (overflow?.behavior === 'TRUNCATE') {
      text += ` ON OVERFLOW TRUNCATE${overflow.filler === undefined ? '' : ` ${formatStringLiteral(overflow.filler)}`} ${overflow.withCount ? 'WITH' : 'WITHOUT'} COUNT`;
    }
    if (call.orderBy?.length) text += ` ORDER BY ${this.sortItems(call.orderBy)}`;
    text += ')';
    if (call.withinGroup) text += ` WITHIN GROUP (ORDER BY ${this.sortItems(call.withinGroup)})`;
    if (call.filter) text += ` FILTER (WHERE ${this.format(call.filter)})`;
    if (call.nullTreatment) text += ` ${call.nullTreatment} NULLS`;
    if (call.window) text += ` OVER ${this.over(call.window)}`;
    return text;
  }

  private over(window: WindowSpecification | Identifier): string {
    return window.kind === 'Identifier' ? formatIdentifier(window) : this.window(window);
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
    if (spec.frame) parts.push(this.frame(spec.frame));
    return `(${parts.join(' ')})`;
  }

  private frame(frame: WindowFrame): string {
    const { unit, start, end, patternRecognition } = frame;
    const extent = end ? `${unit} BETWEEN ${this.bound(start)} AND ${this.bound(end)}` : `${unit} ${this.bound(start)}`;
    if (!patternRecognition) return extent;
    return [formatMeasures(patternRecognition.measures, this), extent, formatPatternClauses(patternRecognition, this)]
      .filter(Boolean)
      .join(' ');
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

function isNegativeLiteral(e: Expression): boolean {
  return e.kind === 'LongLiteral' && e.value < 0n;
}
