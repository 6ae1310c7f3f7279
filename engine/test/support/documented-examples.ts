// Runs a page of Trino's documented examples through the whole engine: each statement's one value,
// printed as Trino's CLI prints it, must equal the documented result.

import { expect } from 'chai';
import type { Scalar } from '../../src/types/scalar.js';
import type { SqlType } from '../../src/types/types.js';
import { formatValueAsText } from '../../src/types/values.js';
import { EngineHarness } from './engine-harness.js';

/** A documented statement and its documented result (NULL for SQL NULL). */
export type DocumentedExample = readonly [sql: string, result: string];

/** As Trino's CLI prints a value: varbinary as space-separated hex bytes, the rest as CAST to varchar. */
export function cliText(value: Scalar, type: SqlType): string {
  if (value !== null && type.kind === 'varbinary')
    return Buffer.from(value as Uint8Array)
      .toString('hex')
      .replace(/(..)(?!$)/g, '$1 ');
  return formatValueAsText(value, type);
}

export function documentedExamples(page: string, examples: readonly DocumentedExample[], engine = new EngineHarness()): void {
  describe(`Trino documentation: ${page} (examples)`, function () {
    this.timeout(60_000);
    for (const [sql, result] of examples) {
      it(`${sql} -> ${result}`, async () => {
        const { rows, columns } = await engine.query(sql);
        expect(cliText(rows[0][0], columns[0].type)).to.equal(result);
      });
    }
  });
}

/** A value expression, its result printed as Trino's CLI prints it, and its type (as Trino's tests give them). */
export type TypedCase = readonly [expression: string, result: string, type: string];

/** One test per case: `SELECT expression` gives the result with the type. */
export function typedCases(cases: readonly TypedCase[], engine: EngineHarness): void {
  for (const [sql, result, type] of cases) {
    it(`${sql} -> ${result}`, async () => {
      const { rows, columns, types } = await engine.query(`SELECT ${sql}`);
      expect([cliText(rows[0][0], columns[0].type), types[0]]).to.deep.equal([result, type]);
    });
  }
}

/** A query's rows, each value printed as Trino's CLI prints it. */
export async function cliRows(engine: EngineHarness, sql: string): Promise<string[][]> {
  const { rows, columns } = await engine.query(sql);
  return rows.map((row) => row.map((v, i) => cliText(v, columns[i]!.type)));
}

/** Each statement fails with the error name and exactly the message given. */
export function failureCases(
  errorName: string,
  cases: ReadonlyArray<readonly [sql: string, message: string]>,
  engine = new EngineHarness(),
): void {
  for (const [sql, message] of cases) {
    it(`${sql} fails: ${message}`, async () => {
      const error = await engine.failure(sql);
      expect([error.errorName, error.rawMessage]).to.deep.equal([errorName, message]);
    });
  }
}
