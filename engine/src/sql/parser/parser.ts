// The SQL front door: text -> AST. Hand-written lexer and recursive-descent parser over Trino's grammar.

import { EngineError } from '../../errors/engine-error.js';
import type { Expression, Statement } from './ast.js';
import { tokenize } from './lexer.js';
import { TOO_DEEPLY_NESTED } from './parser-base.js';
import { StatementParser } from './statement-parser.js';

/** Parses one statement (a single trailing `;` allowed). Throws EngineError('SYNTAX_ERROR', ...). */
export function parseStatement(sql: string): Statement {
  return guardStack(() => new StatementParser(sql, tokenize(sql)).parseSingleStatement());
}

/** Parses one expression covering the whole text. */
export function parseExpression(sql: string): Expression {
  return guardStack(() => new StatementParser(sql, tokenize(sql)).parseSingleExpression());
}

/** The depth guard normally fires first; a JS stack overflow on a small stack still ends as a syntax error. */
function guardStack<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new EngineError('SYNTAX_ERROR', TOO_DEEPLY_NESTED, { line: 1, column: 1 });
    }
    throw e;
  }
}
