// Row pattern recognition clauses, shared by MATCH_RECOGNIZE and window frames: MEASURES, AFTER
// MATCH SKIP, INITIAL / SEEK, PATTERN (a row pattern: variables, `()`, PERMUTE, `^`, `$`, `{- -}`,
// quantifiers, concatenation and `|`), SUBSET and DEFINE.

import type { MeasureDefinition, PatternQuantifier, RowPattern, SkipTo, SubsetDefinition, VariableDefinition } from './ast.js';
import { JsonParser } from './json-parser.js';

/** The clauses after the frame extent (window) or ROWS PER MATCH (MATCH_RECOGNIZE). */
export interface PatternClauses {
  afterMatchSkipTo?: SkipTo;
  searchMode?: 'INITIAL' | 'SEEK';
  pattern?: RowPattern;
  subsets: SubsetDefinition[];
  variableDefinitions: VariableDefinition[];
}

export abstract class PatternParser extends JsonParser {
  /** `MEASURES expression AS name, ...` (nothing when MEASURES is absent). */
  protected parseMeasures(): MeasureDefinition[] {
    if (!this.acceptKeyword('MEASURES')) return [];
    return this.parseCommaList((): MeasureDefinition => {
      const location = this.location();
      const expression = this.parseExpression();
      this.expectKeyword('AS');
      return { kind: 'MeasureDefinition', expression, name: this.parseIdentifier(), location };
    });
  }

  /** [AFTER MATCH skip] [INITIAL | SEEK] [PATTERN (...)] [SUBSET ...] [DEFINE ...] */
  protected parsePatternClauses(): PatternClauses {
    const clauses: PatternClauses = { subsets: [], variableDefinitions: [] };
    if (this.acceptKeywords('AFTER', 'MATCH')) clauses.afterMatchSkipTo = this.parseSkipTo();
    if (this.atKeyword('INITIAL') || this.atKeyword('SEEK')) clauses.searchMode = this.advance().keyword as 'INITIAL' | 'SEEK';
    if (this.acceptKeyword('PATTERN')) {
      this.expectSymbol('(');
      clauses.pattern = this.parseRowPattern();
      this.expectSymbol(')');
    }
    if (this.acceptKeyword('SUBSET')) clauses.subsets = this.parseCommaList(() => this.parseSubsetDefinition());
    if (this.acceptKeyword('DEFINE')) {
      clauses.variableDefinitions = this.parseCommaList((): VariableDefinition => {
        const location = this.location();
        const name = this.parseIdentifier();
        this.expectKeyword('AS');
        return { kind: 'VariableDefinition', name, expression: this.parseExpression(), location };
      });
    }
    return clauses;
  }

  /** After AFTER MATCH: SKIP TO NEXT ROW | SKIP PAST LAST ROW | SKIP TO [FIRST | LAST] variable. */
  private parseSkipTo(): SkipTo {
    const location = this.location();
    this.expectKeyword('SKIP');
    if (this.acceptKeyword('PAST')) {
      this.expectKeywords('LAST', 'ROW');
      return { kind: 'SkipTo', target: 'PAST_LAST_ROW', location };
    }
    this.expectKeyword('TO');
    if (this.acceptKeywords('NEXT', 'ROW')) return { kind: 'SkipTo', target: 'NEXT_ROW', location };
    // FIRST / LAST are also possible variable names: `SKIP TO first` skips to the variable `first`.
    for (const target of ['FIRST', 'LAST'] as const) {
      if (this.isKeyword(target) && this.isIdentifier(this.peek())) {
        this.pos++;
        return { kind: 'SkipTo', target, variable: this.parseIdentifier(), location };
      }
    }
    return { kind: 'SkipTo', target: 'VARIABLE', variable: this.parseIdentifier(), location };
  }

  private parseSubsetDefinition(): SubsetDefinition {
    const location = this.location();
    const name = this.parseIdentifier();
    this.expectSymbol('=');
    return { kind: 'SubsetDefinition', name, union: this.parseIdentifierList(), location };
  }

