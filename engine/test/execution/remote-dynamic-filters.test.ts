// Dynamic filters across stages without a cluster: a task publishes a remote filter's domain once
// every part of its build is complete, and once only; a scan's remote filter filters nothing until
// the coordinator's domain arrives, and a scan waiting for it is woken by it, or goes on after its
// wait; the coordinator unions a partitioned join's domains over all its tasks (never fewer) and
// takes a replicated join's from any one, and sends each filter's union once.

import { expect } from 'chai';
import { collectingDynamicFilters, DynamicFilters } from '../../src/exec/dynamic-filters/dynamic-filters.js';
import type { PageStream } from '../../src/exec/operators/operator.js';
import type { Page } from '../../src/columnar/page.js';
import type { DynamicFilterDomain } from '../../src/internode/dynamic-filter-domains.js';
import { RemoteDynamicFilters } from '../../src/coordinator/scheduler/remote-dynamic-filters.js';
import type { PlanFragment } from '../../src/sql/planner/distributed/fragmenter.js';
import type { JoinDistribution, JoinNode, TableScanNode } from '../../src/sql/planner/plan.js';
import { BIGINT } from '../../src/types/types.js';

/** The operator reading the builds: never cancelled. */
const reader = { signal: new AbortController().signal };

function keys(...values: bigint[]): Page {
  return { rowCount: values.length, columns: [{ type: BIGINT, length: values.length, values: BigInt64Array.from(values), nulls: null }] };
}

async function* pages(...list: Page[]): PageStream {
  yield* list;
}

async function drain(stream: PageStream): Promise<void> {
  for await (const _ of stream);
}

const range = (low: bigint, high: bigint, ...values: bigint[]) => ({
  low: { value: low, inclusive: true },
  high: { value: high, inclusive: true },
  values,
});

describe('dynamic filters across stages: the worker side', () => {
  it('publishes a remote filter once every part of its build is complete, once only', async () => {
    let published = 0;
    const filters = new DynamicFilters(() => published++);
    filters.expectRemote([], ['df_1']);
    const part = (page: Page) => collectingDynamicFilters(pages(page), [{ id: 'df_1', channel: 0 }], filters, reader);
    const first = part(keys(4n));
    const second = part(keys(9n, 2n));
    await drain(first);
    expect([published, filters.publishedDomains()]).to.deep.equal([0, []]);
    await drain(second);
    expect([published, filters.publishedDomains()]).to.deep.equal([1, [{ id: 'df_1', domain: range(2n, 9n, 4n, 9n, 2n) }]]);
    // The join made again (a new build) publishes nothing more: the coordinator took the first.
    await drain(part(keys(100n)));
    expect(published).to.equal(1);
  });

  it('a scan has no remote filter until its domain arrives; one waiting for it is woken by it', async () => {
    const filters = new DynamicFilters();
    const scan = [{ id: 'df_1', column: 'k', remote: true }];
    filters.expectRemote(['df_1'], []);
    expect([filters.constraint(scan), filters.pending('df_1')]).to.deep.equal([undefined, true]);
    const waiting = filters.whenComplete(['df_1'], 600_000, new AbortController().signal);
    filters.receive([{ id: 'df_1', domain: range(3n, 5n, 3n, 5n) }]);
    await waiting;
    expect(filters.constraint(scan)).to.deep.equal([{ column: 'k', ...range(3n, 5n, 3n, 5n) }]);
    // Sent again (a retried update), it changes nothing.
    filters.receive([{ id: 'df_1', domain: range(3n, 3n, 3n) }]);
    expect(filters.constraint(scan)).to.deep.equal([{ column: 'k', ...range(3n, 5n, 3n, 5n) }]);
  });

  it('a scan whose domain never arrives goes on after its wait, or when its query ends', async () => {
    const filters = new DynamicFilters();
    filters.expectRemote(['df_1'], []);
    await filters.whenComplete(['df_1'], 1, new AbortController().signal);
    const ended = new AbortController();
    const waiting = filters.whenComplete(['df_1'], 600_000, ended.signal);
    ended.abort();
    await waiting;
    expect(filters.constraint([{ id: 'df_1', column: 'k', remote: true }])).to.equal(undefined);
  });
});

describe('dynamic filters across stages: the coordinator', () => {
  const symbol = { id: 1, name: 'k', type: BIGINT };
  const scan: TableScanNode = {
    kind: 'TableScan',
    id: 10,
    outputs: [symbol],
    table: { catalog: 'lake', schema: 'default', name: 'facts', columns: [{ name: 'k', type: BIGINT }] },
    columns: [{ name: 'k', type: BIGINT }],
    dynamicFilters: [{ id: 'df_1', column: 'k', remote: true }],
  };
  const join = (distribution: JoinDistribution): JoinNode => ({
    kind: 'Join',
    id: 20,
    type: 'inner',
    outputs: [symbol],
    left: { kind: 'RemoteSource', id: 21, outputs: [symbol], sourceFragmentIds: [2], exchangeType: 'REPARTITION' },
    right: { kind: 'Values', id: 22, outputs: [symbol], rows: [] },
    criteria: [{ left: symbol, right: symbol }],
    dynamicFilters: [{ id: 'df_1', build: symbol, remote: true }],
    distribution,
  });
  const fragment = (id: number, root: PlanFragment['root'], children: PlanFragment[] = []): PlanFragment => ({
    id,
    root,
    partitioning: 'FIXED_HASH',
    output: { type: 'GATHER', partitionKeys: [] },
    partitionedScans: [],
    children,
  });
  const plan = (distribution: JoinDistribution) =>
    fragment(0, { kind: 'Values', id: 1, outputs: [], rows: [] }, [fragment(1, join(distribution), [fragment(2, scan)])]);
  const sent = (distribution: JoinDistribution) => {
    const out: [number, DynamicFilterDomain[]][] = [];
    const filters = new RemoteDynamicFilters(
      plan(distribution),
      () => 3,
      (id, domains) => out.push([id, domains]),
    );
    return { filters, out };
  };

  it("sends a partitioned join's union to the scan's stage once all its tasks reported, once", () => {
    const { filters, out } = sent('PARTITIONED');
    filters.reported(1, 't0', [{ id: 'df_1', domain: range(1n, 1n, 1n) }]);
    filters.reported(1, 't0', [{ id: 'df_1', domain: range(1n, 1n, 1n) }]);
    filters.reported(1, 't1', [{ id: 'df_1', domain: { values: [] } }]);
    // A report naming another fragment's filter (say, of a task of another stage) counts for nothing.
    filters.reported(2, 't2', [{ id: 'df_1', domain: range(8n, 8n, 8n) }]);
    expect(out).to.deep.equal([]);
    filters.reported(1, 't2', [{ id: 'df_1', domain: range(5n, 6n, 6n, 5n) }]);
    filters.reported(1, 't2', [{ id: 'df_1', domain: range(5n, 6n, 6n, 5n) }]);
    expect(out).to.deep.equal([[2, [{ id: 'df_1', domain: range(1n, 6n, 1n, 6n, 5n) }]]]);
  });

  it("sends a replicated join's domain from its first task", () => {
    const { filters, out } = sent('REPLICATED');
    filters.reported(1, 't1', [{ id: 'df_1', domain: range(1n, 2n, 1n, 2n) }]);
    filters.reported(1, 't0', [{ id: 'df_1', domain: range(1n, 2n, 1n, 2n) }]);
    expect(out).to.deep.equal([[2, [{ id: 'df_1', domain: range(1n, 2n, 1n, 2n) }]]]);
  });
});
