// Runs sqllogictest files against an Engine server over HTTP. Each file gets a fresh schema in the
// memory catalog, so files are independent and may run in parallel.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { expectedHash, expectedText, formatValue, hashLine, hashValues, resultMatches, sortValues } from './format.js';
import { executeStatement, type StatementOutcome, type StatementSession } from './statement-client.js';
import { parseTestFile, recordApplies, type ExpectedResult, type TestRecord } from './test-file.js';
import { outsideServer, type SqlLogicTestServers } from './servers.js';

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

/** A statement that ran past its deadline on servers that no longer answered: the rest of its file did not run. */
export interface ServerHang {
  file: string;
  line: number;
  sql: string;
  /** What was found and done (the servers killed and replaced, or only reported). */
  reason: string;
  /** Records after it counted as failed without running. */
  notRun: number;
}

/** A statement's planning time on the server (stats.planningTimeMillis). */
export interface PlanningTime {
  file: string;
  line: number;
  sql: string;
  millis: number;
}

export interface FileResult {
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  failures: RecordFailure[];
  /** Set when the file could not run at all (its records then count as failed). */
  setupError?: string;
  hang?: ServerHang;
  /** Its statements' planning times, the slowest first (at most SLOWEST_PLANS). */
  slowestPlans: PlanningTime[];
  /** Its statements' planning times added up. */
  planningMillis: number;
  millis: number;
}

export interface Summary {
  files: FileResult[];
  passed: number;
  failed: number;
  skipped: number;
  /** Over all files, the slowest first (at most SLOWEST_PLANS). */
  slowestPlans: PlanningTime[];
  planningMillis: number;
}

/** A statement's outcome in a file's run; `hang` when the servers hung (or were replaced) meanwhile. */
export interface RecordOutcome extends StatementOutcome {
  hang?: string;
}

/** Executes one statement in the file's session. */
export type StatementExecutor = (sql: string) => Promise<RecordOutcome>;

/** How many of the slowest plans a run keeps (its report lists them). */
export const SLOWEST_PLANS = 10;

const DEFAULT_ENGINE_NAMES = ['engine', 'trino'];
/** How many result values a failure shows before eliding the rest. */
const SHOWN_VALUES = 40;

/** Runs `files` against `servers` (a URL: a server this run did not start, never restarted). */
export async function runSqlLogicTestFiles(
  servers: string | SqlLogicTestServers,
  files: readonly string[],
  options: RunOptions = {},
): Promise<Summary> {
  const target = typeof servers === 'string' ? outsideServer(servers) : servers;
  const results: FileResult[] = new Array(files.length);
  let nextFile = 0;
  const worker = async (): Promise<void> => {
    while (nextFile < files.length) {
      const index = nextFile++;
      results[index] = await runSqlLogicTestFile(target, files[index], options);
      options.onFileDone?.(results[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs ?? 1, files.length)) }, worker));
  return summarize(results);
}

export function summarize(files: FileResult[]): Summary {
  const sum = (pick: (f: FileResult) => number): number => files.reduce((n, f) => n + pick(f), 0);
  const slowestPlans = slowest(files.flatMap((f) => f.slowestPlans));
  return {
    files,
    passed: sum((f) => f.passed),
    failed: sum((f) => f.failed),
    skipped: sum((f) => f.skipped),
    slowestPlans,
    planningMillis: sum((f) => f.planningMillis),
  };
}

function slowest(plans: PlanningTime[]): PlanningTime[] {
  return plans.sort((a, b) => b.millis - a.millis).slice(0, SLOWEST_PLANS);
}

