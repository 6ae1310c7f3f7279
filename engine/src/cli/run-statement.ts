// Runs one statement for the CLI: submits it, prints rows as they arrive, shows progress on a
// terminal, and reports an update (CREATE TABLE, INSERT: 3 rows) or a failure on stderr.

import { RunningStatement } from './client/statement-client.js';
import type { ClientSession } from './client/client-session.js';
import { renderFailure } from './failure-printer.js';
import { renderFinalSummary } from './final-summary.js';
import { OutputHandler } from './output/output-handler.js';
import type { OutputPrinter } from './output/printer.js';
import type { ColumnJson } from '../server/statement-json.js';
import { ProgressLine } from './progress.js';

/** Makes the printer for a statement's result once its columns are known. */
export type PrinterFactory = (columns: readonly ColumnJson[]) => OutputPrinter;

export interface StatementOutcome {
  ok: boolean;
  /** The session for the next statement (changed by USE, SET SESSION, PREPARE, ...). */
  session: ClientSession;
}

export interface StatementRun {
  /** Set while a statement runs: cancels it (Ctrl-C). */
  cancel?: () => void;
  /** Whether Ctrl-C already asked the server to cancel the running statement. */
  cancelRequested?: boolean;
}

/** Ctrl-C while a statement runs: the first cancels it, a second one (a server that does not answer) quits. */
export function interruptStatement(run: StatementRun): boolean {
  if (!run.cancel) return false;
  if (run.cancelRequested) {
    process.stderr.write('\nQuery abandoned: the server did not confirm the cancellation\n');
    process.exit(130);
  }
  run.cancelRequested = true;
  run.cancel();
  return true;
}

export async function runStatement(
  sql: string,
  session: ClientSession,
  printerFor: PrinterFactory,
  userAgent: string,
  run: StatementRun = {},
  /** Print Trino's summary (query, splits, rows, bytes, rates) after it, as the interactive shell does. */
  summary = false,
): Promise<StatementOutcome> {
  const statement = await RunningStatement.submit(session, sql, userAgent);
  const progress = ProgressLine.forStderr();
  run.cancel = () => void statement.cancel();
  run.cancelRequested = false;
  let output: OutputHandler | undefined;
  try {
    for (;;) {
      const response = statement.current;
      if (response.columns && output === undefined && response.updateType === undefined) {
        output = new OutputHandler(printerFor(response.columns), () => progress?.clear());
      }
      if (statement.dataBytes !== undefined) await output?.addJsonRows(statement.dataBytes, () => statement.rows());
      else await output?.add(response.data ?? []);
      if (statement.done) break;
      progress?.update(response);
      await statement.advance();
    }
  } finally {
    run.cancel = undefined;
    progress?.clear();
  }
  const final = statement.current;
  if (final.error) {
    // As Trino's CLI: rows that arrived before the failure are printed, with the footer, then the failure.
    if (output?.receivedRows) await output.close();
    process.stderr.write(renderFailure(final.id, sql, final.error));
    return { ok: false, session: statement.nextSession() };
  }
  await output?.close();
  if (final.updateType !== undefined) {
    const count = final.updateCount;
    process.stderr.write(`${final.updateType}${count === undefined ? '' : `: ${count} row${count === 1 ? '' : 's'}`}\n`);
  }
  if (summary) process.stderr.write(renderFinalSummary(final));
  return { ok: true, session: statement.nextSession() };
}
