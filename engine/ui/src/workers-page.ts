// Every node of the cluster, refreshed every two seconds; admin users may move a node to another
// state from here.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { ClusterNode } from './api-types.js';
import { EXPLAIN } from './explanations.js';
import { MetricLabel } from './metric-label.js';
import { NodeRow } from './node-row.js';
import { usePoll } from './poll.js';

const HEADERS: Array<[string, string?]> = [
  ['Node', 'Its id, address and version.'],
  ['State', EXPLAIN.nodeState],
  ['Uptime', EXPLAIN.uptime],
  ['Tasks', EXPLAIN.runningTasks],
  ['Splits run / queued', EXPLAIN.nodeSplits],
  ['Memory', EXPLAIN.nodeMemory],
  ['Heap / resident', `${EXPLAIN.heap} ${EXPLAIN.resident}`],
  ['CPU', EXPLAIN.nodeCpu],
  ['Event loop p99 / max', EXPLAIN.eventLoop],
  ['I/O', EXPLAIN.io],
];

export function WorkersPage({ admin }: { admin: boolean }): VNode {
  const nodes = usePoll<ClusterNode[]>('nodes', 2000);
  return html`<section>
    <h1>Workers</h1>
    ${nodes.error ? html`<p class="error" role="alert">${nodes.error.message}</p>` : null}
    ${nodes.data
      ? html`<div class="table-wrap"><table class="nodes">
          <thead><tr>
            ${HEADERS.map(([label, explain]) => html`<th>${explain ? html`<${MetricLabel} label=${label} explain=${explain} />` : label}</th>`)}
            ${admin ? html`<th>Actions</th>` : null}
          </tr></thead>
          <tbody>${nodes.data.map((n) => html`<${NodeRow} key=${n.nodeId} node=${n} admin=${admin} onMoved=${nodes.refresh} />`)}</tbody>
        </table></div>`
      : html`<p class="muted">Loading…</p>`}
  </section>`;
}
