// Queries as a table: one row per query, each linking to its detail. With `onSort`, every header
// sorts by its column (the server sorts; the page keeps the choice in its URL).

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { QueryRow } from './api-types.js';
import { EXPLAIN } from './explanations.js';
import { bytes, count, millis } from './format.js';
import { MetricLabel } from './metric-label.js';
import { ProgressBar } from './progress-bar.js';
import { queryUrl } from './router.js';
import { StateBadge } from './state-badge.js';

interface Column {
  key: string;
  label: string;
  explain?: string;
  numeric?: boolean;
  cell: (q: QueryRow) => unknown;
}

const COLUMNS: Column[] = [
  { key: 'id', label: 'Query', cell: (q) => html`<a href=${queryUrl(q.queryId)} class="mono">${q.queryId}</a>` },
  { key: 'state', label: 'State', cell: (q) => html`<${StateBadge} state=${q.state} title=${q.errorName ? `${q.errorName} (${q.errorType}): ${q.errorMessage ?? ''}` : q.state} />` },
  { key: 'user', label: 'User', cell: (q) => q.user },
  { key: 'source', label: 'Source', cell: (q) => q.source ?? html`<span class="muted">–</span>` },
  { key: 'sql', label: 'SQL', cell: (q) => html`<code class="sql-cell" title=${q.query}>${q.query}${q.queryTruncated ? '…' : ''}</code>` },
  { key: 'elapsed', label: 'Elapsed', explain: EXPLAIN.elapsed, numeric: true, cell: (q) => millis(q.elapsedMillis) },
  { key: 'cpu', label: 'CPU', explain: EXPLAIN.cpu, numeric: true, cell: (q) => millis(q.cpuMillis) },
  { key: 'memory', label: 'Peak memory', explain: EXPLAIN.peakMemory, numeric: true, cell: (q) => bytes(q.peakMemoryBytes) },
  { key: 'rows', label: 'Rows read', explain: EXPLAIN.processedRows, numeric: true, cell: (q) => count(q.processedRows) },
  { key: 'progress', label: 'Progress', explain: EXPLAIN.progress, cell: (q) => html`<${ProgressBar} percent=${q.progress} />` },
];

export interface QueryTableProps {
  rows: QueryRow[];
  empty: string;
  sort?: string;
  descending?: boolean;
  onSort?: (key: string) => void;
}

export function QueryTable({ rows, empty, sort, descending, onSort }: QueryTableProps): VNode {
  if (rows.length === 0) return html`<p class="muted empty">${empty}</p>`;
  return html`<div class="table-wrap"><table class="queries">
    <thead><tr>${COLUMNS.map((c) => header(c, sort, descending, onSort))}</tr></thead>
    <tbody>${rows.map((q) => html`<tr key=${q.queryId} data-query-id=${q.queryId} class=${`row-${q.state.toLowerCase()}`}>${COLUMNS.map((c) => html`<td class=${c.numeric ? 'num' : ''}>${c.cell(q)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

function header(c: Column, sort: string | undefined, descending: boolean | undefined, onSort: ((key: string) => void) | undefined): VNode {
  const label = c.explain ? html`<${MetricLabel} label=${c.label} explain=${c.explain} />` : c.label;
  if (!onSort) return html`<th class=${c.numeric ? 'num' : ''}>${label}</th>`;
  const sorted = sort === c.key;
  return html`<th class=${c.numeric ? 'num' : ''} aria-sort=${sorted ? (descending ? 'descending' : 'ascending') : 'none'}>
    <button class="sort" data-sort=${c.key} onClick=${() => onSort(c.key)}>${label}${sorted ? (descending ? ' ▾' : ' ▴') : ''}</button>
  </th>`;
}
