// The SOURCE fragment of a query and the task request that runs it as one task over the table's
// splits (each with its sequence id), for tests that drive the task resource of a real node.

import { allSplits } from '../../src/spi/connector.js';
import { sessionToJson } from '../../src/spi/session-json.js';
import { parseStatement } from '../../src/sql/parser/parser.js';
import { allFragments, type PlanFragment } from '../../src/sql/planner/distributed/fragmenter.js';
import { planQuery } from '../../src/sql/planner/plan-query.js';
import type { ScheduledSplit, TaskUpdateRequest } from '../../src/internode/task-update-request.js';
import { fragmentPhysicalPlan } from '../../src/exec/threads/physical-context.js';
import { physicalToJson } from '../../src/sql/planner/physical/physical-plan-json.js';
import type { EngineHarness } from './engine-harness.js';

export interface SourceTask {
  fragment: PlanFragment;
  /** The request that creates the task: with every split when `noMoreSplits`, else with none yet. */
  request: TaskUpdateRequest;
  taskId: string;
  /** Every split of the scan, numbered. */
  splits: ScheduledSplit[];
}

export async function sourceTask(harness: EngineHarness, sql: string, queryId: string, noMoreSplits = true): Promise<SourceTask> {
  const statement = parseStatement(sql);
  if (statement.kind !== 'QueryStatement') throw new Error('not a query');
  const session = { ...harness.session, queryId };
  const analyzed = await harness.analyze(statement.query, session);
  const { fragments } = planQuery(analyzed.root, analyzed.context, { distributed: true, isRemoteScan: () => true, validate: true });
  const fragment = allFragments(fragments!).find((f) => f.partitioning === 'SOURCE')!;
  const scan = fragment.partitionedScans[0];
  const splits = (await allSplits(harness.catalogs.get(scan.table.catalog)!.getSplits(session, scan.table, scan.constraint))).map(
    (split, sequenceId) => ({ sequenceId, split }),
  );
  const request: TaskUpdateRequest = {
    session: sessionToJson(session),
    fragment: fragment.root,
    // As the coordinator plans it (fragment-physical-plans.ts), for this node's threads.
    physicalPlan: physicalToJson(fragmentPhysicalPlan({ catalogs: harness.catalogs, session }, fragment).root),
    outputBuffers: { type: 'GATHER' },
    sources: [{ planNodeId: scan.id, splits: noMoreSplits ? splits : [], noMoreSplits }],
    remoteSources: [],
  };
  return { fragment, request, taskId: `${session.queryId}.1.0`, splits };
}
