import { expect } from 'chai';
import type { Scalar } from '../../src/types/scalar.js';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, IN_WORKERS, createBigTable, openQuery, pageRows, rowsWith, workersIdle } from './parallel-helpers.js';

/** Reads the rest of an open query's rows after `rows`. */
async function rest(query: Awaited<ReturnType<typeof openQuery>>, rows: Scalar[][]): Promise<Scalar[][]> {
  for (let page = await query.next(); page !== undefined; page = await query.next()) for (const row of pageRows(page)) rows.push(row);
  return rows;
}

describe('parallel execution: memory tables changing under a parallel scan', () => {
  let h: EngineHarness;
  const allIds = BigInt((BIG_ROWS * (BIG_ROWS - 1)) / 2);

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
  });

  beforeEach(async () => {
    await h.run('DROP TABLE IF EXISTS snap', 'CREATE TABLE snap AS SELECT id, s, price FROM big');
  });

  afterEach(workersIdle);

  it('reads the version it started on while rows are deleted and inserted', async () => {
    const query = await openQuery(h, 'SELECT id, s FROM snap WHERE abs(id) >= 0', IN_WORKERS);
    const first = pageRows((await query.next())!);
    await h.run('DELETE FROM snap WHERE id % 2 = 0', "INSERT INTO snap SELECT id + 1000000, 'new', price FROM big WHERE id < 70000");
    const rows = await rest(query, first);
    expect(rows.length).to.equal(BIG_ROWS);
    expect(rows.reduce((sum, r) => sum + BigInt(r[0] as number), 0n)).to.equal(allIds);
    expect(rows.some((r) => r[1] === 'new')).to.equal(false);
    const after = await rowsWith(h, "SELECT count(*), count_if(s = 'new') FROM snap WHERE id >= 0", IN_WORKERS);
    expect(after).to.deep.equal([[BigInt(BIG_ROWS / 2 + 70000), 70000n]]);
  });

  it('aggregates the version it started on while the table is emptied', async () => {
    const query = await openQuery(h, 'SELECT s, count(*), sum(id) FROM snap WHERE id >= 0 GROUP BY s', IN_WORKERS);
    // Once the splits are made, the version is fixed and the workers start; the delete runs while they aggregate.
    const firstPage = query.next();
    while (query.progress.totalSplits === 0) await new Promise((resolve) => setImmediate(resolve));
    await h.run('DELETE FROM snap WHERE true');
    const rows = await rest(query, pageRows((await firstPage)!));
    expect(rows.length).to.equal(100);
    expect(rows.reduce((n, r) => n + (r[1] as bigint), 0n)).to.equal(BigInt(BIG_ROWS));
    expect(rows.reduce((n, r) => n + (r[2] as bigint), 0n)).to.equal(allIds);
    expect(await rowsWith(h, 'SELECT count(*) FROM snap', IN_WORKERS)).to.deep.equal([[0n]]);
  });

  it('finishes reading a table dropped during the scan', async () => {
    const query = await openQuery(h, 'SELECT id FROM snap WHERE abs(id) % 2 = 1', IN_WORKERS);
    const first = pageRows((await query.next())!);
    await h.run('DROP TABLE snap');
    const rows = await rest(query, first);
    expect(rows.length).to.equal(BIG_ROWS / 2);
  });
});
