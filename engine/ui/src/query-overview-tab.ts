// A query's overview: progress, timings, figures, the session it ran in, its resource group, and
// its error with the stack.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { FailureInfo, QueryDetail } from './api-types.js';
import { EXPLAIN } from './explanations.js';
import { time } from './format.js';
import { MetricLabel } from './metric-label.js';
import { ProgressBar } from './progress-bar.js';

type Row = [string, unknown, string?];

export function QueryOverviewTab({ detail }: { detail: QueryDetail }): VNode {
  const s = detail.queryStats;
  const session = detail.session;
  const progress = detail.state === 'FINISHED' ? 100 : typeof s.progressPercentage === 'number' ? s.progressPercentage : null;
  const timings: Row[] = [
    ['Created', when(s.createTime)],
    ['Started', when(s.executionStartTime)],
    ['Ended', when(s.endTime)],
    ['Elapsed', s.elapsedTime, EXPLAIN.elapsed],
    ['Queued', s.queuedTime, EXPLAIN.queued],
    ['Planning', s.analysisTime, 'Analysis, planning and fragmenting, timed together.'],
    ['Execution', s.executionTime, 'From the end of queueing until the end (or now).'],
    ['CPU', s.totalCpuTime, EXPLAIN.cpu],
    ['Blocked', s.totalBlockedTime, 'Time operators of all tasks waited (for pages, splits, buffer room or the client).'],
  ];
  const figures: Row[] = [
    ['Rows read', s.processedInputPositions ?? s.rawInputPositions, EXPLAIN.processedRows],
    ['Bytes read', s.processedInputDataSize ?? s.rawInputDataSize, EXPLAIN.processedBytes],
    ['Rows returned', s.outputPositions, EXPLAIN.outputRows],
    ['Peak memory', s.peakUserMemoryReservation ?? s.peakTotalMemoryReservation, EXPLAIN.peakMemory],
    ['Peak task memory', s.peakTaskUserMemory, 'The largest peak one task reported.'],
    ['Tasks', s.totalTasks !== undefined ? `${s.completedTasks} done of ${s.totalTasks}` : undefined, 'Tasks of all stages, the root stage\'s included.'],
  ];
  const sessionRows: Row[] = [
    ['User', session.user],
    ['Source', session.source],
    ['Catalog', session.catalog],
    ['Schema', session.schema],
    ['Time zone', session.timeZone],
    ['Resource group', detail.resourceGroupId?.join('.')],
    ['Client address', session.remoteUserAddress],
    ['User agent', session.userAgent],
    ['Client info', session.clientInfo],
    ['Client tags', session.clientTags?.join(', ')],
    ...Object.entries(session.systemProperties ?? {}).map(([k, v]): Row => [`Session: ${k}`, v]),
  ];
  return html`<div class="overview-grid">
    <section class="card">
      <h2>Progress</h2>
      <${ProgressBar} percent=${progress} />
      ${definitions(timings)}
    </section>
    <section class="card">
      <h2>Figures</h2>
      ${definitions(figures)}
    </section>
    <section class="card">
      <h2>Session</h2>
      ${definitions(sessionRows)}
    </section>
    ${detail.failureInfo ? html`<section class="card error-card" data-testid="query-error">
      <h2>Error</h2>
      <p><strong>${detail.errorCode?.name ?? 'Error'}</strong> <span class="muted">(${detail.errorType ?? detail.errorCode?.type})</span></p>
      <p>${detail.failureInfo.message}</p>
      <details><summary>Stack</summary><pre class="stack">${stackText(detail.failureInfo)}</pre></details>
    </section>` : null}
  </div>`;
}

function definitions(rows: Row[]): VNode {
  return html`<dl class="definitions">
    ${rows.filter(([, value]) => value !== undefined && value !== null && value !== '').map(
      ([label, value, explain]) => html`<dt>${explain ? html`<${MetricLabel} label=${label} explain=${explain} />` : label}</dt><dd>${String(value)}</dd>`,
    )}
  </dl>`;
}

/** An ISO time of the detail in the browser's own zone and format. */
function when(iso: unknown): string | undefined {
  return typeof iso === 'string' ? time(Date.parse(iso)) : undefined;
}

function stackText(failure: FailureInfo): string {
  const lines: string[] = [];
  for (let f: FailureInfo | undefined = failure, first = true; f; f = f.cause, first = false) {
    lines.push(`${first ? '' : 'Caused by: '}${f.type ?? ''}: ${f.message ?? ''}`, ...(f.stack ?? []).map((l) => `    at ${l}`));
  }
  return lines.join('\n');
}
