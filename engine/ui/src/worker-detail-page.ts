// One node: its figures now and its charts over the last 15 minutes (as the coordinator recorded
// them from the node's status), and for admin users its moves.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { NodeDetail } from './api-types.js';
import { EXPLAIN } from './explanations.js';
import { bytes, count, percent } from './format.js';
import { MetricLabel } from './metric-label.js';
import { NodeActions } from './node-actions.js';
import { usePoll } from './poll.js';
import { StateBadge } from './state-badge.js';
import { TimeChart } from './time-chart.js';

export function WorkerDetailPage({ nodeId, admin }: { nodeId: string; admin: boolean }): VNode {
  const polled = usePoll<NodeDetail>(`nodes/${encodeURIComponent(nodeId)}`, 2000);
  if (polled.error && !polled.data) return html`<section><h1>${nodeId}</h1><p class="error" role="alert">${polled.error.message}</p></section>`;
  if (!polled.data) return html`<section><h1>${nodeId}</h1><p class="muted">Loading…</p></section>`;
  const { node, history } = polled.data;
  const s = node.status;
  const f = history.figures;
  const charts: Array<[string, string, Array<{ label: string; values: number[]; format: (n: number) => string }>]> = [
    ['CPU', EXPLAIN.nodeCpu, [{ label: 'process CPU', values: f.map((x) => x.processCpuLoad), format: percent }]],
    ['Memory', `${EXPLAIN.nodeMemory} ${EXPLAIN.heap}`, [
      { label: 'reserved', values: f.map((x) => x.reservedBytes), format: bytes },
      { label: 'heap', values: f.map((x) => x.heapUsed), format: bytes },
      { label: 'resident', values: f.map((x) => x.residentBytes), format: bytes },
    ]],
    ['Work', `${EXPLAIN.runningTasks} ${EXPLAIN.nodeSplits}`, [
      { label: 'running splits', values: f.map((x) => x.runningSplits), format: count },
      { label: 'queued splits', values: f.map((x) => x.queuedSplits), format: count },
      { label: 'tasks', values: f.map((x) => x.runningTasks), format: count },
    ]],
    ['Event loop delay p99 (ms)', EXPLAIN.eventLoop, [{ label: 'p99 ms', values: f.map((x) => x.eventLoopP99Millis), format: (n) => n.toFixed(1) }]],
  ];
  return html`<section>
    <div class="title-row">
      <h1>${node.nodeId}</h1>
      <${StateBadge} state=${node.state} />
      ${node.coordinator ? html`<span class="badge">coordinator</span>` : null}
      ${admin ? html`<${NodeActions} node=${node} onMoved=${polled.refresh} />` : null}
    </div>
    <dl class="definitions card">
      <dt>Address</dt><dd class="mono">${node.uri}</dd>
      <dt>Version</dt><dd>${node.version}</dd>
      <dt><${MetricLabel} label="Uptime" explain=${EXPLAIN.uptime} /></dt><dd>${s?.uptime ?? '–'}</dd>
      <dt><${MetricLabel} label="Processors" explain="Processors the node's machine has." /></dt><dd>${s?.processors ?? '–'}</dd>
      <dt><${MetricLabel} label="Running queries / tasks" explain=${EXPLAIN.runningTasks} /></dt><dd>${s?.workload ? `${s.workload.runningQueries} / ${s.workload.runningTasks}` : '–'}</dd>
      <dt><${MetricLabel} label="I/O" explain=${EXPLAIN.io} /></dt><dd>${s?.io ? `disk read ${bytes(s.io.storageReadBytes)}, written ${bytes(s.io.storageWriteBytes)}; exchange received ${bytes(s.io.exchangeReceivedBytes)}, sent ${bytes(s.io.exchangeSentBytes)}` : '–'}</dd>
    </dl>
    <div class="charts">
      ${charts.map(([title, explain, series]) => html`<section class="card">
        <h2><${MetricLabel} label=${title} explain=${explain} /></h2>
        <${TimeChart} times=${history.time} series=${series} label=${`${title} of ${node.nodeId} over the last 15 minutes`} />
      </section>`)}
    </div>
  </section>`;
}
