// A query's stages and their tasks: state, node, splits, rows, bytes, CPU, wall time and memory, with
// skewed tasks (far slower or larger than their siblings) marked.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { QueryDetail } from './api-types.js';
import { EXPLAIN } from './explanations.js';
import { bytes, count, millis } from './format.js';
import { MetricLabel } from './metric-label.js';
import { flattenStages, skewedTasks, taskFigures } from './query-stages.js';
import { nodeUrl } from './router.js';
import { StateBadge } from './state-badge.js';

export function QueryStagesTab({ detail }: { detail: QueryDetail }): VNode {
  const stages = flattenStages(detail);
  if (stages.length === 0) return html`<p class="muted">The query has no stages yet.</p>`;
  return html`<div class="stages">${stages.map((stage) => {
    const tasks = taskFigures(stage, 'coordinator');
    const skewed = skewedTasks(tasks);
    return html`<section class="card stage" data-stage-id=${stage.stageId}>
      <h2><span class="mono">${stage.stageId}</span> <${StateBadge} state=${stage.state} /> <span class="muted small">${tasks.length} ${tasks.length === 1 ? 'task' : 'tasks'}</span></h2>
      <div class="table-wrap"><table class="tasks">
        <thead><tr>
          <th>Task</th><th>State</th><th>Node</th>
          <th class="num"><${MetricLabel} label="Splits" explain=${EXPLAIN.splits} /></th>
          <th class="num"><${MetricLabel} label="Rows in / out" explain=${EXPLAIN.taskRows} /></th>
          <th class="num"><${MetricLabel} label="Bytes in / out" explain=${EXPLAIN.taskRows} /></th>
          <th class="num"><${MetricLabel} label="CPU" explain=${EXPLAIN.taskCpu} /></th>
          <th class="num"><${MetricLabel} label="Wall" explain=${EXPLAIN.taskWall} /></th>
          <th class="num"><${MetricLabel} label="Memory / peak" explain=${EXPLAIN.taskMemory} /></th>
        </tr></thead>
        <tbody>${tasks.map((t) => html`<tr data-task-id=${t.task.taskId} class=${skewed.has(t.task.taskId) ? 'skewed' : ''} title=${skewed.has(t.task.taskId) ? EXPLAIN.skew : undefined}>
          <td class="mono">${t.task.taskId}${skewed.has(t.task.taskId) ? html` <span class="badge skew">skew</span>` : null}</td>
          <td><${StateBadge} state=${t.task.state} /></td>
          <td>${t.task.nodeId ? html`<a href=${nodeUrl(t.task.nodeId)}>${t.task.nodeId}</a>` : 'coordinator'}</td>
          <td class="num">${t.task.stats.completedSplits} / ${t.task.stats.totalSplits}</td>
          <td class="num">${count(t.inputRows)} / ${count(t.outputRows)}</td>
          <td class="num">${bytes(t.inputBytes)} / ${bytes(t.outputBytes)}</td>
          <td class="num">${millis(t.cpuMillis)}</td>
          <td class="num">${millis(t.wallMillis)}</td>
          <td class="num">${bytes(t.memoryBytes)} / ${bytes(t.peakMemoryBytes)}</td>
        </tr>`)}</tbody>
      </table></div>
    </section>`;
  })}</div>`;
}
