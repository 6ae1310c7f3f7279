// The raw JSON of GET /v1/query/{queryId} (with the plan graph), to read or download.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { QueryDetail } from './api-types.js';

export function QueryJsonTab({ detail }: { detail: QueryDetail }): VNode {
  const text = JSON.stringify(detail, null, 2);
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = `${detail.queryId}.json`;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return html`<div>
    <div class="actions-row">
      <button onClick=${download} data-action="download-json">Download JSON</button>
      <span class="muted small">What <code>GET /v1/query/${detail.queryId}</code> answers its user, with the plan as fragments.</span>
    </div>
    <pre class="json" data-testid="query-json">${text}</pre>
  </div>`;
}
