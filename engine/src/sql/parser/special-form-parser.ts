// Primary expressions introduced by a keyword with their own syntax: literals (NULL, TRUE, INTERVAL),
// CASE, CAST / TRY_CAST, EXTRACT, EXISTS, ROW, current_date & co, and the functions with SQL-standard
// argument syntax, which become ordinary FunctionCalls: substring(x FROM a FOR b) -> substring(x, a, b),
// position(a IN b) -> strpos(b, a), trim(LEADING c FROM x) -> ltrim(x, c).

import type {
  CurrentTime,
  Expression,
  ExtractField,
  FunctionCall,
  Identifier,
  IntervalLiteral,
  Query,
  WhenClause,
  WindowSpecification,
} from './ast.js';
import type { Token } from './lexer.js';
import { TypeParser } from './type-parser.js';

const EXTRACT_FIELDS: ReadonlySet<string> = new Set<ExtractField>([
  'YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'DAY_OF_MONTH', 'DAY_OF_WEEK', 'DOW', 'DAY_OF_YEAR', 'DOY',
  'YEAR_OF_WEEK', 'YOW', 'HOUR', 'MINUTE', 'SECOND', 'MILLISECOND', 'TIMEZONE_HOUR', 'TIMEZONE_MINUTE',
]);

/** Parameterless SQL functions written without parentheses. */
const NILADIC_FUNCTIONS = ['CURRENT_USER', 'CURRENT_CATALOG', 'CURRENT_SCHEMA', 'CURRENT_PATH'];

export abstract class SpecialFormParser extends TypeParser {
  protected abstract parseExpression(): Expression;
  protected abstract parseOr(initial?: Expression): Expression;
  protected abstract parseValueExpression(minPrecedence: number, initial?: Expression): Expression;
  protected abstract parseParenthesizedQuery(): Query;
  protected abstract parseFunctionCall(name: FunctionCall['name'], firstArgument?: Expression): FunctionCall;
  protected abstract parseWindowSpecification(): WindowSpecification;

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
        return this.parseCase();
      case 'CAST':
      case 'TRY_CAST':
        return call ? this.parseCast(keyword === 'TRY_CAST') : undefined;
      case 'EXTRACT':
        return call ? this.parseExtract() : undefined;
      case 'EXISTS':
        if (!call) return undefined;
        this.pos++;
        return { kind: 'Exists', query: this.parseParenthesizedQuery(), location };
      case 'INTERVAL':
        return this.parseIntervalLiteral();
      case 'ROW':
        if (!call) return undefined;
        this.pos += 2;
        return { kind: 'Row', items: this.parseArgumentsAfterParen(), location };
      case 'DOUBLE':
        if (!this.isKeyword('PRECISION', this.peek()) || this.peek(2).kind !== 'string') return undefined;
        return { kind: 'GenericLiteral', type: this.parseType(), value: this.parseStringValue(), location };
      case 'CURRENT_DATE':
      case 'CURRENT_TIME':
      case 'CURRENT_TIMESTAMP':
      case 'LOCALTIME':
      case 'LOCALTIMESTAMP':
        return this.parseCurrentTime(keyword.toLowerCase() as CurrentTime['function']);
      case 'SUBSTRING':
        return call ? this.parseSubstring() : undefined;
      case 'POSITION':
        return call ? this.parsePosition() : undefined;
      case 'TRIM':
        return call ? this.parseTrim() : undefined;
      case 'NORMALIZE':
      case 'GROUPING':
        return call ? this.parseFunctionCall(this.nameAt(this.advance())) : undefined;
      default:
        if (NILADIC_FUNCTIONS.includes(keyword)) {
          const name = this.nameAt(this.advance());
          return { kind: 'FunctionCall', name, args: [], distinct: false, starArg: false, location };
        }
        return undefined;
    }
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

  /** Arguments after an already consumed `(`, through the closing `)`. */
  private parseArgumentsAfterParen(): Expression[] {
    const items = [this.parseExpression()];
    while (this.acceptSymbol(',')) items.push(this.parseExpression());
    this.expectSymbol(')');
    return items;
  }

  private parseCase(): Expression {
    const location = this.location(this.advance());
    const operand = this.atKeyword('WHEN') ? undefined : this.parseExpression();
    const whenClauses: WhenClause[] = [];
    do {
      const when = this.expectKeyword('WHEN');
      const condition = this.parseExpression();
      this.expectKeyword('THEN');
      whenClauses.push({ kind: 'WhenClause', operand: condition, result: this.parseExpression(), location: this.location(when) });
    } while (this.atKeyword('WHEN'));
    const defaultValue = this.acceptKeyword('ELSE') ? this.parseExpression() : undefined;
    this.expectKeyword('END');
    const optional = defaultValue ? { defaultValue } : {};
    return operand
      ? { kind: 'SimpleCase', operand, whenClauses, ...optional, location }
      : { kind: 'SearchedCase', whenClauses, ...optional, location };
  }

  private parseCast(safe: boolean): Expression {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const value = this.parseExpression();
    this.expectKeyword('AS');
    const type = this.parseType();
    this.expectSymbol(')');
    return { kind: 'Cast', value, type, safe, location };
  }

  private parseExtract(): Expression {
    const location = this.location(this.advance());
    this.expectSymbol('(');
    const fieldToken = this.token;
    const field = this.parseIdentifier().value.toUpperCase();
    if (!EXTRACT_FIELDS.has(field)) this.error(`Invalid EXTRACT field: ${field}`, fieldToken);
    this.expectKeyword('FROM');
    const value = this.parseValueExpression(0);
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
    const startField = this.parseIntervalField();
    const literal: IntervalLiteral = { kind: 'IntervalLiteral', value, sign, startField, location };
    if (this.acceptKeyword('TO')) literal.endField = this.parseIntervalField();
    return literal;
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
  private parseSubstring(): Expression {
    const token = this.advance();
    this.expectSymbol('(');
    const value = this.parseExpression();
    if (!this.acceptKeyword('FROM')) return this.parseFunctionCall(this.nameAt(token), value);
    const args = [value, this.parseValueExpression(0)];
    if (this.acceptKeyword('FOR')) args.push(this.parseValueExpression(0));
    this.expectSymbol(')');
    return this.simpleCall(token, 'substring', args);
  }

  /** position(needle IN haystack) -> strpos(haystack, needle); other argument lists stay position(...). */
  private parsePosition(): Expression {
    const token = this.advance();
    this.expectSymbol('(');
    const needle = this.parseValueExpression(0);
    if (!this.acceptKeyword('IN')) return this.parseFunctionCall(this.nameAt(token), this.parseOr(needle));
    const haystack = this.parseValueExpression(0);
    this.expectSymbol(')');
    return this.simpleCall(token, 'strpos', [haystack, needle]);
  }

  /** trim([BOTH|LEADING|TRAILING] [chars] FROM x) and trim(x [, chars]). */
  private parseTrim(): Expression {
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
      source = this.parseValueExpression(0);
    } else {
      const first = this.parseValueExpression(0);
      if (this.acceptKeyword('FROM')) {
        chars = first;
        source = this.parseValueExpression(0);
      } else if (!specification && this.acceptSymbol(',')) {
        source = first;
        chars = this.parseValueExpression(0);
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
