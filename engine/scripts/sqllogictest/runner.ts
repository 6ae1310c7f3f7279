// Runs sqllogictest files against an Engine server over HTTP. Each file gets a fresh schema in the
// memory catalog, so files are independent and may run in parallel.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { expectedHash, expectedText, formatValue, hashLine, hashValues, resultMatches, sortValues } from './format.js';
import { executeStatement, type StatementOutcome, type StatementSession } from './statement-client.js';
import { parseTestFile, recordApplies, type ExpectedResult, type TestRecord } from './test-file.js';

export interface RunOptions {
  /** Catalog the per-file schemas are created in. Default `memory`. */
  catalog?: string;
  user?: string;
  /** Per statement. Default 120 s. */
  timeoutMillis?: number;
  /** Files run at once. Default 1. */
  jobs?: number;
  /** Names this engine answers to in skipif/onlyif. Default engine, trino. */
  engineNames?: readonly string[];
  /** Called as each file finishes (for progress output). */
  onFileDone?: (result: FileResult) => void;
}

export interface RecordFailure {
  file: string;
  line: number;
  label?: string;
  sql: string;
  expected: string;
  actual: string;
}

export interface FileResult {
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  failures: RecordFailure[];
  /** Set when the file could not run at all (its records then count as failed). */
  setupError?: string;
  millis: number;
}

export interface Summary {
  files: FileResult[];
  passed: number;
  failed: number;
  skipped: number;
}

/** Executes one statement in the file's session. */
export type StatementExecutor = (sql: string) => Promise<StatementOutcome>;

const DEFAULT_ENGINE_NAMES = ['engine', 'trino'];
/** How many result values a failure shows before eliding the rest. */
const SHOWN_VALUES = 40;

export async function runSqlLogicTestFiles(serverUrl: string, files: readonly string[], options: RunOptions = {}): Promise<Summary> {
  const results: FileResult[] = new Array(files.length);
  let nextFile = 0;
  const worker = async (): Promise<void> => {
    while (nextFile < files.length) {
      const index = nextFile++;
      results[index] = await runSqlLogicTestFile(serverUrl, files[index], options);
      options.onFileDone?.(results[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs ?? 1, files.length)) }, worker));
  return summarize(results);
}

export function summarize(files: FileResult[]): Summary {
  const sum = (pick: (f: FileResult) => number): number => files.reduce((n, f) => n + pick(f), 0);
  return { files, passed: sum((f) => f.passed), failed: sum((f) => f.failed), skipped: sum((f) => f.skipped) };
}

export async function runSqlLogicTestFile(serverUrl: string, file: string, options: RunOptions = {}): Promise<FileResult> {
  const started = Date.now();
  const records = parseTestFile(await readFile(file, 'utf8'));
  const schema = `slt_${basename(file)
    .replace(/\.test$/, '')
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .toLowerCase()}_${uniqueSuffix()}`;
  const session: StatementSession = {
    user: options.user ?? 'sqllogictest',
    source: 'sqllogictest',
    catalog: options.catalog ?? 'memory',
  };
  const timeoutMillis = options.timeoutMillis ?? 120_000;
  const run = (sql: string, inSchema: boolean): Promise<StatementOutcome> =>
    executeStatement(serverUrl, sql, inSchema ? { ...session, schema } : session, { timeoutMillis });

  const setup = await run(`CREATE SCHEMA ${schema}`, false);
  if (setup.error !== undefined) {
    const message = `CREATE SCHEMA ${session.catalog}.${schema} failed: ${setup.error.message}`;
    const counted = records.filter((r) => r.kind === 'statement' || r.kind === 'query').length;
    return { file, passed: 0, failed: counted, skipped: 0, failures: [], setupError: message, millis: Date.now() - started };
  }
  try {
    const result = await runRecords(file, records, (sql) => run(sql, true), new Set(options.engineNames ?? DEFAULT_ENGINE_NAMES));
    return { ...result, millis: Date.now() - started };
  } finally {
    await run(`DROP SCHEMA ${schema} CASCADE`, false);
  }
}

function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
}

