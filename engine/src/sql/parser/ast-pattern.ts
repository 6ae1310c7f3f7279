// Row pattern recognition: MATCH_RECOGNIZE in FROM, and MEASURES / PATTERN / DEFINE in a window frame.

import type { Expression, Identifier, NodeBase, Relation, SortItem } from './ast.js';

/** `input MATCH_RECOGNIZE (...)`, located at MATCH_RECOGNIZE; an alias after it wraps it in an AliasedRelation. */
export interface PatternRecognitionRelation extends NodeBase {
  kind: 'PatternRecognitionRelation';
  input: Relation;
  partitionBy: Expression[];
  orderBy: SortItem[];
  measures: MeasureDefinition[];
  rowsPerMatch?: RowsPerMatch;
  afterMatchSkipTo?: SkipTo;
  searchMode?: 'INITIAL' | 'SEEK';
  pattern: RowPattern;
  subsets: SubsetDefinition[];
  variableDefinitions: VariableDefinition[];
}

/** ONE ROW PER MATCH, ALL ROWS PER MATCH [SHOW EMPTY MATCHES | OMIT EMPTY MATCHES | WITH UNMATCHED ROWS]. */
export type RowsPerMatch = 'ONE' | 'ALL' | 'ALL_SHOW_EMPTY' | 'ALL_OMIT_EMPTY' | 'ALL_WITH_UNMATCHED';

/** The pattern clauses of a window frame: MEASURES before the extent, the rest after it. */
export interface FramePatternRecognition extends NodeBase {
  kind: 'FramePatternRecognition';
  measures: MeasureDefinition[];
  afterMatchSkipTo?: SkipTo;
  searchMode?: 'INITIAL' | 'SEEK';
  pattern?: RowPattern;
  subsets: SubsetDefinition[];
  variableDefinitions: VariableDefinition[];
}

/** `expression AS name` in MEASURES. */
export interface MeasureDefinition extends NodeBase {
  kind: 'MeasureDefinition';
  expression: Expression;
  name: Identifier;
}

/** AFTER MATCH SKIP TO NEXT ROW | SKIP PAST LAST ROW | SKIP TO FIRST v | SKIP TO LAST v | SKIP TO v. */
export type SkipTo =
  | { kind: 'SkipTo'; target: 'NEXT_ROW' | 'PAST_LAST_ROW'; location: NodeBase['location'] }
  | { kind: 'SkipTo'; target: 'FIRST' | 'LAST' | 'VARIABLE'; variable: Identifier; location: NodeBase['location'] };

/** `SUBSET name = (a, b)` */
export interface SubsetDefinition extends NodeBase {
  kind: 'SubsetDefinition';
  name: Identifier;
  union: Identifier[];
}

/** `name AS condition` in DEFINE. */
export interface VariableDefinition extends NodeBase {
  kind: 'VariableDefinition';
  name: Identifier;
  expression: Expression;
}

export type RowPattern =
  | PatternVariable
  | EmptyPattern
  | AnchorPattern
  | PatternPermutation
  | ExcludedPattern
  | QuantifiedPattern
  | PatternConcatenation
  | PatternAlternation;

export interface PatternVariable extends NodeBase {
  kind: 'PatternVariable';
  name: Identifier;
}
/** `()` */
export interface EmptyPattern extends NodeBase {
  kind: 'EmptyPattern';
}
/** `^` (partition start) or `$` (partition end). */
export interface AnchorPattern extends NodeBase {
  kind: 'AnchorPattern';
  anchor: 'PARTITION_START' | 'PARTITION_END';
}
/** `PERMUTE(a, b, c)` */
export interface PatternPermutation extends NodeBase {
  kind: 'PatternPermutation';
  patterns: RowPattern[];
}
/** `{- pattern -}`: matched but left out of the output. */
export interface ExcludedPattern extends NodeBase {
  kind: 'ExcludedPattern';
  pattern: RowPattern;
}
export interface QuantifiedPattern extends NodeBase {
  kind: 'QuantifiedPattern';
  pattern: RowPattern;
  quantifier: PatternQuantifier;
}
/** `*`, `+`, `?`, `{n}`, `{n,}`, `{,m}`, `{n,m}`; a trailing `?` makes it reluctant (greedy false). */
export interface PatternQuantifier extends NodeBase {
  kind: 'PatternQuantifier';
  type: 'ZERO_OR_MORE' | 'ONE_OR_MORE' | 'ZERO_OR_ONE' | 'RANGE';
  greedy: boolean;
  atLeast?: number;
  atMost?: number;
}
/** `a b c` */
export interface PatternConcatenation extends NodeBase {
  kind: 'PatternConcatenation';
  patterns: RowPattern[];
}
/** `a | b | c` */
export interface PatternAlternation extends NodeBase {
  kind: 'PatternAlternation';
  patterns: RowPattern[];
}
