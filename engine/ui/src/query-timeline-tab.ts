// When each task of the query ran: one bar per task from its creation to its end (or now), by stage.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { QueryDetail } from './api-types.js';
import { millis } from './format.js';
import { flattenStages, taskFigures } from './query-stages.js';

const ROW_HEIGHT = 22;
const LABEL_WIDTH = 260;
const CHART_WIDTH = 720;

export function QueryTimelineTab({ detail }: { detail: QueryDetail }): VNode {
  const tasks = flattenStages(detail).flatMap((stage, index) => taskFigures(stage, 'coordinator').map((t) => ({ ...t, stageIndex: index })));
  const created = Date.parse(String(detail.queryStats.createTime ?? ''));
  const ended = detail.queryStats.endTime ? Date.parse(String(detail.queryStats.endTime)) : Date.now();
  if (tasks.length === 0 || !Number.isFinite(created)) return html`<p class="muted">No task has run yet.</p>`;
  const span = Math.max(1, ended - created);
  const x = (t: number) => LABEL_WIDTH + ((t - created) / span) * CHART_WIDTH;
  const height = tasks.length * ROW_HEIGHT + 30;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return html`<div class="plan-wrap"><svg class="timeline" width=${LABEL_WIDTH + CHART_WIDTH + 20} height=${height} role="img" aria-label="Task timeline">
    ${ticks.map((f) => html`<g class="tick"><line x1=${LABEL_WIDTH + f * CHART_WIDTH} x2=${LABEL_WIDTH + f * CHART_WIDTH} y1="0" y2=${height - 20} /><text x=${LABEL_WIDTH + f * CHART_WIDTH} y=${height - 6}>${millis(f * span)}</text></g>`)}
    ${tasks.map((t, i) => {
      const start = t.startMillis ?? created;
      const end = t.endMillis ?? ended;
      return html`<g class=${`timeline-row stage-color-${t.stageIndex % 6}`} data-task-id=${t.task.taskId}>
        <title>${t.task.taskId} on ${t.node}: ${t.task.state}, ${millis(end - start)}</title>
        <text x="4" y=${i * ROW_HEIGHT + 15} class="mono">${t.task.taskId}</text>
        <rect x=${x(start)} y=${i * ROW_HEIGHT + 4} width=${Math.max(2, x(end) - x(start))} height=${ROW_HEIGHT - 8} rx="3" />
      </g>`;
    })}
  </svg></div>`;
}
