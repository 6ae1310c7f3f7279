// The interactive shell of `engine sql`: reads statements ending in `;` (over several lines if need
// be), runs them one by one, keeps history in ~/.engine_history, and exits on quit, exit or Ctrl-D.
// Ctrl-C cancels the running query, or discards the statement being typed (all its lines). History
// holds whole statements, as Trino's CLI does: Up recalls a multi-line statement at once. After a
// query it prints Trino's summary (query id, splits, rows, bytes, rates). Fed through a pipe, it
// runs the statements it reads without prompts.

import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { ClientError } from './client/client-error.js';
import type { ClientSession } from './client/client-session.js';
import { createPrinter, type OutputFormat } from './output/printer.js';
import { OutputSink } from './output/sink.js';
import { interruptStatement, runStatement, type StatementRun } from './run-statement.js';
import { splitStatements } from './statement-splitter.js';

const HISTORY_FILE = join(homedir(), '.engine_history');
const HISTORY_SIZE = 1000;

export async function runShell(initial: ClientSession, format: OutputFormat, userAgent: string): Promise<number> {
  const interactive = process.stdin.isTTY === true;
  const rl = createInterface({
    input: process.stdin,
    output: interactive ? process.stdout : undefined,
    terminal: interactive,
    history: interactive ? loadHistory() : [],
    // The shell adds whole statements itself: readline would add each line.
    historySize: 0,
  });
  const history = rl as unknown as ReadlineHistory;
  /** The lines of the entry being typed (one statement or several, possibly over several lines). */
  let typed: string[] = [];
  const sink = new OutputSink(process.stdout);
  const run: StatementRun = {};
  let session = initial;
  let buffer = '';
  let failures = 0;
  const prompt = () => {
    if (!interactive) return;
    rl.setPrompt(buffer === '' ? `engine${session.schema ? `:${session.schema}` : ''}> ` : '     -> ');
    rl.prompt();
  };
  const onInterrupt = () => {
    if (interruptStatement(run)) return;
    if (!interactive) process.exit(130);
    // Discard both the lines already entered and the one in readline's edit buffer.
    buffer = '';
    typed = [];
    clearEditBuffer(rl);
    process.stdout.write('\n');
    prompt();
  };
  rl.on('SIGINT', onInterrupt);
  process.on('SIGINT', onInterrupt);
  prompt();
  try {
    for await (const line of rl) {
      if (buffer === '' && /^\s*(quit|exit)\s*;?\s*$/i.test(line)) break;
      buffer = buffer === '' ? line : `${buffer}\n${line}`;
      if (buffer !== '') typed.push(line);
      const { complete, remainder } = splitStatements(buffer);
      buffer = remainder;
      if (interactive && remainder === '' && typed.length > 0) {
        addToHistory(history, typed.join('\n'));
        typed = [];
      }
      for (const sql of complete) {
        try {
          const outcome = await runStatement(sql, session, createPrinter(format, sink), userAgent, run, interactive);
          session = outcome.session;
          if (!outcome.ok) failures++;
        } catch (e) {
          if (!(e instanceof ClientError)) throw e;
          process.stderr.write(`Error running command: ${e.message}\n`);
          failures++;
        }
      }
      prompt();
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    if (interactive) saveHistory(history.history);
    rl.close();
  }
  if (buffer.trim() !== '' && !interactive) {
    process.stderr.write(`Statement not run (missing ';' at the end): ${buffer.trim().slice(0, 80)}\n`);
    failures++;
  }
  return failures > 0 && !interactive ? 1 : 0;
}

/** readline's history, newest first, and its position while Up/Down browse it (both internal to readline). */
interface ReadlineHistory {
  history: string[];
  historyIndex: number;
}

function addToHistory(rl: ReadlineHistory, entry: string): void {
  if (rl.history[0] !== entry) rl.history.unshift(entry);
  if (rl.history.length > HISTORY_SIZE) rl.history.length = HISTORY_SIZE;
  // With historySize 0 readline leaves the browsing position where Up left it.
  rl.historyIndex = -1;
}

/**
 * Empties the line being edited. Set directly: readline has no call for it, and the Ctrl-U key it
 * would take is ignored on a TERM=dumb terminal.
 */
function clearEditBuffer(rl: Interface): void {
  const editor = rl as unknown as { line: string; cursor: number };
  editor.line = '';
  editor.cursor = 0;
}

/** One entry a line; newlines and backslashes inside a multi-line statement are escaped. */
function loadHistory(): string[] {
  try {
    return readFileSync(HISTORY_FILE, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map(unescapeEntry)
      .reverse()
      .slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

function saveHistory(history: readonly string[]): void {
  try {
    writeFileSync(HISTORY_FILE, `${[...history].slice(0, HISTORY_SIZE).reverse().map(escapeEntry).join('\n')}\n`);
  } catch {
    // history is a convenience; a read-only home must not break the shell
  }
}

function escapeEntry(entry: string): string {
  return entry.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function unescapeEntry(line: string): string {
  return line.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}
