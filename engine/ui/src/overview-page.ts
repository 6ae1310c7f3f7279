// The cluster overview: queries running, queued and blocked; workers and nodes by state; runnable
// splits; memory; input rates; CPU — each with its last 15 minutes, which the coordinator records
// itself, so the charts are full when the page opens. Below, the queries running now.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { ClusterAnswer, ClusterSample, QueryListPage } from './api-types.js';
import { EXPLAIN } from './explanations.js';
import { bytes, count } from './format.js';
import { MetricLabel } from './metric-label.js';
import { usePoll } from './poll.js';
import { QueryTable } from './query-table.js';
import { StatTile } from './stat-tile.js';
import { StateBadge } from './state-badge.js';

const NODE_STATES = ['ACTIVE', 'ISOLATING', 'ISOLATED', 'SHUTTING_DOWN', 'INACTIVE', 'UNREACHABLE'];

interface TileSpec {
  label: string;
  explain: string;
  pick: (s: ClusterSample) => number;
  format: (n: number) => string;
  detail?: (s: ClusterSample) => string;
}

const TILES: TileSpec[] = [
  { label: 'Running queries', explain: EXPLAIN.runningQueries, pick: (s) => s.runningQueries, format: count },
  { label: 'Queued queries', explain: EXPLAIN.queuedQueries, pick: (s) => s.queuedQueries, format: count },
  { label: 'Blocked queries', explain: EXPLAIN.blockedQueries, pick: (s) => s.blockedQueries, format: count },
  { label: 'Active workers', explain: EXPLAIN.activeWorkers, pick: (s) => s.activeWorkers, format: count },
  { label: 'Draining nodes', explain: EXPLAIN.drainingNodes, pick: (s) => s.drainingNodes, format: count },
  { label: 'Runnable splits', explain: EXPLAIN.runnableSplits, pick: (s) => s.runnableSplits, format: count },
  { label: 'Reserved memory', explain: EXPLAIN.reservedMemory, pick: (s) => s.reservedBytes, format: bytes, detail: (s) => `of ${bytes(s.totalBytes)}` },
  { label: 'Input rows/s', explain: EXPLAIN.inputRows, pick: (s) => s.inputRowsPerSecond, format: count },
  { label: 'Input bytes/s', explain: EXPLAIN.inputBytes, pick: (s) => s.inputBytesPerSecond, format: bytes },
  { label: 'CPU cores busy', explain: EXPLAIN.cpuCores, pick: (s) => s.cpuCores, format: (n) => n.toFixed(2) },
];

export function OverviewPage(): VNode {
  const cluster = usePoll<ClusterAnswer>('cluster', 2500);
  const running = usePoll<QueryListPage>('queries?state=running,queued&sort=created&order=desc&limit=20', 2000);
  const samples = cluster.data?.samples ?? [];
  const last = samples.at(-1);
  const times = samples.map((s) => s.time);
  return html`<section>
    <h1>Cluster overview</h1>
    ${cluster.error ? html`<p class="error" role="alert">${cluster.error.message}</p>` : null}
    <div class="node-states" aria-label="Nodes by state">
      <${MetricLabel} label="Nodes" explain=${EXPLAIN.nodeState} />
      ${NODE_STATES.filter((s) => (cluster.data?.nodesByState[s] ?? 0) > 0 || s === 'ACTIVE').map(
        (s) => html`<span class="node-state-count" data-state=${s}><${StateBadge} state=${s} /> ${cluster.data?.nodesByState[s] ?? 0}</span>`,
      )}
    </div>
    <div class="tiles">
      ${TILES.map(
        (t) => html`<${StatTile}
          label=${t.label}
          explain=${t.explain}
          value=${last ? t.format(t.pick(last)) : '–'}
          detail=${last && t.detail ? t.detail(last) : undefined}
          times=${times}
          values=${samples.map(t.pick)}
          format=${t.format}
        />`,
      )}
    </div>
    <h2>Running and queued queries</h2>
    ${running.data ? html`<${QueryTable} rows=${running.data.queries} empty="No query is running or queued." />` : html`<p class="muted">Loading…</p>`}
  </section>`;
}
