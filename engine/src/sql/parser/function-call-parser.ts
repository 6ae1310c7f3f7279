// Function calls with everything that may follow a name: DISTINCT, `*`, named arguments, ORDER BY
// inside the parentheses, listagg's ON OVERFLOW, WITHIN GROUP, FILTER, IGNORE / RESPECT NULLS and
// OVER with its window specification (PARTITION BY, ORDER BY, the frame and its row pattern clauses).

import type {
  Expression,
  FrameBound,
  FunctionCall,
  Identifier,
  ListaggOverflow,
  SortItem,
  WindowFrame,
  WindowSpecification,
} from './ast.js';
import { SpecialFormParser } from './special-form-parser.js';
import { runSteps, type Steps } from './parse-steps.js';

const FRAME_UNITS = ['ROWS', 'RANGE', 'GROUPS'] as const;

export abstract class FunctionCallParser extends SpecialFormParser {
  protected override parseFunctionCall(name: FunctionCall['name'], firstArgument?: Expression): FunctionCall {
    return runSteps(this.functionCallSteps(name, firstArgument));
  }

  /** `name(...)`; with `firstArgument`, the `(` and the first argument have already been read. */
  protected *functionCallSteps(name: FunctionCall['name'], firstArgument?: Expression): Steps<FunctionCall> {
    if (!firstArgument) this.expectSymbol('(');
    // listagg is a reserved word: a call to it (not to "listagg") has its own syntax.
    const listagg = name.parts.length === 1 && name.parts[0].value === 'listagg' && !name.parts[0].quoted;
    let distinct = false;
    let starArg = false;
    const args: Expression[] = [];
    if (firstArgument) {
      args.push(firstArgument);
      while (this.acceptSymbol(',')) args.push(yield* this.callArgumentSteps());
    } else if (this.atSymbol('*') && !listagg) {
      this.pos++;
      starArg = true;
    } else if (!this.atSymbol(')') || listagg) {
      distinct = this.acceptKeyword('DISTINCT');
      if (!distinct) this.acceptKeyword('ALL');
      args.push(yield* this.callArgumentSteps());
      while (this.acceptSymbol(',')) args.push(yield* this.callArgumentSteps());
    }
    const call: FunctionCall = { kind: 'FunctionCall', name, args, distinct, starArg, location: name.location };
    if (listagg && this.acceptKeywords('ON', 'OVERFLOW')) call.listaggOverflow = this.parseListaggOverflow();
    if (!starArg && args.length > 0 && !listagg && this.acceptKeywords('ORDER', 'BY')) call.orderBy = this.parseSortItems();
    this.expectSymbol(')');
    if (listagg) this.expectKeyword('WITHIN');
    if (listagg || this.acceptKeywords('WITHIN', 'GROUP')) {
      if (listagg) this.expectKeyword('GROUP');
      this.expectSymbol('(');
      this.expectKeywords('ORDER', 'BY');
      call.withinGroup = this.parseSortItems();
      this.expectSymbol(')');
    }
    if (this.atKeyword('FILTER') && this.isSymbol('(', this.peek())) {
      this.pos += 2;
      this.expectKeyword('WHERE');
      call.filter = this.parseExpression();
      this.expectSymbol(')');
    }
    for (const treatment of ['IGNORE', 'RESPECT'] as const) {
      if (this.acceptKeywords(treatment, 'NULLS')) call.nullTreatment = treatment;
    }
    if (this.acceptKeyword('OVER')) {
      call.window = this.parseOver();
    } else if (call.nullTreatment) {
      this.expectKeyword('OVER');
    }
    return call;
  }

  protected parseCallArgument(): Expression {
    return runSteps(this.callArgumentSteps());
  }

  /** `value` or `name => value` */
  private *callArgumentSteps(): Steps {
    if (this.isIdentifier() && this.isSymbol('=>', this.peek())) {
      const name = this.parseIdentifier();
      this.pos++;
      return { kind: 'NamedArgument', name, value: yield this.expressionSteps(), location: name.location };
    }
    return yield this.expressionSteps();
  }

  /** After ON OVERFLOW: ERROR | TRUNCATE ['filler'] WITH | WITHOUT COUNT */
  private parseListaggOverflow(): ListaggOverflow {
    if (this.acceptKeyword('ERROR')) return { behavior: 'ERROR' };
    this.expectKeyword('TRUNCATE');
    const filler = this.token.kind === 'string' ? this.parseStringValue() : undefined;
    const withCount = this.acceptKeyword('WITH');
    if (!withCount) this.expectKeyword('WITHOUT');
    this.expectKeyword('COUNT');
    return filler === undefined ? { behavior: 'TRUNCATE', withCount } : { behavior: 'TRUNCATE', filler, withCount };
  }

