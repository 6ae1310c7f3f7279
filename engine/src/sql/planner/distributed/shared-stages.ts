// Identical leaf fragments of a cluster's plan run as one stage. A WITH query referenced twice is
// planned anew at each reference, so TPC-H q15's revenue0 scans and partially aggregates lineitem in
// two SOURCE stages, one per reference. On a single node such copies share a spool
// (fragment-common-subplans.ts); on a cluster the copy's stage is dropped and its consumer's
// RemoteSource reads the producer's output instead: the producer's tasks keep one range of output
// buffers per reader (worker/output-buffer.ts), each fed every page of its partition.
//
// A shared output is held until every reader took it, without the bound that slows a producer for a
// slow consumer: one reader may wait (a probe side for its build) on another that needs the producer's
// rows, and a bounded buffer would then never drain. Its bytes count in the task's memory, as a
// spool's do, so a large one fails the query rather than the node.
//
// Shared: SOURCE fragments alike up to symbols and node ids (common-subplans.ts's shape: deterministic,
// no remote source), with the same output layout and partition channels, whose output is
// hash-partitioned for FIXED_HASH stages (as many tasks each, so partitions match). The producer reads
// no dynamic filter (one made by a join above one copy must not thin another's rows); a copy that
// read one does without it, its join still filtering (at sf1, q15's join with supplier makes one for
// a lineitem scan). Off with share_identical_stages.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { Session } from '../../../spi/session.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import { mapSources } from '../optimizer/rewrite-plan.js';
import { type PlanNode, type RemoteSourceNode, sources } from '../plan.js';
import { shapeOf } from '../physical/common-subplans.js';
import { allFragments, type PlanFragment } from './fragmenter.js';

export const SHARE_IDENTICAL_STAGES_PROPERTY: PropertyMetadata = {
  name: 'share_identical_stages',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    'Whether identical source stages of a query on a cluster (a WITH query referenced more than once) run once, their output read by each reference, rather than once per reference',
};

export function shareIdenticalStages(session: Session): boolean {
  return booleanSessionProperty(session, SHARE_IDENTICAL_STAGES_PROPERTY);
}

/** `root` with each group of identical source fragments replaced by its first (the producer). */
export function withSharedStages(root: PlanFragment): PlanFragment {
  const fragments = allFragments(root);
  const parentOf = new Map<number, PlanFragment>();
  for (const f of fragments) for (const child of f.children) parentOf.set(child.id, f);
  const groups = new Map<string, { fragment: PlanFragment; readsDynamicFilter: boolean }[]>();
  for (const fragment of fragments) {
    const shaped = sharedShape(fragment, parentOf.get(fragment.id));
    if (shaped !== undefined)
      groups.set(shaped.key, [...(groups.get(shaped.key) ?? []), { fragment, readsDynamicFilter: shaped.readsDynamicFilter }]);
  }
  /** A copy's id, mapped to its producer; the producer's id, mapped to its readers. */
  const producerOf = new Map<number, PlanFragment>();
  const readers = new Map<number, NonNullable<PlanFragment['readers']>>();
  for (const group of groups.values()) {
    // The producer reads no dynamic filter; a copy that did does without it (its join still filters).
    const producer = group.find((g) => !g.readsDynamicFilter)?.fragment;
    if (group.length < 2 || producer === undefined) continue;
    const copies = group.map((g) => g.fragment).filter((f) => f !== producer);
    for (const copy of copies) producerOf.set(copy.id, producer);
    readers.set(
      producer.id,
      [producer, ...copies].map((f) => {
        const parent = parentOf.get(f.id)!;
        return { fragmentId: parent.id, remoteSourceId: readerOf(parent, f.id)! };
      }),
    );
  }
  if (producerOf.size === 0) return root;
  const rewrite = (f: PlanFragment): PlanFragment => ({
    ...f,
    root: readingProducers(f.root, producerOf),
    children: f.children.filter((c) => !producerOf.has(c.id)).map(rewrite),
    ...(readers.has(f.id) ? { readers: readers.get(f.id) } : {}),
  });
  return rewrite(root);
}

/** What identical fragments that may share a stage have in common (`key`); undefined when `fragment` may not. */
function sharedShape(fragment: PlanFragment, parent: PlanFragment | undefined): { key: string; readsDynamicFilter: boolean } | undefined {
  if (parent === undefined || fragment.partitioning !== 'SOURCE' || fragment.children.length > 0) return undefined;
  if (readerOf(parent, fragment.id) === undefined) return undefined;
  // Hash-partitioned partial aggregations (a WITH query's): sharing q17's small broadcast part scan
  // measured no gain. Their readers are FIXED_HASH stages: as many tasks each, so the partitions match.
  if (fragment.output.type !== 'REPARTITION' || parent.partitioning !== 'FIXED_HASH') return undefined;
  const shaped = shapeOf(fragment.root, () => true);
  if (shaped === undefined) return undefined;
  const outputs = fragment.root.outputs;
  const channels = fragment.output.partitionKeys.map((k) => outputs.findIndex((s) => s.id === k.id));
  return { key: JSON.stringify([fragment.output.type, channels, shaped.shape]), readsDynamicFilter: shaped.readsDynamicFilter };
}

/** The id of the RemoteSource node of `parent` that reads fragment `id` alone (undefined: it reads others too). */
function readerOf(parent: PlanFragment, id: number): number | undefined {
  const visit = (node: PlanNode): RemoteSourceNode | undefined =>
    node.kind === 'RemoteSource' && node.sourceFragmentIds.includes(id)
      ? node
      : (node.kind === 'Apply' ? [node.input] : sources(node)).map(visit).find((n) => n !== undefined);
  const reader = visit(parent.root);
  return reader?.sourceFragmentIds.length === 1 ? reader.id : undefined;
}

/** `root` with its RemoteSource nodes that read a copy reading its producer. */
function readingProducers(root: PlanNode, producerOf: ReadonlyMap<number, PlanFragment>): PlanNode {
  const visit = (node: PlanNode): PlanNode => {
    if (node.kind === 'RemoteSource')
      return { ...node, sourceFragmentIds: node.sourceFragmentIds.map((id) => producerOf.get(id)?.id ?? id) };
    return node.kind === 'Apply' ? { ...node, input: visit(node.input) } : mapSources(node, visit);
  };
  return visit(root);
}
