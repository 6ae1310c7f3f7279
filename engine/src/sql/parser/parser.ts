// The SQL front door: text -> AST. Hand-written lexer and recursive-descent parser over Trino's grammar.

import { EngineError, isStackOverflow } from '../../errors/engine-error.js';
import type { Expression, Statement } from './ast.js';
import { tokenize } from './lexer.js';
import { MAX_NESTING_DEPTH } from './parser-base.js';
import { StatementParser } from './statement-parser.js';

/** Parses one statement (a single trailing `;` allowed). Throws EngineError('SYNTAX_ERROR', ...). */
export function parseStatement(sql: string): Statement {
  return guardStack(() => new StatementParser(sql, tokenize(sql)).parseSingleStatement());
}

/** Parses one expression covering the whole text. */
export function parseExpression(sql: string): Expression {
  return guardStack(() => new StatementParser(sql, tokenize(sql)).parseSingleExpression());
}

/** The depth guard fires first on Node's default stack; a stack overflow on a smaller one still ends as a syntax error. */
function guardStack<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (isStackOverflow(e)) {
      throw new EngineError(
        'SYNTAX_ERROR',
        `Statement is nested too deeply to parse with this stack (at most ${MAX_NESTING_DEPTH} levels are supported with Node's default stack)`,
        { line: 1, column: 1 },
      );
    }
    throw e;
  }
}
