// DELETE, UPDATE, MERGE and INSERT on a table branch (`t @ branch`, an Iceberg feature) parse, and
// fail as Trino fails them on a connector without branches (its memory connector, before the table
// is even looked up): BRANCH_NOT_FOUND "Branch '<name>' does not exist", at the statement. A view
// is refused as a view first, as in Trino. Nothing is changed.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('table branches in DELETE, UPDATE, MERGE and INSERT', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run(
      'CREATE TABLE orders (id integer, status varchar)',
      "INSERT INTO orders VALUES (1, 'OPEN'), (2, 'LATE')",
      'CREATE VIEW open_orders AS SELECT * FROM orders',
    );
  });

  it('fails each statement naming the branch, at the statement', async () => {
    const cases: string[] = [
      'DELETE FROM orders @ audit',
      "UPDATE orders @ audit SET status = 'OVERDUE' WHERE id = 2",
      'MERGE INTO orders @ audit t USING (VALUES 1) s(id) ON t.id = s.id WHEN MATCHED THEN DELETE',
      "INSERT INTO orders @ audit VALUES (3, 'NEW')",
      'DELETE FROM nosuch @ audit',
    ];
    for (const sql of cases) {
      const e = await h.failure(`\n  ${sql}`);
      expect([e.errorName, e.message], sql).to.deep.equal(['BRANCH_NOT_FOUND', "line 2:3: Branch 'audit' does not exist"]);
    }
    expect(await h.rows('SELECT id, status FROM orders ORDER BY id')).to.deep.equal([
      [1, 'OPEN'],
      [2, 'LATE'],
    ]);
  });

  it('refuses a view as a view before its branch', async () => {
    const e = await h.failure('DELETE FROM open_orders @ audit');
    expect([e.errorName, e.message]).to.deep.equal(['NOT_SUPPORTED', 'line 1:1: Deleting from views is not supported']);
  });
});
