// Parses a type as written in CAST, CREATE TABLE and typed literals into a TypeSpec with Trino's
// canonical base names (int -> integer, numeric -> decimal, character -> char, double precision -> double).

import { notSupported } from '../../errors/engine-error.js';
import type { IntervalField, TypeSpec } from './ast.js';
import { ParserBase } from './parser-base.js';

const TYPE_ALIASES: Record<string, string> = { int: 'integer', numeric: 'decimal', character: 'char' };

export const INTERVAL_FIELDS: readonly IntervalField[] = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];

export abstract class TypeParser extends ParserBase {
  protected parseType(): TypeSpec {
    const location = this.location();
    this.expect('<type>');
    if (this.token.kind !== 'identifier') this.fail();
    if (this.acceptKeyword('INTERVAL')) {
      const start = this.parseIntervalField();
      const end = this.acceptKeyword('TO') ? this.parseIntervalField() : undefined;
      const yearMonth = start === 'YEAR' || start === 'MONTH';
      if (end && (end === 'YEAR' || end === 'MONTH') !== yearMonth) this.error(`Invalid interval qualifier: ${start} TO ${end}`);
      return { kind: 'TypeSpec', name: yearMonth ? 'interval year to month' : 'interval day to second', parameters: [], location };
    }
    if (this.isKeyword('DOUBLE') && this.isKeyword('PRECISION', this.peek())) {
      this.pos += 2;
      return { kind: 'TypeSpec', name: 'double', parameters: [], location };
    }
    const word = this.parseIdentifier();
    const name = TYPE_ALIASES[word.value] ?? word.value;
    const parameters: number[] = [];
    if (this.acceptSymbol('(')) {
      do {
        const parameter = this.token;
        if (parameter.kind !== 'integer') throw notSupported(`Type '${name}' with non-numeric parameters is not supported`, location);
        parameters.push(this.parseIntegerValue());
      } while (this.acceptSymbol(','));
      this.expectSymbol(')');
    }
    if (name === 'time' || name === 'timestamp') {
      if (this.acceptKeywords('WITH', 'TIME', 'ZONE')) {
        return { kind: 'TypeSpec', name: `${name} with time zone`, parameters, location };
      }
      this.acceptKeywords('WITHOUT', 'TIME', 'ZONE');
    }
    return { kind: 'TypeSpec', name, parameters, location };
  }

  protected parseIntervalField(): IntervalField {
    for (const field of INTERVAL_FIELDS) {
      if (this.acceptKeyword(field)) return field;
    }
    this.fail();
  }
}
