// Splits SQL text at semicolons that end statements — not those inside quotes or comments.

export interface SplitResult {
  /** Statements that ended with a semicolon, without it, trimmed; empty ones dropped. */
  complete: string[];
  /** Text after the last terminating semicolon, trimmed. */
  remainder: string;
}

export function splitStatements(text: string): SplitResult {
  const complete: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "'" || c === '"') {
      i = skipQuoted(text, i, c);
    } else if (c === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === ';') {
      const statement = text.slice(start, i).trim();
      if (statement !== '' && !isOnlyComments(statement)) complete.push(statement);
      start = ++i;
    } else {
      i++;
    }
  }
  return { complete, remainder: text.slice(start).trim() };
}

/** Index after the closing quote (a doubled quote is an escaped one). */
function skipQuoted(text: string, open: number, quote: string): number {
  let i = open + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return text.length;
}

/** True when the text holds nothing but comments and whitespace. */
export function isOnlyComments(text: string): boolean {
  return (
    text
      .replace(/--[^\n]*(\n|$)/g, '')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .trim() === ''
  );
}