  /** After OVER: a window name or `(specification)`. */
  protected parseOver(): WindowSpecification | Identifier {
    return this.isIdentifier() && !this.isSymbol('(') ? this.parseIdentifier() : this.parseWindowSpecification();
  }

  protected parseSortItems(): SortItem[] {
    const items = [this.parseSortItem()];
    while (this.acceptSymbol(',')) items.push(this.parseSortItem());
    return items;
  }

  private parseSortItem(): SortItem {
    const key = this.parseExpression();
    let ordering: SortItem['ordering'] = 'ASC';
    if (this.acceptKeyword('DESC')) ordering = 'DESC';
    else this.acceptKeyword('ASC');
    const item: SortItem = { kind: 'SortItem', key, ordering, location: key.location };
    if (this.acceptKeyword('NULLS')) {
      if (this.acceptKeyword('FIRST')) item.nullOrdering = 'FIRST';
      else {
        this.expectKeyword('LAST');
        item.nullOrdering = 'LAST';
      }
    }
    return item;
  }

  /** `( [name] [PARTITION BY ...] [ORDER BY ...] [frame] )` */
  protected parseWindowSpecification(): WindowSpecification {
    const open = this.expectSymbol('(');
    const spec: WindowSpecification = { kind: 'WindowSpecification', partitionBy: [], orderBy: [], location: this.location(open) };
    if (this.isIdentifier() && !this.startsWindowClause()) spec.existingWindowName = this.parseIdentifier();
    if (this.acceptKeywords('PARTITION', 'BY')) {
      spec.partitionBy.push(this.parseExpression());
      while (this.acceptSymbol(',')) spec.partitionBy.push(this.parseExpression());
    }
    if (this.acceptKeywords('ORDER', 'BY')) spec.orderBy = this.parseSortItems();
    if (this.atKeyword('MEASURES') || FRAME_UNITS.some((u) => this.atKeyword(u))) spec.frame = this.parseWindowFrame();
    this.expectSymbol(')');
    return spec;
  }

  /** Whether the word at the cursor starts a clause rather than naming an existing window. */
  private startsWindowClause(): boolean {
    const next = this.peek();
    if (this.isKeyword('PARTITION')) return this.isKeyword('BY', next);
    const clauseWord = [...FRAME_UNITS, 'MEASURES'].some((u) => this.isKeyword(u));
    return clauseWord && !this.isSymbol(')', next) && !this.isKeyword('PARTITION', next) && !this.isKeyword('ORDER', next);
  }

  /** [MEASURES ...] ROWS | RANGE | GROUPS extent [AFTER MATCH ...] [INITIAL | SEEK] [PATTERN ...] [SUBSET ...] [DEFINE ...] */
  private parseWindowFrame(): WindowFrame {
    const measuresLocation = this.location();
    const measures = this.parseMeasures();
    const unit = FRAME_UNITS.find((u) => this.atKeyword(u));
    if (!unit) this.fail();
    const location = this.location(this.advance());
    let frame: WindowFrame;
    if (this.acceptKeyword('BETWEEN')) {
      const start = this.parseFrameBound();
      this.expectKeyword('AND');
      frame = { kind: 'WindowFrame', unit, start, end: this.parseFrameBound(), location };
    } else {
      frame = { kind: 'WindowFrame', unit, start: this.parseFrameBound(), location };
    }
    const clausesLocation = measures.length > 0 ? measuresLocation : this.location();
    const clauses = this.parsePatternClauses();
    const present =
      measures.length > 0 ||
      clauses.afterMatchSkipTo ||
      clauses.searchMode ||
      clauses.pattern ||
      clauses.subsets.length > 0 ||
      clauses.variableDefinitions.length > 0;
    if (present) frame.patternRecognition = { kind: 'FramePatternRecognition', measures, ...clauses, location: clausesLocation };
    return frame;
  }

  private parseFrameBound(): FrameBound {
    const location = this.location();
    if (this.acceptKeywords('UNBOUNDED', 'PRECEDING')) return { kind: 'FrameBound', type: 'UNBOUNDED_PRECEDING', location };
    if (this.acceptKeywords('UNBOUNDED', 'FOLLOWING')) return { kind: 'FrameBound', type: 'UNBOUNDED_FOLLOWING', location };
    if (this.acceptKeywords('CURRENT', 'ROW')) return { kind: 'FrameBound', type: 'CURRENT_ROW', location };
    const value = this.parseExpression();
    if (this.acceptKeyword('PRECEDING')) return { kind: 'FrameBound', type: 'PRECEDING', value, location };
    this.expectKeyword('FOLLOWING');
    return { kind: 'FrameBound', type: 'FOLLOWING', value, location };
  }
}
