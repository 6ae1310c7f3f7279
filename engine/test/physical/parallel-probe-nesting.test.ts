// A long chain of joins over small tables (sqllogictest select5: up to 64 tables joined, each of ten
// rows) plans no parallel node inside another: a join probed in parallel because its joins keep few
// of its scan's rows makes one pipeline of the chain under it, and no join of its build sides goes
// to the threads for that reason. Nested, every join became a parallel pipeline in the build side of
// the one above, and walks over the plan that take a parallel node's fallback in the main thread as
// well as its pipeline went exponential in the chain's length (a server's event loop held for
// minutes). The plan passes the validator and round-trips through its JSON; the answer is DuckDB's.

import { expect } from 'chai';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { type PhysicalNode, physicalSources } from '../../src/sql/planner/physical/physical-plan.js';
import { expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { useThreadsOnMemory } from '../parallel/parallel-helpers.js';
import { expectValidRoundTrip, physicalPlanOf } from './physical-plan-helpers.js';

const TABLES = 14;

/** Table t<i> as select5 makes them: ten rows, keys a and b each a permutation of 1..10, a label x. */
function createTable(i: number): string {
  const rows = Array.from({ length: 10 }, (_, r) => `(${r + 1}, ${((r * 3 + i) % 10) + 1}, 'table t${i} row ${r + 1}')`);
  return `CREATE TABLE t${i} AS SELECT * FROM (VALUES ${rows.join(', ')}) v(a${i}, b${i}, x${i})`;
}

/** t1 .. t<TABLES> chained on a<i> = b<i+1>, one of them narrowed to one row, as select5's queries are. */
const CHAIN = (() => {
  const ids = Array.from({ length: TABLES }, (_, i) => i + 1);
  const keys = ids.slice(1).map((i) => `a${i - 1} = b${i}`);
  return `SELECT ${ids.map((i) => `x${i}`).join(', ')} FROM ${ids.map((i) => `t${i}`).join(', ')} WHERE a1 = 6 AND ${keys.join(' AND ')}`;
})();

const PARALLEL_KINDS: ReadonlySet<PhysicalNode['kind']> = new Set(['ParallelScan', 'ParallelMarkJoin', 'ParallelSort', 'ParallelWindow']);

/** The parallel nodes (not hash builds) anywhere under `node`, itself excluded, each counted once. */
function parallelNodesUnder(node: PhysicalNode, seen = new Set<PhysicalNode>()): PhysicalNode[] {
  return physicalSources(node).flatMap((source) => {
    if (seen.has(source)) return [];
    seen.add(source);
    return [...(PARALLEL_KINDS.has(source.kind) ? [source] : []), ...parallelNodesUnder(source, seen)];
  });
}

describe('physical plan: a long join chain over small tables nests no parallel node', function () {
  this.timeout(120_000);
  let h: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    h = new EngineHarness();
    useThreadsOnMemory(h);
    duck = await (await DuckDBInstance.create(':memory:')).connect();
    for (let i = 1; i <= TABLES; i++) {
      await h.run(createTable(i));
      await duck.run(createTable(i));
    }
  });

  it(`probes a chain of ${TABLES} tables in one pipeline of threads, none inside another`, async () => {
    const root = await physicalPlanOf(h, CHAIN, 2);
    const parallel = [root, ...parallelNodesUnder(root)].filter((n) => PARALLEL_KINDS.has(n.kind));
    expect(parallel.some((n) => n.kind === 'ParallelScan' && n.stages.some((s) => s.kind === 'probe'))).to.equal(true);
    const named = (n: PhysicalNode) => `${n.kind} of node ${n.node.id}`;
    for (const node of parallel) expect(parallelNodesUnder(node).map(named), `under ${named(node)}`).to.deep.equal([]);
    expectValidRoundTrip(root);
  });

  it('answers as DuckDB does', () => expectDuckDbAnswer(h, duck, `${CHAIN} ORDER BY 1`));
});
