// One figure of the overview: its name (with what it measures), its value now, and its last 15 minutes.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { MetricLabel } from './metric-label.js';
import { TimeChart } from './time-chart.js';

export interface StatTileProps {
  label: string;
  explain: string;
  value: string;
  times: number[];
  values: number[];
  format: (value: number) => string;
  /** A short line under the value (e.g. "of 24 GB"). */
  detail?: string;
}

export function StatTile({ label, explain, value, times, values, format, detail }: StatTileProps): VNode {
  return html`<section class="card tile" data-metric=${label}>
    <${MetricLabel} label=${label} explain=${explain} />
    <div class="tile-value">${value}</div>
    ${detail ? html`<div class="muted small">${detail}</div>` : null}
    <${TimeChart} compact times=${times} series=${[{ label, values, format }]} label=${`${label} over the last 15 minutes`} />
  </section>`;
}
