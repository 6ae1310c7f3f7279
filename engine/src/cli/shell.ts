// The interactive shell of `engine sql`: reads statements ending in `;` (over several lines if need
// be), runs them one by one, keeps history in ~/.engine_history, and exits on quit, exit or Ctrl-D.
// Ctrl-C cancels the running query, or clears the statement being typed. Fed through a pipe, it
// runs the statements it reads without prompts.

import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ClientError } from './client/statement-client.js';
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
    historySize: HISTORY_SIZE,
  });
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
    buffer = '';
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
      const { complete, remainder } = splitStatements(buffer);
      buffer = remainder;
      for (const sql of complete) {
        try {
          const outcome = await runStatement(sql, session, createPrinter(format, sink), userAgent, run);
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
    if (interactive) saveHistory((rl as unknown as { history: string[] }).history);
    rl.close();
  }
  if (buffer.trim() !== '' && !interactive) {
    process.stderr.write(`Statement not run (missing ';' at the end): ${buffer.trim().slice(0, 80)}\n`);
    failures++;
  }
  return failures > 0 && !interactive ? 1 : 0;
}

function loadHistory(): string[] {
  try {
    return readFileSync(HISTORY_FILE, 'utf8').split('\n').filter((l) => l !== '').reverse().slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

function saveHistory(history: readonly string[]): void {
  try {
    writeFileSync(HISTORY_FILE, `${[...history].slice(0, HISTORY_SIZE).reverse().join('\n')}\n`);
  } catch {
    // history is a convenience; a read-only home must not break the shell
  }
}
