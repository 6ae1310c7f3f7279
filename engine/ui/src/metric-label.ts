// A figure's name with its explanation as a tooltip (hover, or focus from the keyboard).

import { html } from 'htm/preact';
import type { VNode } from 'preact';

export function MetricLabel({ label, explain }: { label: string; explain: string }): VNode {
  return html`<span class="metric-label" title=${explain} tabindex="0" aria-label=${`${label}: ${explain}`}>${label}</span>`;
}
