// DELETE and UPDATE with subqueries in WHERE and SET on memory tables, against DuckDB running the same
// statements on the same rows: IN and NOT IN (with NULLs on either side), correlated EXISTS, a
// correlated scalar subquery per row in SET (Trino's documented new_hires example; rows without a
// match get NULL), duplicate rows, and the update counts. A scalar subquery of several rows fails the
// statement and changes nothing.

import { expect } from 'chai';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';
import { seededRandom } from '../support/seeded-random.js';

describe('subqueries in DELETE and UPDATE', function () {
  this.timeout(120_000);
  let both: EngineAndDuckDb;

  beforeEach(async () => {
    both = await EngineAndDuckDb.open();
    const next = seededRandom(26);
    const value = (n: number) => (next() < 0.08 ? 'NULL' : String(Math.floor(next() * n)));
    const orders = Array.from({ length: 80 }, (_, id) => `(${id}, '${next() < 0.3 ? 'LOW' : 'HIGH'}', ${value(40)})`);
    const lineitem = Array.from({ length: 300 }, () => `(${value(90)}, ${value(50)})`);
    await both.runOnBoth(
      'CREATE TABLE orders (orderkey integer, priority varchar, custkey integer)',
      `INSERT INTO orders VALUES ${orders.join(', ')}`,
      'CREATE TABLE lineitem (orderkey integer, quantity integer)',
      `INSERT INTO lineitem VALUES ${lineitem.join(', ')}, (3, 7), (3, 7)`,
    );
  });

  afterEach(() => both.close());

  /** Runs `sql` on both; the update counts and then the table's rows are the same. */
  async function expectSameChange(sql: string, table: string): Promise<number> {
    const [[ours]] = await both.engine.rows(sql);
    const theirs = (await both.duck.runAndReadAll(sql)).rowsChanged;
    expect(Number(ours), sql).to.equal(theirs);
    await both.expectSame(`SELECT * FROM ${table}`);
    return Number(ours);
  }

  it("deletes the rows an uncorrelated IN subquery selects (Trino's documented example)", async () => {
    const deleted = await expectSameChange(
      "DELETE FROM lineitem WHERE orderkey IN (SELECT orderkey FROM orders WHERE priority = 'LOW')",
      'lineitem',
    );
    expect(deleted).to.be.greaterThan(20);
  });

  it('deletes nothing for NOT IN over a subquery with a NULL, and by NOT IN over one without', async () => {
    expect(await expectSameChange('DELETE FROM lineitem WHERE quantity NOT IN (SELECT custkey FROM orders)', 'lineitem')).to.equal(0);
    expect(
      await expectSameChange(
        'DELETE FROM lineitem WHERE quantity NOT IN (SELECT custkey FROM orders WHERE custkey IS NOT NULL)',
        'lineitem',
      ),
    ).to.be.greaterThan(0);
  });

  it('deletes by a correlated EXISTS, duplicate rows alike', async () => {
    await expectSameChange(
      'DELETE FROM lineitem WHERE EXISTS (SELECT 1 FROM orders o WHERE o.orderkey = lineitem.orderkey AND o.custkey < lineitem.quantity)',
      'lineitem',
    );
  });

  it("sets each row's value from a correlated scalar subquery (Trino's documented new_hires example)", async () => {
    await both.runOnBoth(
      'CREATE TABLE employees (employee_id integer, name varchar)',
      "INSERT INTO employees VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cy')",
      'CREATE TABLE new_hires (name varchar, manager_id integer, manager varchar)',
      "INSERT INTO new_hires VALUES ('Dee', 1, NULL), ('Eve', 3, 'x'), ('Fay', 9, 'y'), ('Gus', NULL, 'z'), ('Dee', 1, NULL)",
    );
    const updated = await expectSameChange(
      'UPDATE new_hires SET manager = (SELECT e.name FROM employees e WHERE e.employee_id = new_hires.manager_id)',
      'new_hires',
    );
    expect(updated).to.equal(5);
    expect(await both.engine.rows('SELECT name, manager FROM new_hires ORDER BY name, manager')).to.deep.equal([
      ['Dee', 'Ann'],
      ['Dee', 'Ann'],
      ['Eve', 'Cy'],
      ['Fay', null],
      ['Gus', null],
    ]);
  });

  it('updates the rows a subquery in WHERE selects, with SET values of their own and of subqueries', async () => {
    await expectSameChange(
      "UPDATE orders SET custkey = custkey + 1000 WHERE orderkey IN (SELECT orderkey FROM lineitem WHERE quantity > 40) AND priority = 'HIGH'",
      'orders',
    );
    await expectSameChange(
      "UPDATE orders SET custkey = (SELECT count(*) FROM lineitem l WHERE l.orderkey = orders.orderkey), priority = upper(priority) || '!' WHERE custkey > 20",
      'orders',
    );
  });

  it('runs a prepared DELETE whose subquery takes a parameter, and describes its input', async () => {
    await both.engine.run('PREPARE low FROM DELETE FROM lineitem WHERE orderkey IN (SELECT orderkey FROM orders WHERE priority = ?)');
    expect(await both.engine.rows('DESCRIBE INPUT low')).to.deep.equal([[0n, 'varchar']]);
    const [[ours]] = await both.engine.rows("EXECUTE low USING 'LOW'");
    const theirs = (
      await both.duck.runAndReadAll("DELETE FROM lineitem WHERE orderkey IN (SELECT orderkey FROM orders WHERE priority = 'LOW')")
    ).rowsChanged;
    expect(Number(ours)).to.equal(theirs).and.to.be.greaterThan(20);
    await both.expectSame('SELECT * FROM lineitem');
  });

  it('fails a scalar subquery of several rows and changes nothing', async () => {
    const before = await both.engine.rows('SELECT * FROM orders ORDER BY orderkey');
    const error = await both.engine.failure('UPDATE orders SET custkey = (SELECT quantity FROM lineitem l WHERE l.orderkey = 3)');
    expect(error.errorName).to.equal('SUBQUERY_MULTIPLE_ROWS');
    expect(await both.engine.rows('SELECT * FROM orders ORDER BY orderkey')).to.deep.equal(before);
  });
});