/** Runs parsed records in order through `execute`; the per-file state is the hash threshold and labels. */
export async function runRecords(
  file: string,
  records: readonly TestRecord[],
  execute: StatementExecutor,
  engineNames: ReadonlySet<string>,
): Promise<Omit<FileResult, 'millis'>> {
  const result: Omit<FileResult, 'millis'> = { file, passed: 0, failed: 0, skipped: 0, failures: [] };
  const labels = new Map<string, string>();
  let hashThreshold = 0;
  const fail = (record: TestRecord, sql: string, expected: string, actual: string, label?: string): void => {
    result.failed++;
    result.failures.push({ file, line: record.line, ...(label === undefined ? {} : { label }), sql, expected, actual });
  };

  for (const record of records) {
    if (!recordApplies(record.conditions, engineNames)) {
      if (record.kind === 'statement' || record.kind === 'query') result.skipped++;
      // As the reference runner does, a skipped labelled query still records its expected hash.
      if (record.kind === 'query' && record.label !== undefined && record.expected !== null && !labels.has(record.label)) {
        labels.set(record.label, expectedHash(record.expected));
      }
      continue;
    }
    switch (record.kind) {
      case 'halt':
        return result;
      case 'hash-threshold':
        hashThreshold = record.threshold;
        break;
      case 'invalid':
        fail(record, '', 'a valid record', record.message);
        break;
      case 'statement': {
        const outcome = await execute(stripTerminator(record.sql));
        const problem = checkStatement(record, outcome);
        if (problem === null) result.passed++;
        else fail(record, record.sql, problem.expected, problem.actual);
        break;
      }
      case 'query': {
        const problem = checkQuery(record, await execute(stripTerminator(record.sql)), hashThreshold, labels);
        if (problem === null) result.passed++;
        else fail(record, record.sql, problem.expected, problem.actual, record.label);
        break;
      }
    }
  }
  return result;
}

/** SQLite accepts a trailing ';', the Trino grammar does not. */
function stripTerminator(sql: string): string {
  return sql.replace(/;\s*$/, '');
}

export interface Problem {
  expected: string;
  actual: string;
}

export function checkStatement(record: Extract<TestRecord, { kind: 'statement' }>, outcome: StatementOutcome): Problem | null {
  const error = outcome.error;
  if (!record.expectError) return error === undefined ? null : { expected: 'statement ok', actual: `error: ${error.message}` };
  if (error === undefined) return { expected: 'statement error', actual: 'statement succeeded' };
  if (record.errorPattern !== undefined && !new RegExp(record.errorPattern).test(error.message)) {
    return { expected: `error matching /${record.errorPattern}/`, actual: `error: ${error.message}` };
  }
  return null;
}

export function checkQuery(
  record: Extract<TestRecord, { kind: 'query' }>,
  outcome: StatementOutcome,
  hashThreshold: number,
  labels: Map<string, string>,
): Problem | null {
  const expected = record.expected === null ? 'query succeeds' : shownExpected(record.expected);
  if (outcome.error !== undefined) return { expected, actual: `error: ${outcome.error.message}` };
  if (outcome.columns.length !== record.types.length) {
    return { expected: `${record.types.length} columns`, actual: `${outcome.columns.length} columns` };
  }
  const values: string[] = [];
  for (const row of outcome.rows) {
    row.forEach((value, i) => values.push(formatValue(value, record.types[i], outcome.columns[i].type)));
  }
  const actual = sortValues(values, record.types.length, record.sort);
  if (record.expected !== null && !resultMatches(record.expected, actual)) {
    const hashed = record.expected.kind === 'hash' || (hashThreshold > 0 && actual.length > hashThreshold);
    return { expected, actual: hashed ? `${hashLine(actual)}\n${preview(actual)}` : preview(actual) };
  }
  if (record.label !== undefined) {
    const hash = hashValues(actual);
    const previous = labels.get(record.label);
    if (previous === undefined) labels.set(record.label, hash);
    else if (previous !== hash) {
      return {
        expected: `the result of earlier queries labelled ${record.label}`,
        actual: `labeled result [${record.label}] does not agree with previous values`,
      };
    }
  }
  return null;
}

function shownExpected(expected: ExpectedResult): string {
  return expected.kind === 'hash' ? expectedText(expected) : preview(expected.values);
}

function preview(values: readonly string[]): string {
  const shown = values.slice(0, SHOWN_VALUES).join('\n');
  return values.length > SHOWN_VALUES ? `${shown}\n... (${values.length - SHOWN_VALUES} more values)` : shown;
}
