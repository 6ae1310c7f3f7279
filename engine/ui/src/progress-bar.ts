// A query's progress (splits done over splits known).

import { html } from 'htm/preact';
import type { VNode } from 'preact';

export function ProgressBar({ percent }: { percent: number | null }): VNode {
  if (percent === null) return html`<span class="muted">–</span>`;
  const value = Math.max(0, Math.min(100, percent));
  return html`<span class="progress" role="progressbar" aria-valuenow=${value.toFixed(0)} aria-valuemin="0" aria-valuemax="100">
    <span class="progress-fill" style=${`width: ${value}%`}></span><span class="progress-text">${value.toFixed(0)}%</span>
  </span>`;
}
