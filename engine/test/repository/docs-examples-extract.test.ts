// The docs checker's reading of Trino's pages: a statement's documented result is the `--` line after
// it, or several `-- (a, b)` lines for a result of several rows.

import { expect } from 'chai';
import { extractExamples } from '../../scripts/docs-examples/extract.js';

describe('docs checker: documented examples', () => {
  it('reads a one-line result on the same line or the next', () => {
    const page = ['```', 'SELECT abs(-1); -- 1', 'SELECT', '  2 + 2;', '-- 4', '```'].join('\n');
    expect(extractExamples(page)).to.deep.equal([
      { sql: 'SELECT abs(-1)', expected: '1' },
      { sql: 'SELECT 2 + 2', expected: '4' },
    ]);
  });

  it('reads a result of several rows, one `(a, b)` line per row', () => {
    const page = ['```', 'SELECT id, count(*)', 'FROM t GROUP BY id;', '-- (1, 12)', '-- (2, 13)', '', 'SELECT 1; -- 1', '```'].join('\n');
    expect(extractExamples(page)).to.deep.equal([
      { sql: 'SELECT id, count(*) FROM t GROUP BY id', expected: '(1, 12) (2, 13)', expectedRows: ['(1, 12)', '(2, 13)'] },
      { sql: 'SELECT 1', expected: '1' },
    ]);
  });

  it('keeps the first line when the lines after it are not rows', () => {
    const page = ['```', "SELECT json_parse('[1]');", "-- JSON '[1]'", '-- (a remark)  more', '```'].join('\n');
    expect(extractExamples(page)).to.deep.equal([{ sql: "SELECT json_parse('[1]')", expected: "JSON '[1]'" }]);
  });
});