  /** Alternation binds loosest, then concatenation, then a quantified primary. */
  protected parseRowPattern(): RowPattern {
    const location = this.location();
    const patterns = [this.parsePatternConcatenation()];
    while (this.acceptSymbol('|')) patterns.push(this.parsePatternConcatenation());
    return patterns.length === 1 ? patterns[0] : { kind: 'PatternAlternation', patterns, location };
  }

  private parsePatternConcatenation(): RowPattern {
    const location = this.location();
    const patterns = [this.parseQuantifiedPattern()];
    while (this.startsPatternPrimary()) patterns.push(this.parseQuantifiedPattern());
    return patterns.length === 1 ? patterns[0] : { kind: 'PatternConcatenation', patterns, location };
  }

  private startsPatternPrimary(): boolean {
    return ['(', '^', '$', '{-'].some((s) => this.isSymbol(s)) || this.isIdentifier();
  }

  private parseQuantifiedPattern(): RowPattern {
    const location = this.location();
    this.enter();
    const pattern = this.leave(this.parsePatternPrimary());
    const quantifier = this.parsePatternQuantifier();
    return quantifier ? { kind: 'QuantifiedPattern', pattern, quantifier, location } : pattern;
  }

  private parsePatternPrimary(): RowPattern {
    const location = this.location();
    if (this.acceptSymbol('^')) return { kind: 'AnchorPattern', anchor: 'PARTITION_START', location };
    if (this.acceptSymbol('$')) return { kind: 'AnchorPattern', anchor: 'PARTITION_END', location };
    if (this.acceptSymbol('{-')) {
      const pattern = this.parseRowPattern();
      this.expectSymbol('-}');
      return { kind: 'ExcludedPattern', pattern, location };
    }
    if (this.isKeyword('PERMUTE') && this.isSymbol('(', this.peek())) {
      this.pos += 2;
      const patterns = [this.parseRowPattern()];
      while (this.acceptSymbol(',')) patterns.push(this.parseRowPattern());
      this.expectSymbol(')');
      return { kind: 'PatternPermutation', patterns, location };
    }
    if (this.acceptSymbol('(')) {
      if (this.acceptSymbol(')')) return { kind: 'EmptyPattern', location };
      const pattern = this.parseRowPattern();
      this.expectSymbol(')');
      return pattern;
    }
    return { kind: 'PatternVariable', name: this.parseIdentifier(), location };
  }

  /** `*`, `+`, `?`, `{n}`, `{n,}`, `{,m}`, `{n,m}`, each optionally followed by `?` (reluctant). */
  private parsePatternQuantifier(): PatternQuantifier | undefined {
    const location = this.location();
    let quantifier: PatternQuantifier;
    if (this.acceptSymbol('*')) quantifier = { kind: 'PatternQuantifier', type: 'ZERO_OR_MORE', greedy: true, location };
    else if (this.acceptSymbol('+')) quantifier = { kind: 'PatternQuantifier', type: 'ONE_OR_MORE', greedy: true, location };
    else if (this.acceptQuestionMark()) quantifier = { kind: 'PatternQuantifier', type: 'ZERO_OR_ONE', greedy: true, location };
    else if (this.acceptSymbol('{')) {
      quantifier = { kind: 'PatternQuantifier', type: 'RANGE', greedy: true, location };
      const atLeast = this.token.kind === 'integer' ? this.parseIntegerValue() : undefined;
      if (atLeast !== undefined) quantifier.atLeast = atLeast;
      if (atLeast === undefined || this.atSymbol(',')) {
        this.expectSymbol(',');
        if (this.token.kind === 'integer') quantifier.atMost = this.parseIntegerValue();
      } else {
        quantifier.atMost = atLeast;
      }
      this.expectSymbol('}');
    } else {
      return undefined;
    }
    if (this.acceptQuestionMark()) quantifier.greedy = false;
    return quantifier;
  }

  /** `?` is lexed as a parameter marker; in a pattern it is a quantifier. */
  private acceptQuestionMark(): boolean {
    this.expect("'?'");
    if (this.token.kind !== 'parameter') return false;
    this.pos++;
    return true;
  }
}
