// A plan is plain data: every TPC-H query's optimized plan survives planToJson/planFromJson intact,
// and the plan read back runs to DuckDB's answer (as the plan itself does in tpch-queries.test).

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { LocalExecutionPlanner } from '../../src/exec/local-execution-planner.js';
import { localPhysicalPlan } from '../../src/exec/threads/physical-context.js';
import { MemoryContext } from '../../src/exec/memory.js';
import { getScalar } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import { newQueryProgress } from '../../src/spi/query-progress.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { planQuery } from '../../src/sql/planner/plan-query.js';
import type { PlanNode } from '../../src/sql/planner/plan.js';
import { planFromJson, planToJson } from '../../src/sql/planner/plan-json.js';
import { constant } from '../../src/sql/planner/row-expression.js';
import { DOUBLE, VARBINARY, decimal } from '../../src/types/types.js';
import { EngineHarness } from '../support/engine-harness.js';

/** `value` without the properties that are present but undefined (JSON leaves them out; optional either way). */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, withoutUndefined(v)]),
  );
}

describe('plans as JSON', function () {
  this.timeout(300_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    engine.session.catalog = 'tpch';
    engine.session.schema = 'tiny';
    duck = await duckDbWithTpch('tiny', 2);
  });

  async function optimizedPlan(sql: string): Promise<PlanNode> {
    const statement = parseStatement(sql);
    if (statement.kind !== 'QueryStatement') throw new Error(`not a query: ${sql}`);
    const analyzed = await engine.analyze(statement.query);
    return planQuery(analyzed.root, analyzed.context, { distributed: false, validate: true }).root;
  }

  async function run(plan: PlanNode): Promise<Scalar[][]> {
    const memory = new MemoryContext('plan-json', 1 << 30, engine.executor.options.nodeMemory);
    const env = {
      operator: { memory, signal: new AbortController().signal, timeZone: engine.session.timeZone },
      catalogs: engine.catalogs,
      session: engine.session,
      progress: newQueryProgress(),
    };
    const rows: Scalar[][] = [];
    for await (const page of new LocalExecutionPlanner(env, localPhysicalPlan(env, plan)).plan(plan)) {
      for (let r = 0; r < page.rowCount; r++) rows.push(page.columns.map((c) => getScalar(c, r)));
    }
    return rows;
  }

  it('spells the values JSON has no literal for', () => {
    const values = [
      constant(12345678901234567890n, decimal(38, 0)),
      constant(new Uint8Array([0, 255, 7]), VARBINARY),
      constant(-0, DOUBLE),
      constant(NaN, DOUBLE),
    ];
    const plan: PlanNode = { kind: 'Values', id: 0, outputs: [], rows: [values.map((v) => v.value)] };
    const limited: PlanNode = { kind: 'Limit', id: 1, outputs: [], source: plan, count: Infinity, offset: 2 };
    expect(planFromJson(planToJson(limited))).to.deep.equal(limited);
    expect(Object.is((planFromJson(planToJson(plan)) as { rows: Scalar[][] }).rows[0][2], -0)).to.equal(true);
  });

  for (let q = 1; q <= 22; q++) {
    it(`round-trips q${String(q).padStart(2, '0')} and runs it to the same answer`, async () => {
      const sql = tpchQuery(q);
      const plan = await optimizedPlan(sql);
      const json = planToJson(plan);
      const readBack = planFromJson(json);
      expect(readBack).to.deep.equal(withoutUndefined(plan));
      expect(planToJson(readBack)).to.equal(json);
      const rows = await run(readBack);
      expect(rows.length, 'no rows: the comparison would be empty').to.be.greaterThan(0);
      const columns = plan.outputs;
      const difference = firstDifference(
        rows,
        columns.map((s) => s.type),
        columns.map((s) => s.name),
        await duckRows(duck, sql),
      );
      expect(difference, difference).to.equal(undefined);
    });
  }

  it('fails with a clear error on malformed JSON', () => {
    expect(() => planFromJson('{"kind":')).to.throw(/Malformed plan JSON/);
  });
});
