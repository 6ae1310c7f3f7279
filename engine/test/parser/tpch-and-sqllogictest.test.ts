// Real-world corpora: every TPC-H query and every SQL statement of sqllogictest select1-5 must parse,
// and the TPC-H queries must survive parse -> format -> parse unchanged.

import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedPath } from '../../scripts/shared-dir.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { expectStatementRoundTrip } from './helpers.js';

const TPCH_DIR = sharedPath('tpch', 'queries');
const SLT_DIR = sharedPath('sqllogictest');

/** The SQL of every `statement ok` and `query` record of a sqllogictest file. */
function sqllogictestStatements(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const statements: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i];
    if (!header.startsWith('statement ok') && !header.startsWith('query ')) continue;
    const sql: string[] = [];
    for (i++; i < lines.length && lines[i].trim() !== '' && lines[i] !== '----'; i++) sql.push(lines[i]);
    statements.push(sql.join('\n'));
  }
  return statements;
}

describe('parser: TPC-H queries', () => {
  const files = readdirSync(TPCH_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();

  it('finds all 22 queries', () => {
    expect(files).to.have.length(22);
  });

  for (const file of files) {
    it(`${file} parses and round-trips`, () => {
      const sql = readFileSync(join(TPCH_DIR, file), 'utf8');
      expect(parseStatement(sql).kind).to.equal('QueryStatement');
      expectStatementRoundTrip(sql);
    });
  }
});

describe('parser: sqllogictest select1-5', () => {
  let total = 0;
  for (const n of [1, 2, 3, 4, 5]) {
    it(`parses and round-trips every statement and query of select${n}.test`, () => {
      const statements = sqllogictestStatements(join(SLT_DIR, `select${n}.test`));
      expect(statements.length).to.be.greaterThan(0);
      const failures: string[] = [];
      for (const sql of statements) {
        try {
          expectStatementRoundTrip(sql);
        } catch (e) {
          failures.push(`${sql}\n  -> ${(e as Error).message.split('\n')[0]}`);
        }
      }
      expect(failures.slice(0, 5).join('\n')).to.equal('');
      total += statements.length;
    });
  }

  after(() => {
    console.log(`      sqllogictest statements parsed: ${total}`);
  });
});
