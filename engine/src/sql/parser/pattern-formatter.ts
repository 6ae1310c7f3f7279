// SQL text of row pattern recognition clauses (MATCH_RECOGNIZE and window frames): MEASURES, AFTER
// MATCH SKIP, INITIAL / SEEK, PATTERN with parentheses where the pattern's precedence needs them,
// SUBSET and DEFINE.

import type {
  Expression,
  MeasureDefinition,
  PatternQuantifier,
  RowPattern,
  RowsPerMatch,
  SkipTo,
  SubsetDefinition,
  VariableDefinition,
} from './ast.js';
import { formatIdentifier } from './expression-formatter.js';

/** What these formatters need of the expression formatter. */
export interface ExpressionPrinter {
  format(e: Expression): string;
}

// Binding strength of pattern forms: alternation < concatenation < quantified < primary.
const ALTERNATION = 1;
const CONCATENATION = 2;
const QUANTIFIED = 3;
const PRIMARY = 4;

export function formatMeasures(measures: MeasureDefinition[], printer: ExpressionPrinter): string {
  if (measures.length === 0) return '';
  return `MEASURES ${measures.map((m) => `${printer.format(m.expression)} AS ${formatIdentifier(m.name)}`).join(', ')}`;
}

export function formatRowsPerMatch(rows: RowsPerMatch): string {
  const handling: Record<RowsPerMatch, string> = {
    ONE: 'ONE ROW PER MATCH',
    ALL: 'ALL ROWS PER MATCH',
    ALL_SHOW_EMPTY: 'ALL ROWS PER MATCH SHOW EMPTY MATCHES',
    ALL_OMIT_EMPTY: 'ALL ROWS PER MATCH OMIT EMPTY MATCHES',
    ALL_WITH_UNMATCHED: 'ALL ROWS PER MATCH WITH UNMATCHED ROWS',
  };
  return handling[rows];
}

/** AFTER MATCH ..., INITIAL | SEEK, PATTERN (...), SUBSET ..., DEFINE ... (those present). */
export function formatPatternClauses(
  clauses: {
    afterMatchSkipTo?: SkipTo;
    searchMode?: string;
    pattern?: RowPattern;
    subsets: SubsetDefinition[];
    variableDefinitions: VariableDefinition[];
  },
  printer: ExpressionPrinter,
): string {
  const parts: string[] = [];
  if (clauses.afterMatchSkipTo) parts.push(`AFTER MATCH ${formatSkipTo(clauses.afterMatchSkipTo)}`);
  if (clauses.searchMode) parts.push(clauses.searchMode);
  if (clauses.pattern) parts.push(`PATTERN (${formatRowPattern(clauses.pattern)})`);
  if (clauses.subsets.length > 0) {
    parts.push(
      `SUBSET ${clauses.subsets.map((s) => `${formatIdentifier(s.name)} = (${s.union.map(formatIdentifier).join(', ')})`).join(', ')}`,
    );
  }
  if (clauses.variableDefinitions.length > 0) {
    parts.push(
      `DEFINE ${clauses.variableDefinitions.map((d) => `${formatIdentifier(d.name)} AS ${printer.format(d.expression)}`).join(', ')}`,
    );
  }
  return parts.join(' ');
}

function formatSkipTo(skip: SkipTo): string {
  switch (skip.target) {
    case 'NEXT_ROW':
      return 'SKIP TO NEXT ROW';
    case 'PAST_LAST_ROW':
      return 'SKIP PAST LAST ROW';
    case 'VARIABLE':
      return `SKIP TO ${formatIdentifier(skip.variable)}`;
    default:
      return `SKIP TO ${skip.target} ${formatIdentifier(skip.variable)}`;
  }
}

export function formatRowPattern(pattern: RowPattern): string {
  return at(pattern, ALTERNATION);
}

function at(pattern: RowPattern, required: number): string {
  const [text, strength] = withStrength(pattern);
  return strength < required ? `(${text})` : text;
}

function withStrength(pattern: RowPattern): [string, number] {
  switch (pattern.kind) {
    case 'PatternAlternation':
      return [pattern.patterns.map((p) => at(p, CONCATENATION)).join(' | '), ALTERNATION];
    case 'PatternConcatenation':
      return [pattern.patterns.map((p) => at(p, QUANTIFIED)).join(' '), CONCATENATION];
    case 'QuantifiedPattern':
      return [`${at(pattern.pattern, PRIMARY)}${formatQuantifier(pattern.quantifier)}`, QUANTIFIED];
    case 'PatternVariable':
      return [formatIdentifier(pattern.name), PRIMARY];
    case 'EmptyPattern':
      return ['()', PRIMARY];
    case 'AnchorPattern':
      return [pattern.anchor === 'PARTITION_START' ? '^' : '$', PRIMARY];
    case 'PatternPermutation':
      return [`PERMUTE(${pattern.patterns.map(formatRowPattern).join(', ')})`, PRIMARY];
    case 'ExcludedPattern':
      return [`{- ${formatRowPattern(pattern.pattern)} -}`, PRIMARY];
  }
}

function formatQuantifier(q: PatternQuantifier): string {
  const base = { ZERO_OR_MORE: '*', ONE_OR_MORE: '+', ZERO_OR_ONE: '?', RANGE: `{${q.atLeast ?? ''},${q.atMost ?? ''}}` }[q.type];
  return q.greedy ? base : `${base}?`;
}
