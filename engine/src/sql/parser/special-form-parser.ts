// Primary expressions introduced by a keyword with their own syntax: literals (NULL, TRUE, INTERVAL),
// CASE, CAST / TRY_CAST, EXTRACT, EXISTS, UNIQUE, ROW, ARRAY[...], OVERLAY, the SQL/JSON forms,
// current_date & co, and the functions with SQL-standard argument syntax, which become ordinary
// FunctionCalls: substring(x FROM a FOR b) -> substring(x, a, b), position(a IN b) -> strpos(b, a),
// trim(LEADING c FROM x) -> ltrim(x, c), normalize(x, NFD) -> normalize(x, 'NFD').

import type { CurrentTime, Expression, ExtractField, FunctionCall, Identifier, IntervalLiteral, Query, WhenClause } from './ast.js';
import type { SourceLocation } from '../../errors/engine-error.js';
import { QUERY_START_WORDS } from './keywords.js';
import type { Token } from './lexer.js';
import { PatternParser } from './pattern-parser.js';
import { offStack, runSteps, type Steps } from './parse-steps.js';

const EXTRACT_FIELDS: ReadonlySet<string> = new Set<ExtractField>([
  'YEAR',
  'QUARTER',
  'MONTH',
  'WEEK',
  'DAY',
  'DAY_OF_MONTH',
  'DAY_OF_WEEK',
  'DOW',
  'DAY_OF_YEAR',
  'DOY',
  'YEAR_OF_WEEK',
  'YOW',
  'HOUR',
  'MINUTE',
  'SECOND',
  'MILLISECOND',
  'TIMEZONE_HOUR',
  'TIMEZONE_MINUTE',
]);

/** Parameterless SQL functions written without parentheses. */
const NILADIC_FUNCTIONS = ['CURRENT_USER', 'CURRENT_CATALOG', 'CURRENT_SCHEMA', 'CURRENT_PATH'];

const NORMAL_FORMS = ['NFD', 'NFC', 'NFKD', 'NFKC'];

export abstract class SpecialFormParser extends PatternParser {
  protected abstract override parseExpression(initial?: Expression): Expression;
  protected abstract parseValueExpression(minPrecedence: number, initial?: Expression): Expression;
  protected abstract parseParenthesizedQuery(): Query;
  protected abstract parseQueryInParentheses(): Query;
  protected abstract parseFunctionCall(name: FunctionCall['name'], firstArgument?: Expression): FunctionCall;
  protected abstract functionCallSteps(name: FunctionCall['name'], firstArgument?: Expression): Steps<FunctionCall>;
  protected abstract expressionSteps(initial?: Expression): Steps;
  protected abstract valueSteps(minPrecedence: number, initial?: Expression): Steps;
  /** The predicate (comparison, BETWEEN, IN, LIKE, IS ...) applying to `value`, or `value` itself. */
  protected abstract parsePredicate(value: Expression): Expression;
  /** Whether the tokens from `offset` read a comparison operator or predicate keyword. */
  protected abstract predicateAhead(offset?: number): boolean;

  /**
   * The steps of the special form at the current word that nests expressions as deep as they come
   * (CASE, CAST, ROW(...), ARRAY[...]), or undefined: the other forms are parseSpecialForm's.
   */
  protected nestingFormSteps(keyword: string): Steps | undefined {
    const next = this.peek();
    switch (keyword) {
      case 'CASE':
        return this.caseSteps();
      case 'CAST':
      case 'TRY_CAST':
        return this.isSymbol('(', next) ? this.castSteps(keyword === 'TRY_CAST') : undefined;
      case 'ROW':
        return this.isSymbol('(', next) ? this.rowSteps() : undefined;
      case 'ARRAY':
        if (!this.isSymbol('[', next)) return undefined;
        return this.arraySteps(this.location(this.advance()));
      case 'EXISTS':
        return this.isSymbol('(', next) ? this.existsSteps() : undefined;
      case 'EXTRACT':
        return this.isSymbol('(', next) ? this.extractSteps() : undefined;
      case 'OVERLAY':
        return this.isSymbol('(', next) ? this.overlaySteps() : undefined;
      case 'SUBSTRING':
        return this.isSymbol('(', next) ? this.substringSteps() : undefined;
      case 'POSITION':
        return this.isSymbol('(', next) ? this.positionSteps() : undefined;
      case 'TRIM':
        return this.isSymbol('(', next) ? this.trimSteps() : undefined;
      case 'NORMALIZE':
        return this.isSymbol('(', next) ? this.normalizeSteps() : undefined;
      default:
        return undefined;
    }
  }

