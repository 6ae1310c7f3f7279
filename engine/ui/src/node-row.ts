// One node in the workers table: its state (with a drain's progress), address, version, uptime,
// tasks, splits, memory, CPU, event-loop delay and I/O from its last /v1/status.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { ClusterNode } from './api-types.js';
import { bytes, percent } from './format.js';
import { NodeActions } from './node-actions.js';
import { nodeUrl } from './router.js';
import { StateBadge } from './state-badge.js';

export function NodeRow({ node, admin, onMoved }: { node: ClusterNode; admin: boolean; onMoved: () => void }): VNode {
  const s = node.status;
  const pool = s?.memoryInfo?.pools?.general;
  const w = s?.workload;
  const draining = node.state === 'ISOLATING' || node.state === 'SHUTTING_DOWN';
  return html`<tr data-node-id=${node.nodeId} data-state=${node.state}>
    <td>
      <a href=${nodeUrl(node.nodeId)}>${node.nodeId}</a>${node.coordinator ? html` <span class="badge">coordinator</span>` : null}
      <div class="mono small muted">${node.uri} · ${node.version}</div>
    </td>
    <td><${StateBadge} state=${node.state} />${draining && w ? html`<div class="muted small drain-progress">left: ${plural(w.runningTasks, 'task')}, ${plural(w.runningQueries, 'query', 'queries')}, ${plural(w.runningSplits + w.queuedSplits, 'split')}</div>` : null}</td>
    <td class="num">${s?.uptime ?? '–'}</td>
    <td class="num">${w?.runningTasks ?? '–'}</td>
    <td class="num">${w ? `${w.runningSplits} / ${w.queuedSplits}` : '–'}</td>
    <td class="num">${pool ? `${bytes(pool.reservedBytes)} / ${bytes(pool.maxBytes)}` : '–'}</td>
    <td class="num">${bytes(s?.heapUsed)} / ${bytes(s?.residentBytes)}</td>
    <td class="num">${percent(s?.processCpuLoad)}</td>
    <td class="num">${s?.eventLoopDelay ? `${s.eventLoopDelay.p99Millis} / ${s.eventLoopDelay.maxMillis} ms` : '–'}</td>
    <td class="num small io">${s?.io ? html`disk ${bytes(s.io.storageReadBytes)} ↓ ${bytes(s.io.storageWriteBytes)} ↑<br />exchange ${bytes(s.io.exchangeReceivedBytes)} ↓ ${bytes(s.io.exchangeSentBytes)} ↑` : '–'}</td>
    ${admin ? html`<td class="actions"><${NodeActions} node=${node} onMoved=${onMoved} /></td>` : null}
  </tr>`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
