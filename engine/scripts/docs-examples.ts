// Runs the examples of Trino's documentation through the engine and counts, per page, those that
// give the documented result, those that answer differently and those that fail. A measurement, not
// a test: the pages are Trino's (pass a folder holding them, exported from a Trino checkout's
// docs/src/main/sphinx), and their results are compared loosely.
//
//   node engine/dist/scripts/docs-examples.js --docs DIR [--statements] [--verbose] [--time-zone ZONE] [page.md ...]
// Without --statements: the function pages (functions/*.md), each `SELECT ...; -- result`.
// With --statements: statement pages (sql/*.md, language/types.md): every statement of the page,
// its tables first created as docs-examples/statement-setup.ts says; one with a documented result
// (`-- result` or a CLI table after it) is compared, one without passes if it runs. Failures that
// name a missing table, catalog or column are counted apart ("setup"), as the checker's gap.
// (--time-zone: the session zone, UTC by default; the pages' examples assume several.) An example
// whose documented result Trino itself does not give (statement-setup.ts, errata) is compared with
// Trino's result; --verbose names each and says why.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EngineHarness } from '../test/support/engine-harness.js';
import { cliText } from '../test/support/documented-examples.js';
import { extractExamples, isDocumentedFailure, isMissingSetup, normalizeResult, type DocExample } from './docs-examples/extract.js';
import { extractStatementExamples } from './docs-examples/extract-statements.js';
import { TpchConnector } from '../src/connectors/tpch/tpch-connector.js';
import { MemoryConnector } from '../src/connectors/memory/memory-connector.js';
import { DOCS_TPCH_CATALOG, STATEMENT_PAGE_SETUP, withErratum, type PageSetup } from './docs-examples/statement-setup.js';

const { values, positionals } = parseArgs({
  options: { docs: { type: 'string' }, statements: { type: 'boolean' }, verbose: { type: 'boolean' }, 'time-zone': { type: 'string' } },
  allowPositionals: true,
});
if (values.docs === undefined) throw new Error('--docs DIR is required');
const docs = values.docs;
const pages =
  positionals.length > 0
    ? positionals
    : readdirSync(docs)
        .filter((f) => f.endsWith('.md'))
        .sort();
const extract = values.statements ? extractStatementExamples : extractExamples;
const NO_SETUP: PageSetup = { statements: [] };

type Outcome = 'passed' | 'different' | 'setup' | 'failed';

/** An engine with the page's tables created; a setup statement that fails is reported, not fatal. */
async function engineFor(setup: PageSetup): Promise<EngineHarness> {
  const engine = new EngineHarness();
  if (values['time-zone'] !== undefined) engine.session.timeZone = values['time-zone'];
  if (values.statements) {
    engine.catalogs.register(DOCS_TPCH_CATALOG, new TpchConnector(DOCS_TPCH_CATALOG, 'SIMPLIFIED'));
    // The routine pages store their functions in the catalog `example` (udf/introduction.md: a memory catalog),
    // with the SQL environment udf/sql/examples.md configures: example.default as default function schema and path.
    engine.catalogs.register('example', new MemoryConnector('example'));
    engine.catalogs.sqlEnvironment = {
      defaultFunctionSchema: { catalog: 'example', schema: 'default' },
      path: [{ catalog: 'example', schema: 'default' }],
    };
    engine.session.transaction = {}; // a client that supports transactions, as Trino's CLI
  }
  for (const sql of setup.statements) {
    try {
      await engine.query(sql);
    } catch (e) {
      console.log(`  setup failed: ${sql}\n    ${(e as Error).message}`);
    }
  }
  return engine;
}

async function run(engine: EngineHarness, { sql, expected, expectedRows }: DocExample, setup: PageSetup): Promise<Outcome> {
  const documentedError = setup.failing?.[sql];
  try {
    const { rows, columns } = await engine.query(sql);
    if (documentedError !== undefined) {
      if (values.verbose) console.log(`  different: ${sql}\n    documented to fail with ${documentedError}, but ran`);
      return 'different';
    }
    if (expected === undefined) return 'passed';
    const rowTexts = rows.map((row) => `(${row.map((v, i) => cliText(v, columns[i].type)).join(', ')})`);
    const actual =
      expectedRows !== undefined
        ? rowTexts.join(' ')
        : rows.length === 1 && columns.length === 1
          ? cliText(rows[0][0], columns[0].type)
          : JSON.stringify(rows);
    if (expectedRows !== undefined ? sameRows(rowTexts, expectedRows) : normalizeResult(actual) === normalizeResult(expected))
      return 'passed';
    if (values.verbose) console.log(`  different: ${sql}\n    documented ${expected}\n    engine     ${actual}`);
    return 'different';
  } catch (e) {
    const errorName = (e as { errorName?: string }).errorName;
    if (expected !== undefined && isDocumentedFailure(expected, errorName)) return 'passed';
    if (documentedError !== undefined && documentedError === errorName) return 'passed';
    const outcome = isMissingSetup(errorName) ? 'setup' : 'failed';
    if (values.verbose) console.log(`  ${outcome === 'setup' ? 'setup' : 'error'}: ${sql}\n    ${errorName ?? ''} ${(e as Error).message}`);
    return outcome;
  }
}

/** Rows compared loosely and in any order (a documented GROUP BY's order is not guaranteed). */
function sameRows(actual: string[], expected: string[]): boolean {
  const sorted = (rows: string[]) => rows.map(normalizeResult).sort().join('\n');
  return sorted(actual) === sorted(expected);
}

const line = (page: string, n: number, c: Record<Outcome, number>) =>
  `${page.padEnd(24)} ${String(n).padStart(8)}  ${String(c.passed).padStart(4)}  ${String(c.different).padStart(9)}  ${String(c.setup).padStart(5)}  ${String(c.failed).padStart(5)}`;
const totals: Record<Outcome, number> = { passed: 0, different: 0, setup: 0, failed: 0 };
let examplesInAll = 0;
console.log('page                     examples  pass  different  setup  error');
for (const page of pages) {
  const examples = extract(readFileSync(join(docs, page), 'utf8'));
  if (examples.length === 0) continue;
  const setup = values.statements ? (STATEMENT_PAGE_SETUP[page] ?? NO_SETUP) : NO_SETUP;
  const counts: Record<Outcome, number> = { passed: 0, different: 0, setup: 0, failed: 0 };
  let engine = await engineFor(setup);
  for (const documented of examples) {
    if (setup.isolated) engine = await engineFor(setup);
    const example = withErratum(documented, setup);
    if (values.verbose && example !== documented) console.log(`  erratum: ${example.sql}\n    ${setup.errata?.[example.sql]?.why}`);
    const outcome = await run(engine, example, setup);
    counts[outcome]++;
    totals[outcome]++;
  }
  examplesInAll += examples.length;
  console.log(line(page, examples.length, counts));
}
console.log(line('all', examplesInAll, totals));
process.exit(0);
