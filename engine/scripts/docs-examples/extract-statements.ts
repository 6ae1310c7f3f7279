// The examples of a page of Trino's statement documentation (sql/*.md, language/types.md): every
// statement of a fenced SQL block, in page order (they build on each other: CREATE VIEW, then
// SHOW CREATE VIEW), with the result the page gives, if any: `-- result` lines after the statement,
// or a following ```text block holding a CLI table (header, `---+---`, rows, `(n rows)`).

import type { DocExample } from './extract.js';
import { isRoutineBlock, isRoutineSnippet, outsideQuotes, routineStatement, withRoutineDeclarations } from './routine-examples.js';

const FENCE = /^\s*```\s*(\w*)/;
const TABLE_RULE = /^-+(\+-+)*$/;
const ROW_COUNT = /^\(\d+ rows?\)$/;
/** The first word of a statement an example may run. */
const STATEMENT_START =
  /^(select|with|values|create|drop|alter|insert|update|delete|merge|truncate|comment|show|describe|start|commit|rollback|explain|use|set|reset|table|prepare|execute|deallocate|grant|revoke|call|analyze|function)\b/i;
/** A synopsis's notation (`[ OR REPLACE ]`, `{ A | B }`, `...`, `<name>`): such a block describes a statement, it is no example. */
const SYNOPSIS_NOTATION = /\.\.\.|\[ |\{ |<[a-z_]+>/i;

export function extractStatementExamples(markdown: string): DocExample[] {
  const examples: DocExample[] = [];
  let lastOfBlock: DocExample | undefined;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (open === null) continue;
    const body: string[] = [];
    for (i++; i < lines.length && !FENCE.test(lines[i]); i++) body.push(lines[i]);
    const table = cliTable(body);
    if (table !== undefined) {
      if (lastOfBlock !== undefined && lastOfBlock.expected === undefined && table !== 'partial') {
        lastOfBlock.expectedRows = table;
        lastOfBlock.expected = table.join(' ');
      }
      lastOfBlock = undefined;
      continue;
    }
    // A text block holds a synopsis unless it ends its statements with `;` (select.md's WITH RECURSIVE).
    if (open[1] !== '' && open[1].toLowerCase() !== 'sql' && !body.some((l) => statementEnd(l) >= 0)) continue;
    if (isRoutineSnippet(body)) continue;
    // A routine's body may hold what looks like synopsis notation ('...'): its block is no synopsis when it parses as a statement.
    const statements = isRoutineBlock(body)
      ? [routineStatement(body)]
      : blockStatements(body).filter((s) => STATEMENT_START.test(s.sql) && !SYNOPSIS_NOTATION.test(s.sql));
    if (statements.length === 0) continue;
    examples.push(...statements);
    lastOfBlock = statements[statements.length - 1];
  }
  return withRoutineDeclarations(examples);
}

/** A CLI result table's rows as `(a, b)` texts, 'partial' when it elides rows, or undefined when the block is not one. */
function cliTable(body: string[]): string[] | 'partial' | undefined {
  const lines = body.map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length < 2 || !TABLE_RULE.test(lines[1])) return undefined;
  const rows = lines.slice(2).filter((l) => !ROW_COUNT.test(l));
  // A table cut short (`...`) documents some rows only: the example counts as run, not compared.
  if (rows.includes('...')) return 'partial';
  return rows.map(
    (l) =>
      `(${l
        .split('|')
        .map((cell) => cell.trim())
        .join(', ')})`,
  );
}

/**
 * The statements of a block: each ends at `;` or the block's end. `--` lines right after a
 * statement's `;`, or closing a paragraph that holds a statement, are its documented result; other
 * `--` lines are the statement's own comments.
 */
function blockStatements(body: string[]): DocExample[] {
  const statements: DocExample[] = [];
  let current: string[] = [];
  let comments: string[] = [];
  let finished: DocExample | undefined;
  const finish = (result: string[]) => {
    const sql = current.join(' ').replace(/\s+/g, ' ').trim();
    current = [];
    comments = [];
    if (sql === '') return undefined;
    const example: DocExample = { sql, expected: result.length > 0 ? result.join(' ') : undefined };
    statements.push(example);
    return example;
  };
  for (const raw of body) {
    const line = raw.trim();
    if (line.startsWith('--')) {
      const text = line.slice(2).trim();
      if (current.length === 0 && finished !== undefined && finished.expected === undefined) finished.expected = text;
      else if (current.length > 0) comments.push(text);
      continue;
    }
    if (line === '') {
      if (current.length > 0 && comments.length > 0) finished = finish(comments);
      continue;
    }
    finished = undefined;
    comments = [];
    const end = statementEnd(line);
    if (end < 0) {
      current.push(line);
      continue;
    }
    current.push(line.slice(0, end));
    finished = finish([]);
    const rest = line.slice(end + 1).trim();
    if (rest.startsWith('--') && finished !== undefined) finished.expected = rest.slice(2).trim();
  }
  if (current.length > 0) finish(comments);
  return statements;
}

/** The position of a `;` outside quotes, or -1. */
function statementEnd(line: string): number {
  return outsideQuotes(line, (i) => line[i] === ';');
}
