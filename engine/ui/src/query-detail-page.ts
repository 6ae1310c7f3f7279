// One query: a stable URL per query and per tab (overview, SQL, stages and tasks, plan, timeline,
// JSON), refreshed every second while the query runs. Its owner and admin users may kill it.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { send } from './api.js';
import type { QueryDetail } from './api-types.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { usePoll } from './poll.js';
import { QueryJsonTab } from './query-json-tab.js';
import { QueryOverviewTab } from './query-overview-tab.js';
import { QueryPlanTab } from './query-plan-tab.js';
import { QueryStagesTab } from './query-stages-tab.js';
import { QueryTimelineTab } from './query-timeline-tab.js';
import { queryUrl } from './router.js';
import { StateBadge } from './state-badge.js';

const TABS: Array<[string, string]> = [
  ['overview', 'Overview'],
  ['sql', 'SQL'],
  ['stages', 'Stages and tasks'],
  ['plan', 'Plan'],
  ['timeline', 'Timeline'],
  ['json', 'JSON'],
];

export function QueryDetailPage({ queryId, tab }: { queryId: string; tab: string }): VNode {
  const [done, setDone] = useState(false);
  const polled = usePoll<QueryDetail>(`queries/${encodeURIComponent(queryId)}`, 1000, !done);
  const [confirming, setConfirming] = useState(false);
  const [actionError, setActionError] = useState<string | undefined>(undefined);
  const detail = polled.data;
  const ended = detail !== undefined && (detail.state === 'FINISHED' || detail.state === 'FAILED');
  // A query that ended does not change any more: no more refreshes.
  useEffect(() => {
    if (ended) setDone(true);
  }, [ended]);
  if (polled.error && !detail) return html`<section><h1 class="mono">${queryId}</h1><p class="error" role="alert">${polled.error.message}</p></section>`;
  if (!detail) return html`<section><h1 class="mono">${queryId}</h1><p class="muted">Loading…</p></section>`;

  const kill = async () => {
    setConfirming(false);
    try {
      await send('DELETE', `queries/${encodeURIComponent(queryId)}`);
      polled.refresh();
    } catch (e) {
      setActionError((e as Error).message);
    }
  };
  return html`<section>
    <div class="title-row">
      <h1 class="mono">${detail.queryId}</h1>
      <${StateBadge} state=${detail.state} />
      ${!ended ? html`<button class="danger" data-action="kill" onClick=${() => setConfirming(true)}>Kill query</button>` : null}
    </div>
    ${actionError ? html`<p class="error" role="alert">${actionError}</p>` : null}
    ${confirming
      ? html`<${ConfirmDialog} title="Kill this query?" confirmLabel="Kill query" danger onConfirm=${kill} onCancel=${() => setConfirming(false)}>
          <p>The query fails with <code>USER_CANCELED</code>; its tasks on every node are aborted and its client gets the error.</p>
        </${ConfirmDialog}>`
      : null}
    <nav class="tabs" aria-label="Query detail">
      ${TABS.map(([key, label]) => html`<a href=${queryUrl(queryId, key)} class=${tab === key ? 'active' : ''} aria-current=${tab === key ? 'page' : undefined} data-tab=${key}>${label}</a>`)}
    </nav>
    ${tabContent(tab, detail)}
  </section>`;
}

function tabContent(tab: string, detail: QueryDetail): VNode {
  switch (tab) {
    case 'sql':
      return html`<pre class="sql" data-testid="sql-text">${detail.query}</pre>`;
    case 'stages':
      return html`<${QueryStagesTab} detail=${detail} />`;
    case 'plan':
      return html`<${QueryPlanTab} detail=${detail} />`;
    case 'timeline':
      return html`<${QueryTimelineTab} detail=${detail} />`;
    case 'json':
      return html`<${QueryJsonTab} detail=${detail} />`;
    default:
      return html`<${QueryOverviewTab} detail=${detail} />`;
  }
}
