// The interactive shell of `engine sql`: reads statements ending in `;` (over several lines if need
// be), runs them one by one, keeps history in ~/.engine_history, and exits on quit, exit or Ctrl-D.
// Ctrl-C cancels the running query, or discards the statement being typed (all its lines). History
// holds whole statements, as Trino's CLI does: Up recalls a multi-line statement at once; each is
// written to the file as it is entered. After a query it prints Trino's summary (query id, splits,
// rows, bytes, rates). Fed through a pipe, it runs the statements it reads without prompts.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { ClientError } from '../internode/client-error.js';
import type { ClientSession } from './client/client-session.js';
import { interruptStatement, runStatement, type PrinterFactory, type StatementRun } from './run-statement.js';
import { HISTORY_SIZE, HistoryFile } from './shell-history.js';
import { splitStatements } from './statement-splitter.js';

export async function runShell(initial: ClientSession, printerFor: PrinterFactory, userAgent: string): Promise<number> {
  const interactive = process.stdin.isTTY === true;
  const historyFile = new HistoryFile(join(homedir(), '.engine_history'));
  const rl = createInterface({
    input: process.stdin,
    output: interactive ? process.stdout : undefined,
    terminal: interactive,
    history: interactive ? historyFile.load() : [],
    // The shell adds whole statements itself: readline would add each line.
    historySize: 0,
  });
  const history = rl as unknown as ReadlineHistory;
  /** The lines of the entry being typed (one statement or several, possibly over several lines). */
  let typed: string[] = [];
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
        const entry = typed.join('\n');
        if (addToHistory(history, entry)) historyFile.append(entry);
        typed = [];
      }
      for (const sql of complete) {
        try {
          const outcome = await runStatement(sql, session, printerFor, userAgent, run, interactive);
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

/** Adds the entry unless it repeats the newest one; whether it did. */
function addToHistory(rl: ReadlineHistory, entry: string): boolean {
  // With historySize 0 readline leaves the browsing position where Up left it.
  rl.historyIndex = -1;
  if (rl.history[0] === entry) return false;
  rl.history.unshift(entry);
  if (rl.history.length > HISTORY_SIZE) rl.history.length = HISTORY_SIZE;
  return true;
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
