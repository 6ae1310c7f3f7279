// The SQL routine pages' examples (udf/sql.md, udf/sql/*.md, udf/function.md, sql/create-function.md):
// a block that holds a routine (`FUNCTION name(...) ... body`, or CREATE FUNCTION) is one statement,
// its `;`s inside BEGIN ... END included. A bare `FUNCTION ...` block is a declaration the page's
// later examples call: each statement that calls declared routines gets them as WITH FUNCTION in
// front (a later declaration of the same name and parameters replaces an earlier one), and the
// declaration itself is checked by EXPLAINing a call of it on NULLs: the routine is analyzed
// (its types, variables and labels, as Trino analyzes it) without running.

import { parseStatement } from '../../src/sql/parser/parser.js';
import type { FunctionSpecification } from '../../src/sql/parser/ast.js';
import { formatType } from '../../src/sql/parser/expression-formatter.js';
import type { DocExample } from './extract.js';

const ROUTINE_BLOCK = /^\s*((create\s+(or\s+replace\s+)?)|with\s+)?function\b/i;
/** A piece of a routine body shown alone (`top: REPEAT ...`, `WHILE ... DO`, `DECLARE x ...`, `RETURN 42;`): no statement. */
const BODY_SNIPPET = /^\s*(\w+\s*:\s*)?(while|repeat|loop|declare|return|begin|if|case|iterate|leave)\b/i;
const DECLARATION = /^function\b/i;
/** Statements that may take a WITH FUNCTION clause: queries (EXPLAINed or not). */
const QUERY = /^(explain\s+)?(select|with|values|table)\b/i;

export function isRoutineSnippet(body: readonly string[]): boolean {
  const first = body.find((l) => l.trim() !== '');
  return first !== undefined && BODY_SNIPPET.test(first);
}

/** Whether a block's statements hold a routine: the whole block is one statement. */
export function isRoutineBlock(body: readonly string[]): boolean {
  return ROUTINE_BLOCK.test(body.filter((l) => !l.trim().startsWith('--')).join(' '));
}

/** The whole block as one statement, without its last `;`. */
export function routineStatement(body: readonly string[]): DocExample {
  const sql = body.map(withoutComment).join(' ').replace(/\s+/g, ' ').trim().replace(/;$/, '');
  return { sql };
}

/** The line up to a `--` comment outside quotes. */
function withoutComment(line: string): string {
  const comment = outsideQuotes(line, (i) => line.startsWith('--', i));
  return comment < 0 ? line : line.slice(0, comment);
}

/** The first position outside quotes where `at` holds, or -1. */
export function outsideQuotes(line: string, at: (i: number) => boolean): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (at(i)) return i;
  }
  return -1;
}

interface Declaration {
  name: string;
  /** `name(type, ...)`: a later declaration with the same replaces the earlier one. */
  signature: string;
  text: string;
  specification: FunctionSpecification;
}

/** The page's examples with declarations turned into checks and calls given the declarations they need. */
export function withRoutineDeclarations(examples: readonly DocExample[]): DocExample[] {
  const declared: Declaration[] = [];
  return examples.map((example) => {
    if (!DECLARATION.test(example.sql)) return calling(example, declared);
    const declaration = parseDeclaration(example.sql);
    if (declaration === undefined) return example; // runs as written: the syntax error is its outcome
    const earlier = declared.findIndex((d) => d.signature === declaration.signature);
    if (earlier >= 0) declared.splice(earlier, 1);
    declared.push(declaration);
    const nulls = declaration.specification.declaration.parameters.map((p) => `CAST(NULL AS ${formatType(p.type)})`);
    return calling({ sql: `EXPLAIN SELECT ${declaration.name}(${nulls.join(', ')})` }, declared);
  });
}

function parseDeclaration(text: string): Declaration | undefined {
  try {
    const statement = parseStatement(`WITH ${text} SELECT 1`);
    const specification = statement.kind === 'QueryStatement' ? statement.query.functions?.[0] : undefined;
    if (specification === undefined) return undefined;
    const name = specification.declaration.name.parts.map((p) => p.value).join('.');
    return {
      name,
      signature: `${name}(${specification.declaration.parameters.map((p) => formatType(p.type)).join(',')})`,
      text,
      specification,
    };
  } catch {
    return undefined;
  }
}

/** `example` with the declarations it calls (and those they call) in a WITH FUNCTION clause in front. */
function calling(example: DocExample, declared: readonly Declaration[]): DocExample {
  if (declared.length === 0 || !QUERY.test(example.sql) || /^(explain\s+)?with\s+function\b/i.test(example.sql)) return example;
  const needed = new Set<Declaration>();
  const visit = (text: string) => {
    for (const d of declared) {
      if (!needed.has(d) && new RegExp(`\\b${d.name}\\s*\\(`, 'i').test(text)) {
        needed.add(d);
        visit(d.text);
      }
    }
  };
  visit(example.sql);
  if (needed.size === 0) return example;
  const functions = declared.filter((d) => needed.has(d)).map((d) => d.text);
  const explain = /^explain\s+/i.exec(example.sql)?.[0] ?? '';
  return { ...example, sql: `${explain}WITH ${functions.join(', ')} ${example.sql.slice(explain.length)}` };
}
