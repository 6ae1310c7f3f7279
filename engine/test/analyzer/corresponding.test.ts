// Set operations with CORRESPONDING match the inputs' columns by name (before: NOT_SUPPORTED). The
// cases with results are the examples of Trino's documentation (sql/select.md), the errors Trino's.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { cliRows } from '../support/documented-examples.js';

describe('UNION / INTERSECT / EXCEPT ... CORRESPONDING', () => {
  const h = new EngineHarness();

  const documented: [sql: string, columns: string[], rows: string[][]][] = [
    [
      "SELECT * FROM (VALUES (1, 'alice')) AS t(id, name) UNION ALL CORRESPONDING SELECT * FROM (VALUES ('bob', 2)) AS t(name, id)",
      ['id', 'name'],
      [
        ['1', 'alice'],
        ['2', 'bob'],
      ],
    ],
    [
      "SELECT * FROM (VALUES (DATE '2025-04-23', 'alice')) AS t(order_date, name) UNION ALL CORRESPONDING SELECT * FROM (VALUES ('bob', 123.45)) AS t(name, price)",
      ['name'],
      [['alice'], ['bob']],
    ],
    [
      "SELECT * FROM (VALUES (1, 'alice')) AS t(id, name) INTERSECT CORRESPONDING SELECT * FROM (VALUES ('alice', 1)) AS t(name, id)",
      ['id', 'name'],
      [['1', 'alice']],
    ],
    [
      "SELECT * FROM (VALUES (1, 'alice'), (2, 'bob')) AS t(id, name) EXCEPT CORRESPONDING SELECT * FROM (VALUES ('alice', 1)) AS t(name, id)",
      ['id', 'name'],
      [['2', 'bob']],
    ],
  ];
  for (const [sql, columns, rows] of documented) {
    it(sql, async () => {
      const { columns: actual } = await h.query(sql);
      expect(actual.map((c) => c.name)).to.deep.equal(columns);
      expect((await cliRows(h, sql)).sort()).to.deep.equal(rows);
    });
  }

  it('matches names case-insensitively and coerces each pair to their common type', async () => {
    const sql =
      'SELECT * FROM (VALUES (1, 2.5)) AS t(A, b) UNION ALL CORRESPONDING SELECT * FROM (VALUES (CAST(7 AS bigint), 3)) AS t(b, a)';
    const { types } = await h.query(sql);
    // a: integer and integer; b: decimal(2,1) and bigint, whose common type is decimal(20,1) (bigint as decimal(19,0)).
    expect(types).to.deep.equal(['integer', 'decimal(20,1)']);
    expect((await cliRows(h, sql)).sort()).to.deep.equal([
      ['1', '2.5'],
      ['3', '7.0'],
    ]);
  });

  const failures: [sql: string, errorName: string, message: string][] = [
    ['SELECT 1 AS a UNION CORRESPONDING SELECT 2 AS b', 'MISMATCHED_COLUMN_ALIASES', 'No corresponding columns'],
    [
      'SELECT 1 AS a, 2 UNION CORRESPONDING SELECT 2 AS a',
      'MISSING_COLUMN_NAME',
      'Anonymous columns are not allowed in set operations with CORRESPONDING',
    ],
    [
      'SELECT 1 AS a, 2 AS A UNION CORRESPONDING SELECT 2 AS a',
      'AMBIGUOUS_NAME',
      'Duplicate columns found when using CORRESPONDING in set operations: a',
    ],
    ['SELECT 1 AS a UNION CORRESPONDING BY (a) SELECT 2 AS a', 'NOT_SUPPORTED', 'CORRESPONDING with columns is unsupported'],
  ];
  for (const [sql, errorName, message] of failures) {
    it(`${sql} fails: ${message}`, async () => {
      const error = await h.failure(sql);
      expect([error.errorName, error.rawMessage]).to.deep.equal([errorName, message]);
    });
  }
});
