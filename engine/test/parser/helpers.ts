// Shared helpers for the parser tests: location-free AST comparison and error capture.

import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import type { Expression, Statement } from '../../src/sql/parser/ast.js';
import { formatExpression, formatStatement } from '../../src/sql/parser/formatter.js';
import { parseExpression, parseStatement } from '../../src/sql/parser/parser.js';

/** A deep copy without `location` fields, so ASTs from different texts compare by structure. */
export function stripLocations<T>(node: T): T {
  if (Array.isArray(node)) return node.map(stripLocations) as T;
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'location') out[key] = stripLocations(value);
    }
    return out as T;
  }
  return node;
}

/** parse -> format -> parse must give an equal AST; returns the formatted text. */
export function expectStatementRoundTrip(sql: string): string {
  const first = parseStatement(sql);
  const text = formatStatement(first);
  let second: Statement;
  try {
    second = parseStatement(text);
  } catch (e) {
    throw new Error(`formatted text does not parse: ${text}\n${(e as Error).message}`);
  }
  expect(stripLocations(second), text).to.deep.equal(stripLocations(first));
  return text;
}

export function expectExpressionRoundTrip(sql: string): string {
  const first = parseExpression(sql);
  const text = formatExpression(first);
  const second: Expression = parseExpression(text);
  expect(stripLocations(second), text).to.deep.equal(stripLocations(first));
  return text;
}

/** The SYNTAX_ERROR (or other EngineError) `sql` raises; fails when it parses. */
export function syntaxError(sql: string): EngineError {
  try {
    parseStatement(sql);
  } catch (e) {
    if (e instanceof EngineError) return e;
    throw e;
  }
  throw new Error(`expected a syntax error for: ${sql}`);
}

/** The expression AST without locations. */
export function expr(sql: string): unknown {
  return stripLocations(parseExpression(sql));
}
