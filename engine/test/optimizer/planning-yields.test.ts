// Planning gives the event loop turns: the statement executor plans with planQueryYielding, which
// runs the same rules as planQuery but lets other work (a server's heartbeats and requests) run
// between rules and validations once a slice of them has run 10 ms (here 0: after each). A join of 30 tables, as select5.test's, makes the same plan
// both ways, the loop's callbacks run while it is planned, and the answer is checked against DuckDB.

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { expect } from 'chai';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { planQuery, planQueryYielding } from '../../src/sql/planner/plan-query.js';
import { printTree } from '../../src/sql/planner/plan-printer.js';
import { expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';

const TABLES = 30;

/** t1..t30 (a, b, x), each row i joining row i of the next table: a chain of equi-joins written out of order. */
function chainQuery(): string {
  const order = Array.from({ length: TABLES }, (_, i) => ((i * 7) % TABLES) + 1);
  const conditions = Array.from({ length: TABLES - 1 }, (_, i) => `b${i + 1} = a${i + 2}`);
  return `SELECT x1, x${TABLES}, count(*) FROM ${order.map((t) => `t${t}`).join(', ')} WHERE ${conditions.join(' AND ')} AND a1 < 4 GROUP BY x1, x${TABLES} ORDER BY 1, 2`;
}

describe('optimizer: planning yields to the event loop', function () {
  this.timeout(120_000);
  const engine = new EngineHarness({ singleNode: true });
  let duck: DuckDBConnection;

  before(async () => {
    duck = await (await DuckDBInstance.create(':memory:')).connect();
    for (let t = 1; t <= TABLES; t++) {
      const create = `CREATE TABLE t${t} (a${t} integer, b${t} integer, x${t} varchar)`;
      const insert = `INSERT INTO t${t} VALUES ${Array.from({ length: 10 }, (_, i) => `(${i}, ${(i * 3) % 10}, 'table ${t} row ${i}')`).join(', ')}`;
      await engine.run(create, insert);
      await duck.run(create);
      await duck.run(insert);
    }
  });

  after(() => duck?.closeSync());

  it('makes the same plan as planQuery, with turns of the event loop while it plans', async () => {
    const statement = parseStatement(chainQuery());
    if (statement.kind !== 'QueryStatement') throw new Error('not a query');
    const options = { distributed: true, singleNode: true, validate: true };
    const once = await engine.analyze(statement.query);
    const expected = printTree(planQuery(once.root, once.context, options).root).join('\n');

    const again = await engine.analyze(statement.query);
    let turns = 0;
    let planning = true;
    const countTurns = (): void => {
      if (!planning) return;
      turns++;
      setImmediate(countTurns);
    };
    setImmediate(countTurns);
    // A slice of 0 ms: a turn after every step, however fast this machine plans.
    const yielding = planQueryYielding(again.root, again.context, options, 0);
    const plan = await yielding;
    planning = false;
    // The symbols are numbered alike: each analysis starts its own numbering.
    expect(printTree(plan.root).join('\n')).to.equal(expected);
    // A turn after each rule and each validation: a dozen or more in all.
    expect(turns).to.be.greaterThan(10);
  });

  it('answers the join of 30 tables as DuckDB does', async () => {
    await expectDuckDbAnswer(engine, duck, chainQuery());
  });
});
