// The checkable examples of a page of Trino's documentation: a SELECT in a fenced block followed by
// its documented result, written as `-- result` after the statement (same line or next); a result
// of several rows is one `-- (a, b)` line per row.

export interface DocExample {
  sql: string;
  expected?: string;
  /** The documented rows, when the result is several `(a, b)` lines (their order is not the point). */
  expectedRows?: string[];
}

const ROW_LINE = /^\(.*\)$/;

const FENCE = /^\s*```/;

export function extractExamples(markdown: string): DocExample[] {
  const examples: DocExample[] = [];
  let inBlock = false;
  let statement: string[] = [];
  let pending: string | undefined;
  let results: string[] = [];
  const finish = () => {
    const lines = results.map((r) => r.trim()).filter((r) => r !== '');
    if (pending !== undefined && lines.length > 1 && lines.every((l) => ROW_LINE.test(l)))
      examples.push({ sql: pending, expected: lines.join(' '), expectedRows: lines });
    else if (pending !== undefined && lines.length > 0) examples.push({ sql: pending, expected: lines[0] });
    pending = undefined;
    results = [];
  };
  for (const raw of markdown.split('\n')) {
    if (FENCE.test(raw)) {
      inBlock = !inBlock;
      statement = [];
      finish();
      continue;
    }
    if (!inBlock) continue;
    const line = raw.trim();
    if (pending !== undefined) {
      if (line.startsWith('--')) {
        results.push(line.slice(2));
        continue;
      }
      finish();
    }
    if (statement.length === 0 && !/^select\b/i.test(line)) continue;
    // A comment line inside a statement is the statement's own comment, not a result.
    if (statement.length > 0 && line.startsWith('--')) continue;
    const semicolon = line.indexOf(';');
    statement.push(semicolon >= 0 ? line.slice(0, semicolon) : line);
    if (semicolon < 0) continue;
    pending = statement.join(' ').replace(/\s+/g, ' ').trim();
    statement = [];
    const rest = line.slice(semicolon + 1).trim();
    if (rest.startsWith('--')) results.push(rest.slice(2));
  }
  return examples;
}

/** A result as text compared loosely: quotes, `->` vs `=`, ROW(...) vs {...}, case of keywords. */
export function normalizeResult(text: string): string {
  return text
    .trim()
    .replace(/\s+\([a-z][a-z ]* [a-z ]*\)$/i, '') // a trailing remark: 'a' (invalid JSON)
    .replace(/\bJSON '/g, "'") // a json value is shown as its text
    .replace(/^'(.*)'$/s, '$1')
    .replace(/ROW\(/g, '{')
    .replace(/\)(?=[,\]}]|$)/g, (m, offset: number, s: string) => (s.lastIndexOf('{', offset) > s.lastIndexOf('(', offset) ? '}' : m))
    .replace(/ -> /g, '=')
    .replace(/'([^']*)'/g, '$1')
    .replace(/\bnull\b/gi, 'NULL')
    .replace(/\s+/g, ' ');
}

/** Error names that mean the engine lacks something, never that it refused bad input as documented. */
const MISSING_FEATURE_ERRORS = new Set(['NOT_SUPPORTED', 'FUNCTION_NOT_FOUND', 'SYNTAX_ERROR', 'TYPE_NOT_FOUND', 'GENERIC_INTERNAL_ERROR']);

/** Whether an error answers an example documented to fail (`-- ERROR!`, `--> failure: ...`). */
export function isDocumentedFailure(expected: string, errorName: string | undefined): boolean {
  return /^\s*(?:ERROR|failure)\b/i.test(expected) && errorName !== undefined && !MISSING_FEATURE_ERRORS.has(errorName);
}

/** Error names that say an example's tables (the checker's setup), not the engine, are missing. */
const SETUP_ERRORS = new Set(['TABLE_NOT_FOUND', 'CATALOG_NOT_FOUND', 'SCHEMA_NOT_FOUND', 'COLUMN_NOT_FOUND']);

export function isMissingSetup(errorName: string | undefined): boolean {
  return errorName !== undefined && SETUP_ERRORS.has(errorName);
}
