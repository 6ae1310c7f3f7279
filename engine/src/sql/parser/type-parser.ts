// Parses a type as written in CAST, CREATE TABLE and typed literals into a TypeSpec with Trino's
// canonical base names (int -> integer, numeric -> decimal, character -> char, double precision -> double),
// including the types the engine does not run (ROW(...), ARRAY<t>, t ARRAY, MAP<k, v>, map(k, v)).

import type { Identifier, IntervalField, IntervalPrecision, RowFieldSpec, TypeSpec } from './ast.js';
import { ParserBase } from './parser-base.js';

const TYPE_ALIASES: Record<string, string> = { int: 'integer', numeric: 'decimal', character: 'char' };

export const INTERVAL_FIELDS: readonly IntervalField[] = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];

/** An interval qualifier: `DAY`, `YEAR TO MONTH`, `DAY(3) TO SECOND(6)`, `SECOND(2, 3)`. */
export interface IntervalQualifier {
  start: IntervalField;
  end?: IntervalField;
  precision?: IntervalPrecision;
}

export abstract class TypeParser extends ParserBase {
  /** A type; each type nested in it (`array(...)`, `row(...)`, `x ARRAY`) is a nesting level. */
  protected parseType(): TypeSpec {
    let type = this.parseBaseType();
    let nested = 0;
    // `integer ARRAY [n]`: the postfix array type.
    while (this.isKeyword('ARRAY') && !this.isSymbol('<', this.peek()) && !this.isSymbol('(', this.peek())) {
      const location = this.location(this.advance());
      this.enter(location);
      nested++;
      if (this.acceptSymbol('[')) {
        this.parseIntegerValue();
        this.expectSymbol(']');
      }
      type = { kind: 'TypeSpec', name: 'array', parameters: [], typeParameters: [type], location };
    }
    return this.leaveChain(type, nested);
  }

  private parseNestedType(): TypeSpec {
    this.enter();
    return this.leave(this.parseType());
  }

  private parseBaseType(): TypeSpec {
    const location = this.location();
    this.expect('<type>');
    if (this.token.kind !== 'identifier' && this.token.kind !== 'quotedIdentifier') this.fail();
    if (this.acceptKeyword('INTERVAL')) {
      const qualifier = this.parseIntervalQualifier();
      const yearMonth = qualifier.start === 'YEAR' || qualifier.start === 'MONTH';
      const name = yearMonth ? 'interval year to month' : 'interval day to second';
      const precision = qualifier.precision;
      return precision
        ? { kind: 'TypeSpec', name, parameters: [], intervalPrecision: precision, location }
        : { kind: 'TypeSpec', name, parameters: [], location };
    }
    if (this.isKeyword('DOUBLE') && this.isKeyword('PRECISION', this.peek())) {
      this.pos += 2;
      return { kind: 'TypeSpec', name: 'double', parameters: [], location };
    }
    if (this.isKeyword('ROW') && this.isSymbol('(', this.peek())) {
      this.pos += 2;
      this.enter(location);
      const fields = this.leave(this.parseCommaList(() => this.parseRowField()));
      this.expectSymbol(')');
      return { kind: 'TypeSpec', name: 'row', parameters: [], fields, location };
    }
    if ((this.isKeyword('ARRAY') || this.isKeyword('MAP')) && this.isSymbol('<', this.peek())) {
      const name = this.advance().value;
      this.pos++;
      const typeParameters = [this.parseNestedType()];
      if (name === 'map') {
        this.expectSymbol(',');
        typeParameters.push(this.parseNestedType());
      }
      this.expectSymbol('>');
      return { kind: 'TypeSpec', name, parameters: [], typeParameters, location };
    }
    const word = this.parseIdentifier();
    const name = TYPE_ALIASES[word.value] ?? word.value;
    const parameters: number[] = [];
    const typeParameters: TypeSpec[] = [];
    if (this.acceptSymbol('(')) {
      do {
        if (this.peek(0).kind === 'integer') parameters.push(this.parseIntegerValue());
        else typeParameters.push(this.parseNestedType());
      } while (this.acceptSymbol(','));
      this.expectSymbol(')');
    }
    if (name === 'time' || name === 'timestamp') {
      if (this.acceptKeywords('WITH', 'TIME', 'ZONE')) {
        return { kind: 'TypeSpec', name: `${name} with time zone`, parameters, location };
      }
      this.acceptKeywords('WITHOUT', 'TIME', 'ZONE');
    }
    return typeParameters.length > 0
      ? { kind: 'TypeSpec', name, parameters, typeParameters, location }
      : { kind: 'TypeSpec', name, parameters, location };
  }

  private parseRowField(): RowFieldSpec {
    const location = this.location();
    return { kind: 'RowFieldSpec', ...this.parseOptionallyNamedType(), location };
  }

  /** `type` or `name type` (row fields, routine parameters): a word followed by what can only continue a type is the type itself. */
  protected parseOptionallyNamedType(): { name?: Identifier; type: TypeSpec } {
    const next = this.peek();
    const typeOnly =
      this.isSymbol(',', next) ||
      this.isSymbol(')', next) ||
      this.isSymbol('(', next) ||
      (this.isKeyword('DOUBLE') && this.isKeyword('PRECISION', next)) ||
      (this.isKeyword('ARRAY', next) && !this.isSymbol('<', this.peek(2)) && !this.isSymbol('(', this.peek(2))) ||
      ((this.isKeyword('TIME') || this.isKeyword('TIMESTAMP')) && (this.isKeyword('WITH', next) || this.isKeyword('WITHOUT', next))) ||
      ((this.isKeyword('ARRAY') || this.isKeyword('MAP')) && this.isSymbol('<', next));
    if (typeOnly) return { type: this.parseType() };
    const name = this.parseIdentifier();
    return { name, type: this.parseType() };
  }

  protected parseIntervalQualifier(): IntervalQualifier {
    const start = this.parseIntervalField();
    const precision: IntervalPrecision = {};
    if (this.acceptSymbol('(')) {
      precision.leading = this.parseIntegerValue();
      if (start === 'SECOND' && this.acceptSymbol(',')) precision.fractional = this.parseIntegerValue();
      this.expectSymbol(')');
    }
    let end: IntervalField | undefined;
    if (this.acceptKeyword('TO')) {
      end = this.parseIntervalField();
      if (end === 'SECOND' && this.acceptSymbol('(')) {
        precision.fractional = this.parseIntegerValue();
        this.expectSymbol(')');
      }
      const yearMonth = start === 'YEAR' || start === 'MONTH';
      if ((end === 'YEAR' || end === 'MONTH') !== yearMonth) this.error(`Invalid interval qualifier: ${start} TO ${end}`);
    }
    const hasPrecision = precision.leading !== undefined || precision.fractional !== undefined;
    return { start, ...(end ? { end } : {}), ...(hasPrecision ? { precision } : {}) };
  }

  protected parseIntervalField(): IntervalField {
    for (const field of INTERVAL_FIELDS) {
      if (this.acceptKeyword(field)) return field;
    }
    this.fail();
  }
}