  /** The special form starting at the current word, or undefined when the word is an ordinary name. */
  protected parseSpecialForm(keyword: string): Expression | undefined {
    const location = this.location();
    const call = this.isSymbol('(', this.peek());
    switch (keyword) {
      case 'NULL':
        this.pos++;
        return { kind: 'NullLiteral', location };
      case 'TRUE':
      case 'FALSE':
        this.pos++;
        return { kind: 'BooleanLiteral', value: keyword === 'TRUE', location };
      case 'CASE':
      case 'CAST':
      case 'TRY_CAST':
      case 'ROW':
      case 'ARRAY':
      case 'EXISTS':
      case 'EXTRACT':
      case 'OVERLAY':
      case 'SUBSTRING':
      case 'POSITION':
      case 'TRIM':
      case 'NORMALIZE': {
        const steps = this.nestingFormSteps(keyword);
        return steps && runSteps(steps);
      }
      case 'INTERVAL':
        return this.parseIntervalLiteral();
      case 'UNIQUE':
        if (!call || !this.queryAhead(1)) return undefined;
        this.pos++;
        return { kind: 'Unique', query: this.parseQueryInParentheses(), location };
      case 'JSON_EXISTS':
      case 'JSON_VALUE':
      case 'JSON_QUERY':
      case 'JSON_OBJECT':
      case 'JSON_ARRAY':
        return this.parseJsonExpression(keyword);
      case 'RUNNING':
      case 'FINAL':
        return this.processingModeAhead() ? this.parseProcessingModeCall(keyword) : undefined;
      case 'DOUBLE':
        if (!this.isKeyword('PRECISION', this.peek()) || this.peek(2).kind !== 'string') return undefined;
        return { kind: 'GenericLiteral', type: this.parseType(), value: this.parseStringValue(), location };
      case 'CURRENT_DATE':
      case 'CURRENT_TIME':
      case 'CURRENT_TIMESTAMP':
      case 'LOCALTIME':
      case 'LOCALTIMESTAMP':
        return this.parseCurrentTime(keyword.toLowerCase() as CurrentTime['function']);
      case 'GROUPING':
      case 'LISTAGG':
        return call ? this.parseFunctionCall(this.nameAt(this.advance())) : undefined;
      default:
        if (NILADIC_FUNCTIONS.includes(keyword)) {
          const name = this.nameAt(this.advance());
          return { kind: 'FunctionCall', name, args: [], distinct: false, starArg: false, location };
        }
        return undefined;
    }
  }

  /** EXISTS (query): the query is parsed with the steps around it suspended. */
  private *existsSteps(): Steps {
    return yield offStack(() => this.parseExists());
  }

  private parseExists(): Expression {
    const location = this.location(this.advance());
    return { kind: 'Exists', query: this.parseQueryInParentheses(), location };
  }

  /** A one-part function name taken from a keyword token. */
  private nameAt(token: Token, name: string = token.value): FunctionCall['name'] {
    const location = this.location(token);
    const part: Identifier = { kind: 'Identifier', value: name, quoted: false, location };
    return { kind: 'QualifiedName', parts: [part], location };
  }

  private simpleCall(token: Token, name: string, args: Expression[]): FunctionCall {
    const qualified = this.nameAt(token, name);
    return { kind: 'FunctionCall', name: qualified, args, distinct: false, starArg: false, location: qualified.location };
  }

  /** Whether the tokens from `offset` (after some `(`) start a query. */
  protected queryAhead(offset: number): boolean {
    let i = offset;
    while (this.isSymbol('(', this.peek(i))) i++;
    const first = this.peek(i);
    return first.kind === 'identifier' && QUERY_START_WORDS.has(first.keyword);
  }

