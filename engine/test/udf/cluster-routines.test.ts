// Routines on a cluster: the routine travels inside the plan (the `routine` expression carries its
// body) to the workers, which validate the task request, compile the routine and run it in the
// scan's Filter and Project and in the aggregation's arguments. The oracle is the same computation
// in plain JavaScript over the TPC-H generator's reference rows.

import { expect } from 'chai';
import { referenceTbl } from '../tpch/helpers.js';
import { runStatement } from '../support/statement-http.js';
import { USER, withCluster } from '../cluster/cluster-fixture.js';

const DIGIT_SUM = `FUNCTION digit_sum(n bigint) RETURNS bigint
  BEGIN
    DECLARE s bigint DEFAULT 0;
    top: LOOP
      IF n = 0 THEN LEAVE top; END IF;
      SET s = s + n % 10;
      SET n = n / 10;
    END LOOP;
    RETURN s;
  END`;

function digitSum(n: number): number {
  let s = 0;
  for (; n > 0; n = Math.floor(n / 10)) s += n % 10;
  return s;
}

describe('SQL routines over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);

  it('filters, projects and aggregates with an inline routine run on the workers', async () => {
    const sql = `WITH ${DIGIT_SUM}
      SELECT digit_sum(o_custkey) AS d, count(*), sum(digit_sum(o_orderkey))
      FROM tpch.tiny.orders WHERE digit_sum(o_orderkey) > 20 GROUP BY digit_sum(o_custkey) ORDER BY d`;
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    const groups = new Map<number, [number, number]>();
    for (const line of referenceTbl('orders').trim().split('\n')) {
      const [orderkey, custkey] = line.split('|').map(Number);
      if (digitSum(orderkey) <= 20) continue;
      const [count, sum] = groups.get(digitSum(custkey)) ?? [0, 0];
      groups.set(digitSum(custkey), [count + 1, sum + digitSum(orderkey)]);
    }
    const expected = [...groups.entries()].sort(([a], [b]) => a - b).map(([d, [count, sum]]) => [d, count, sum]);
    expect(expected.length).to.be.greaterThan(10);
    expect(run.rows).to.deep.equal(expected);
  });

  it("runs a catalog routine (stored by the coordinator's memory catalog) on the workers, with a bigint constant in its body", async () => {
    const create = await runStatement(
      cluster.coordinator.uri,
      `CREATE FUNCTION memory.default.shifted(k bigint) RETURNS bigint RETURN k + BIGINT '1000000000000'`,
      USER,
    );
    expect(create.final.error, create.final.error?.message).to.equal(undefined);
    const run = await runStatement(
      cluster.coordinator.uri,
      "SELECT sum(memory.default.shifted(o_orderkey) - BIGINT '1000000000000'), count(*) FROM tpch.tiny.orders WHERE memory.default.shifted(o_custkey) % 7 = 0",
      USER,
    );
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    let sum = 0n;
    let count = 0;
    for (const line of referenceTbl('orders').trim().split('\n')) {
      const [orderkey, custkey] = line.split('|').slice(0, 2).map(BigInt);
      if ((custkey + 1_000_000_000_000n) % 7n !== 0n) continue;
      sum += orderkey;
      count++;
    }
    expect(count).to.be.greaterThan(100);
    expect(run.rows).to.deep.equal([[Number(sum), count]]);
  });
});
