import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import type { ExchangeNode, PlanNode } from '../../src/sql/planner/plan.js';
import { planQuery } from '../../src/sql/planner/plan-query.js';
import { rewriteBottomUp } from '../../src/sql/planner/optimizer/rewrite-plan.js';
import { validatePlan } from '../../src/sql/planner/validator/plan-validator.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('optimizer: named rules and the plan validator', () => {
  let h: EngineHarness;
  const explain = async (sql: string) => (await h.rows(`EXPLAIN ${sql}`))[0][0] as string;
  const JOIN = 'SELECT a.k, b.n FROM t a, t b WHERE a.k = b.k ORDER BY 1, 2';

  before(async () => {
    h = new EngineHarness();
    await h.run('CREATE TABLE t (k varchar, n bigint)', "INSERT INTO t VALUES ('a', 1), ('b', 2), ('a', 3)");
  });
  afterEach(() => h.session.properties.delete('disabled_optimizer_rules'));

  it('runs a query without a disabled rule, with the same answer', async () => {
    expect(await explain(JOIN))
      .to.match(/InnerJoin\[criteria = \(k_\d+ = k_\d+\)[,\]]/)
      .and.not.match(/CrossJoin/);
    const withRule = await h.rows(JOIN);
    await h.run("SET SESSION disabled_optimizer_rules = 'push_predicates, reorder_joins'");
    const text = await explain(JOIN);
    // Without push_predicates the join's condition stays in a filter above a join without criteria.
    expect(text)
      .to.match(/Filter\[filterPredicate = equal\(k_\d+, k_\d+\)\]/)
      .and.match(/CrossJoin\[\]/);
    expect(text.indexOf('Filter[')).to.be.lessThan(text.indexOf('CrossJoin['));
    expect(await h.rows(JOIN)).to.deep.equal(withRule);
    expect(withRule).to.deep.equal([
      ['a', 1n],
      ['a', 1n],
      ['a', 3n],
      ['a', 3n],
      ['b', 2n],
    ]);
  });

  it('refuses a name that is no rule, listing the rules', async () => {
    const error = await h.query("SET SESSION disabled_optimizer_rules = 'fold_constants,no_such_rule'").catch((e: unknown) => e);
    expect(error).to.be.instanceOf(EngineError);
    expect((error as Error).message).to.contain("'no_such_rule' is not an optimizer rule; the rules are fold_constants, push_predicates");
  });

  it('refuses a rule the plan cannot run without', async () => {
    const error = await h.query("SET SESSION disabled_optimizer_rules = 'ADD_EXCHANGES'").catch((e: unknown) => e);
    expect((error as Error).message).to.contain(
      "rule 'add_exchanges' cannot be disabled: a plan runs as fragments only with exchanges between them",
    );
  });

  it('names the step after which a plan references a symbol its source does not produce', async () => {
    const statement = parseStatement('SELECT k FROM t WHERE n > 1');
    if (statement.kind !== 'QueryStatement') throw new Error('not a query');
    const { root } = await h.analyze(statement.query);
    expect(() => validatePlan(root, 'the planner')).not.to.throw();
    // The scan no longer produces the column the filter reads.
    const withoutN = (node: PlanNode): PlanNode =>
      node.kind === 'TableScan'
        ? { ...node, outputs: node.outputs.filter((s) => s.name === 'k'), columns: node.columns.filter((c) => c.name === 'k') }
        : node;
    const broken = rewriteBottomUp(root, withoutN);
    expect(() => validatePlan(broken, 'rule prune_columns')).to.throw(
      /Invalid plan after rule prune_columns: Filter node \d+ references n#\d+ \(bigint\), which its sources do not produce/,
    );
  });

  it('refuses a right join whose build side is replicated, and a build side partitioned on other keys', async () => {
    const statement = parseStatement(
      'SELECT n_name, r_name FROM tpch.tiny.nation RIGHT JOIN tpch.tiny.region ON n_regionkey = r_regionkey AND n_name = r_name',
    );
    if (statement.kind !== 'QueryStatement') throw new Error('not a query');
    const { root, context } = await h.analyze(statement.query);
    const { root: plan } = planQuery(root, context, { distributed: true, validate: true });
    // tpch tables are read on any node: the right join's sides are repartitioned on its keys.
    expect(() => validatePlan(plan, 'add_exchanges')).not.to.throw();
    const isBuildExchange = (node: PlanNode) => node.kind === 'Exchange' && node.type === 'REPARTITION' && node.partitionKeys.length === 2;
    const replicatedBuild = rewriteBottomUp(plan, (node) =>
      node.kind === 'Join' && isBuildExchange(node.right)
        ? { ...node, right: { ...(node.right as ExchangeNode), type: 'REPLICATE', partitionKeys: [] } }
        : node,
    );
    expect(() => validatePlan(replicatedBuild, 'rule add_exchanges')).to.throw(
      /Invalid plan after rule add_exchanges: Join node \d+: a right join's build side is replicated/,
    );
    const swappedKeys = rewriteBottomUp(plan, (node) =>
      isBuildExchange(node) && node.kind === 'Exchange' ? { ...node, partitionKeys: [...node.partitionKeys].reverse() } : node,
    );
    expect(() => validatePlan(swappedKeys, 'rule add_exchanges')).to.throw(
      /Join node \d+: its build side is repartitioned on other symbols than its join keys/,
    );
  });
});