  /** `ROW(value [AS name], ...)` */
  private *rowSteps(): Steps {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const items: Expression[] = [];
    const fieldNames: (Identifier | null)[] = [];
    do {
      items.push(yield this.expressionSteps());
      const named = this.acceptKeyword('AS') || (this.isIdentifier() && !this.isSymbol('(', this.peek()));
      fieldNames.push(named ? this.parseIdentifier() : null);
    } while (this.acceptSymbol(','));
    this.expectSymbol(')');
    return fieldNames.some((n) => n !== null) ? { kind: 'Row', items, fieldNames, location } : { kind: 'Row', items, location };
  }

  /** `[a, b]` after ARRAY (or alone), from the `[`. */
  protected *arraySteps(location: SourceLocation): Steps {
    this.expectSymbol('[');
    const items: Expression[] = [];
    if (!this.atSymbol(']')) {
      do items.push(yield this.expressionSteps());
      while (this.acceptSymbol(','));
    }
    this.expectSymbol(']');
    return { kind: 'Array', items, location };
  }

  /** RUNNING / FINAL followed by a (qualified) function name and `(`. */
  protected processingModeAhead(): boolean {
    let offset = 1;
    while (this.isIdentifier(this.peek(offset)) && this.isSymbol('.', this.peek(offset + 1))) offset += 2;
    return this.isIdentifier(this.peek(offset)) && this.isSymbol('(', this.peek(offset + 1));
  }

  private parseProcessingModeCall(mode: string): FunctionCall {
    const location = this.location(this.advance());
    const call = this.parseFunctionCall(this.parseQualifiedName());
    return { ...call, processingMode: mode as 'RUNNING' | 'FINAL', location };
  }

  /** OVERLAY(value PLACING replacement FROM start [FOR length]), or an ordinary call named overlay. */
  private *overlaySteps(): Steps {
    const token = this.advance();
    this.expectSymbol('(');
    const value = yield this.valueSteps(0);
    if (!this.acceptKeyword('PLACING')) return yield* this.functionCallSteps(this.nameAt(token), yield this.expressionSteps(value));
    const replacement = yield this.valueSteps(0);
    this.expectKeyword('FROM');
    const start = yield this.valueSteps(0);
    const length = this.acceptKeyword('FOR') ? yield this.valueSteps(0) : undefined;
    this.expectSymbol(')');
    return { kind: 'Overlay', value, replacement, start, ...(length ? { length } : {}), location: this.location(token) };
  }

  /** NORMALIZE(value [, NFD | NFC | NFKD | NFKC]): the form becomes a string argument. */
  private *normalizeSteps(): Steps {
    const token = this.advance();
    this.expectSymbol('(');
    const args: Expression[] = [yield this.valueSteps(0)];
    if (this.acceptSymbol(',')) {
      const form = NORMAL_FORMS.find((f) => this.atKeyword(f));
      if (!form) this.fail();
      args.push({ kind: 'StringLiteral', value: form, location: this.location(this.advance()) });
    }
    this.expectSymbol(')');
    return this.simpleCall(token, 'normalize', args);
  }

  private *caseSteps(): Steps {
    const location = this.location(this.advance());
    const operand = this.atKeyword('WHEN') ? undefined : yield this.expressionSteps();
    const whenClauses: WhenClause[] = [];
    do {
      const when = this.expectKeyword('WHEN');
      const condition =
        operand && this.predicateAhead()
          ? this.parsePredicate({ kind: 'CaseOperand', location: this.location() })
          : yield this.expressionSteps();
      this.expectKeyword('THEN');
      whenClauses.push({ kind: 'WhenClause', operand: condition, result: yield this.expressionSteps(), location: this.location(when) });
    } while (this.atKeyword('WHEN'));
    const defaultValue = this.acceptKeyword('ELSE') ? yield this.expressionSteps() : undefined;
    this.expectKeyword('END');
    const optional = defaultValue ? { defaultValue } : {};
    return operand
      ? { kind: 'SimpleCase', operand, whenClauses, ...optional, location }
      : { kind: 'SearchedCase', whenClauses, ...optional, location };
  }