export async function runSqlLogicTestFile(servers: SqlLogicTestServers, file: string, options: RunOptions = {}): Promise<FileResult> {
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
  const { url, generation } = servers.current();
  const run = async (sql: string, inSchema: boolean): Promise<RecordOutcome> => {
    const replaced = (): string | undefined =>
      servers.current().generation === generation ? undefined : 'the servers were replaced after a hang (in another file)';
    const before = replaced();
    if (before !== undefined) return { columns: [], rows: [], error: { message: before }, hang: before };
    const outcome = await executeStatement(url, sql, inSchema ? { ...session, schema } : session, { timeoutMillis });
    // Past the deadline: do the servers still answer? An error otherwise may be their replacement's doing.
    const hang = outcome.timedOut === true ? await servers.afterDeadline(generation) : outcome.error && replaced();
    return hang === undefined ? outcome : { ...outcome, hang };
  };

  const setup = await run(`CREATE SCHEMA ${schema}`, false);
  if (setup.error !== undefined) {
    const message = `CREATE SCHEMA ${session.catalog}.${schema} failed: ${setup.error.message}`;
    const counted = records.filter((r) => r.kind === 'statement' || r.kind === 'query').length;
    const hang =
      setup.hang === undefined ? undefined : { file, line: 0, sql: `CREATE SCHEMA ${schema}`, reason: setup.hang, notRun: counted };
    return {
      file,
      passed: 0,
      failed: counted,
      skipped: 0,
      failures: [],
      setupError: message,
      hang,
      slowestPlans: [],
      planningMillis: 0,
      millis: Date.now() - started,
    };
  }
  let result: Omit<FileResult, 'millis'> | undefined;
  try {
    result = await runRecords(file, records, (sql) => run(sql, true), new Set(options.engineNames ?? DEFAULT_ENGINE_NAMES));
    return { ...result, millis: Date.now() - started };
  } finally {
    // After a hang the schema went with the servers (or they answer nothing).
    if (result?.hang === undefined) await run(`DROP SCHEMA ${schema} CASCADE`, false);
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
  const result: Omit<FileResult, 'millis'> = { file, passed: 0, failed: 0, skipped: 0, failures: [], slowestPlans: [], planningMillis: 0 };
  const labels = new Map<string, string>();
  let hashThreshold = 0;
  const fail = (record: TestRecord, sql: string, expected: string, actual: string, label?: string): void => {
    result.failed++;
    result.failures.push({ file, line: record.line, ...(label === undefined ? {} : { label }), sql, expected, actual });
  };
  const planned: PlanningTime[] = [];
  /** Runs a record's statement; after a hang, the records left count as failed and the file ends. */
  const executeRecord = async (index: number, record: TestRecord & { sql: string }): Promise<RecordOutcome> => {
    const outcome = await execute(stripTerminator(record.sql));
    if (outcome.planningMillis !== undefined) planned.push({ file, line: record.line, sql: record.sql, millis: outcome.planningMillis });
    if (outcome.hang !== undefined) {
      const notRun = records
        .slice(index + 1)
        .filter((r) => (r.kind === 'statement' || r.kind === 'query') && recordApplies(r.conditions, engineNames)).length;
      result.hang = { file, line: record.line, sql: record.sql, reason: outcome.hang, notRun };
    }
    return outcome;
  };
  const finish = (): Omit<FileResult, 'millis'> => {
    result.failed += result.hang?.notRun ?? 0;
    result.planningMillis = planned.reduce((n, p) => n + p.millis, 0);
    result.slowestPlans = slowest(planned);
    return result;
  };

  for (const [index, record] of records.entries()) {
    if (result.hang !== undefined) return finish();
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
        return finish();
      case 'hash-threshold':
        hashThreshold = record.threshold;
        break;
      case 'invalid':
        fail(record, '', 'a valid record', record.message);
        break;
      case 'statement': {
        const outcome = await executeRecord(index, record);
        const problem = unanswered(outcome) ?? checkStatement(record, outcome);
        if (problem === null) result.passed++;
        else fail(record, record.sql, problem.expected, problem.actual);
        break;
      }
      case 'query': {
        const outcome = await executeRecord(index, record);
        const problem = unanswered(outcome) ?? checkQuery(record, outcome, hashThreshold, labels);
        if (problem === null) result.passed++;
        else fail(record, record.sql, problem.expected, problem.actual, record.label);
        break;
      }
    }
  }
  return finish();
}

/** SQLite accepts a trailing ';', the Trino grammar does not. */
function stripTerminator(sql: string): string {
  return sql.replace(/;\s*$/, '');
}

export interface Problem {
  expected: string;
  actual: string;
}

/** A statement past its deadline, or cut off by a hang, fails even where an error was expected. */
function unanswered(outcome: RecordOutcome): Problem | null {
  if (outcome.timedOut !== true && outcome.hang === undefined) return null;
  const hang = outcome.hang === undefined ? '' : `\n(server hang: ${outcome.hang})`;
  return { expected: 'an answer before the deadline', actual: `error: ${outcome.error?.message ?? 'none'}${hang}` };
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
