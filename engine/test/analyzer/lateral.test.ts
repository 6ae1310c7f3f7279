// LATERAL (query) in FROM against DuckDB on the same random rows: correlated filters, top-n per
// row, aggregates per row, LEFT JOIN LATERAL with ON true and with a condition, a lateral query
// seeing two relations before it, and uncorrelated ones in every join type; Trino's errors for a
// reference to the left side from a RIGHT or FULL join.

import { expect } from 'chai';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';

describe('LATERAL', function () {
  this.timeout(120_000);
  let both: EngineAndDuckDb;
  let engine: EngineHarness;

  before(async () => {
    both = await EngineAndDuckDb.open();
    engine = both.engine;
    const next = seededRandom(7);
    const value = (n: number) => (next() < 0.1 ? 'NULL' : String(Math.floor(next() * n)));
    const orders = Array.from({ length: 60 }, (_, id) => `(${id}, ${value(12)}, ${value(1000)})`);
    const items = Array.from({ length: 300 }, (_, id) => `(${id}, ${value(70)}, ${value(50)}, '${'abc'[Math.floor(next() * 3)]}')`);
    await both.runOnBoth(
      'CREATE TABLE orders (id integer, customer integer, total integer)',
      `INSERT INTO orders VALUES ${orders.join(', ')}`,
      'CREATE TABLE items (id integer, order_id integer, price integer, tag varchar)',
      `INSERT INTO items VALUES ${items.join(', ')}`,
    );
  });

  after(() => both.close());

  const expectSameAsDuckDb = (sql: string) => both.expectSame(sql);

  it('joins each row with the rows of its correlated query (CROSS JOIN and comma)', async () => {
    const rows = await expectSameAsDuckDb(
      'SELECT o.id, l.id, l.price FROM orders o CROSS JOIN LATERAL (SELECT id, price FROM items i WHERE i.order_id = o.id AND i.price > 10) l',
    );
    expect(rows.length).to.be.greaterThan(50);
    await expectSameAsDuckDb('SELECT o.id, l.n FROM orders o, LATERAL (SELECT o.total * 2 + 1 AS n) l');
  });

  it('keeps the top rows per row (ORDER BY and LIMIT in the lateral query)', async () => {
    await expectSameAsDuckDb(
      'SELECT o.id, l.id FROM orders o CROSS JOIN LATERAL (SELECT id FROM items i WHERE i.order_id = o.id ORDER BY price DESC NULLS LAST, id LIMIT 2) l',
    );
  });

  it('aggregates per row, counting 0 for rows with no match', async () => {
    const rows = await expectSameAsDuckDb(
      'SELECT o.id, l.n, l.s FROM orders o CROSS JOIN LATERAL (SELECT count(*) AS n, sum(price) AS s FROM items i WHERE i.order_id = o.id) l',
    );
    expect(rows).to.have.length(60);
  });

  it('keeps rows without matches in LEFT JOIN LATERAL ... ON true, and applies another ON condition per match', async () => {
    const onTrue = await expectSameAsDuckDb(
      'SELECT o.id, l.tag FROM orders o LEFT JOIN LATERAL (SELECT tag FROM items i WHERE i.order_id = o.id) l ON true',
    );
    expect(onTrue.filter((r) => r.endsWith('|NULL')).length).to.be.greaterThan(0);
    await expectSameAsDuckDb(
      "SELECT o.id, l.tag, l.price FROM orders o LEFT JOIN LATERAL (SELECT tag, price FROM items i WHERE i.order_id = o.id) l ON l.tag <> 'a' AND l.price > o.customer",
    );
  });

  it('sees every relation before it, and nests', async () => {
    await expectSameAsDuckDb(
      `SELECT o.id, a.id, b.id FROM orders o
         CROSS JOIN LATERAL (SELECT id, price FROM items i WHERE i.order_id = o.id) a
         CROSS JOIN LATERAL (SELECT id FROM items j WHERE j.price = a.price AND j.order_id <> o.id AND j.id < 100) b`,
    );
    await expectSameAsDuckDb(
      'SELECT o.id, x.m FROM orders o, LATERAL (SELECT max(y.p) AS m FROM LATERAL (SELECT price AS p FROM items WHERE order_id = o.id) y) x',
    );
  });

  it('joins an uncorrelated lateral query as any join', async () => {
    for (const type of ['INNER', 'LEFT', 'RIGHT', 'FULL']) {
      await expectSameAsDuckDb(
        `SELECT o.id, l.id FROM orders o ${type} JOIN LATERAL (SELECT id FROM items WHERE price < 3) l ON l.id % 60 = o.id`,
      );
    }
  });

  it('refuses a reference to the left side from a RIGHT or FULL join, as Trino', async () => {
    for (const type of ['RIGHT', 'FULL']) {
      const error = await engine.failure(`SELECT * FROM orders o ${type} JOIN LATERAL (SELECT o.total) l ON true`);
      expect([error.errorName, error.rawMessage]).to.deep.equal([
        'INVALID_COLUMN_REFERENCE',
        `LATERAL reference not allowed in ${type} JOIN`,
      ]);
    }
  });
});