  private *castSteps(safe: boolean): Steps {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const value = yield this.expressionSteps();
    this.expectKeyword('AS');
    const type = this.parseType();
    this.expectSymbol(')');
    return { kind: 'Cast', value, type, safe, location };
  }

  private *extractSteps(): Steps {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const fieldToken = this.token;
    const field = this.parseIdentifier().value.toUpperCase();
    if (!EXTRACT_FIELDS.has(field)) this.error(`Invalid EXTRACT field: ${field}`, fieldToken);
    this.expectKeyword('FROM');
    const value = yield this.valueSteps(0);
    this.expectSymbol(')');
    return { kind: 'Extract', field: field as ExtractField, value, location };
  }

  /** INTERVAL [+|-] 'value' field [TO field] */
  private parseIntervalLiteral(): IntervalLiteral | undefined {
    const next = this.peek();
    const signed = this.isSymbol('-', next) || this.isSymbol('+', next);
    if (this.peek(signed ? 2 : 1).kind !== 'string') return undefined;
    const location = this.location(this.advance());
    const sign = signed && this.advance().value === '-' ? -1 : 1;
    const value = this.parseStringValue();
    const { start, end, precision } = this.parseIntervalQualifier();
    return {
      kind: 'IntervalLiteral',
      value,
      sign,
      startField: start,
      ...(end ? { endField: end } : {}),
      ...(precision ? { precision } : {}),
      location,
    };
  }

  private parseCurrentTime(fn: CurrentTime['function']): CurrentTime {
    const location = this.location(this.advance());
    const node: CurrentTime = { kind: 'CurrentTime', function: fn, location };
    if (fn !== 'current_date' && this.acceptSymbol('(')) {
      node.precision = this.parseIntegerValue();
      this.expectSymbol(')');
    }
    return node;
  }

  /** substring(x FROM a [FOR b]) or the ordinary substring(x, a [, b]). */
  private *substringSteps(): Steps {
    const token = this.advance();
    this.expectSymbol('(');
    const value = yield this.expressionSteps();
    if (!this.acceptKeyword('FROM')) return yield* this.functionCallSteps(this.nameAt(token), value);
    const args = [value, yield this.valueSteps(0)];
    if (this.acceptKeyword('FOR')) args.push(yield this.valueSteps(0));
    this.expectSymbol(')');
    return this.simpleCall(token, 'substring', args);
  }

  /** position(needle IN haystack) -> strpos(haystack, needle); other argument lists stay position(...). */
  private *positionSteps(): Steps {
    const token = this.advance();
    this.expectSymbol('(');
    const needle = yield this.valueSteps(0);
    if (!this.acceptKeyword('IN')) return yield* this.functionCallSteps(this.nameAt(token), yield this.expressionSteps(needle));
    const haystack = yield this.valueSteps(0);
    this.expectSymbol(')');
    return this.simpleCall(token, 'strpos', [haystack, needle]);
  }

  /** trim([BOTH|LEADING|TRAILING] [chars] FROM x) and trim(x [, chars]). */
  private *trimSteps(): Steps {
    const token = this.advance();
    this.expectSymbol('(');
    // BOTH / LEADING / TRAILING are non-reserved: a column of that name is `trim(both)`.
    const word = ['BOTH', 'LEADING', 'TRAILING'].find((w) => this.atKeyword(w));
    const specification = word && !this.isSymbol(')', this.peek()) && !this.isSymbol(',', this.peek()) ? word : undefined;
    if (specification) this.pos++;
    const name = specification === 'LEADING' ? 'ltrim' : specification === 'TRAILING' ? 'rtrim' : 'trim';
    let chars: Expression | undefined;
    let source: Expression;
    if (this.acceptKeyword('FROM')) {
      source = yield this.valueSteps(0);
    } else {
      const first = yield this.valueSteps(0);
      if (this.acceptKeyword('FROM')) {
        chars = first;
        source = yield this.valueSteps(0);
      } else if (!specification && this.acceptSymbol(',')) {
        source = first;
        chars = yield this.valueSteps(0);
      } else if (specification) {
        this.expectKeyword('FROM');
        source = first;
      } else {
        source = first;
      }
    }
    this.expectSymbol(')');
    return this.simpleCall(token, name, chars ? [source, chars] : [source]);
  }
}
