// Runs the examples of Trino's function documentation through the engine and counts, per page, those
// that give the documented result, those that answer differently and those that fail. A
// measurement, not a test: the pages are Trino's (pass a folder holding them, e.g. exported from a
// Trino checkout's docs/src/main/sphinx/functions), and their results are compared loosely.
//
//   node engine/dist/scripts/docs-examples.js --docs DIR [--verbose] [--time-zone ZONE] [page.md ...]
// (--time-zone: the session zone, UTC by default; the pages' examples assume several.)

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EngineHarness } from '../test/support/engine-harness.js';
import { cliText } from '../test/support/documented-examples.js';
import { extractExamples, isDocumentedFailure, normalizeResult } from './docs-examples/extract.js';

const { values, positionals } = parseArgs({ options: { docs: { type: 'string' }, verbose: { type: 'boolean' }, 'time-zone': { type: 'string' } }, allowPositionals: true });
if (values.docs === undefined) throw new Error('--docs DIR is required');
const pages = positionals.length > 0 ? positionals : readdirSync(values.docs).filter((f) => f.endsWith('.md')).sort();

const engine = new EngineHarness();
if (values['time-zone'] !== undefined) engine.session.timeZone = values['time-zone'];
const totals = { examples: 0, passed: 0, different: 0, failed: 0 };
console.log('page                     examples  pass  different  error');
for (const page of pages) {
  const examples = extractExamples(readFileSync(join(values.docs, page), 'utf8'));
  if (examples.length === 0) continue;
  let [passed, different, failed] = [0, 0, 0];
  for (const { sql, expected, expectedRows } of examples) {
    try {
      const { rows, columns } = await engine.query(sql);
      const rowTexts = rows.map((row) => `(${row.map((v, i) => cliText(v, columns[i].type)).join(', ')})`);
      const actual = expectedRows !== undefined ? rowTexts.join(' ') : rows.length === 1 && columns.length === 1 ? cliText(rows[0][0], columns[0].type) : JSON.stringify(rows);
      const same = expectedRows !== undefined ? sameRows(rowTexts, expectedRows) : normalizeResult(actual) === normalizeResult(expected);
      if (same) passed++;
      else {
        different++;
        if (values.verbose) console.log(`  different: ${sql}\n    documented ${expected}\n    engine     ${actual}`);
      }
    } catch (e) {
      if (isDocumentedFailure(expected, (e as { errorName?: string }).errorName)) {
        passed++;
        continue;
      }
      failed++;
      if (values.verbose) console.log(`  error: ${sql}\n    ${(e as Error).message}`);
    }
  }
  totals.examples += examples.length;
  totals.passed += passed;
  totals.different += different;
  totals.failed += failed;
  console.log(`${page.padEnd(24)} ${String(examples.length).padStart(8)}  ${String(passed).padStart(4)}  ${String(different).padStart(9)}  ${String(failed).padStart(5)}`);
}
/** Rows compared loosely and in any order (a documented GROUP BY's order is not guaranteed). */
function sameRows(actual: string[], expected: string[]): boolean {
  const sorted = (rows: string[]) => rows.map(normalizeResult).sort().join('\n');
  return sorted(actual) === sorted(expected);
}

console.log(`${'all'.padEnd(24)} ${String(totals.examples).padStart(8)}  ${String(totals.passed).padStart(4)}  ${String(totals.different).padStart(9)}  ${String(totals.failed).padStart(5)}`);
process.exit(0);
