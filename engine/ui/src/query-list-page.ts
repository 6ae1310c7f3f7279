// The query list: recent queries (running, queued, finished, failed) the user may see, filtered by
// state and failure type, searched over id, user, source, SQL and error, sorted by any column, cut to
// a limit — all done by the server, all kept in the URL so a link shows the same list.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { QueryListPage as Page, StateGroup } from './api-types.js';
import { usePoll } from './poll.js';
import { QueryTable } from './query-table.js';
import { navigate, route } from './router.js';

const STATES: StateGroup[] = ['running', 'queued', 'finished', 'failed'];
const FAILURE_TYPES: Array<[string, string]> = [
  ['USER_ERROR', 'User error'],
  ['INTERNAL_ERROR', 'Internal'],
  ['INSUFFICIENT_RESOURCES', 'Insufficient resources'],
  ['EXTERNAL', 'External'],
];
const LIMITS = [100, 500, 1000];
const SEARCH_DELAY_MILLIS = 300;

interface ListState {
  states: string[];
  failures: string[];
  search: string;
  sort: string;
  order: 'asc' | 'desc';
  limit: number;
}

function fromUrl(params: URLSearchParams): ListState {
  const list = (name: string) => (params.get(name) ?? '').split(',').filter((s) => s !== '');
  return {
    states: list('state'),
    failures: list('failure'),
    search: params.get('search') ?? '',
    sort: params.get('sort') ?? 'created',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    limit: Number(params.get('limit') ?? 100) || 100,
  };
}

function toQueryString(s: ListState): string {
  const params = new URLSearchParams();
  if (s.states.length > 0) params.set('state', s.states.join(','));
  if (s.failures.length > 0) params.set('failure', s.failures.join(','));
  if (s.search !== '') params.set('search', s.search);
  if (s.sort !== 'created') params.set('sort', s.sort);
  if (s.order !== 'desc') params.set('order', s.order);
  if (s.limit !== 100) params.set('limit', String(s.limit));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function QueryListPage(): VNode {
  const state = fromUrl(route.value.params);
  const [typed, setTyped] = useState(state.search);
  const update = (change: Partial<ListState>, replace = false) => navigate(`/ui/queries${toQueryString({ ...state, ...change })}`, replace);
  // The search box updates the URL (and so the list) once typing pauses.
  useEffect(() => {
    if (typed === state.search) return undefined;
    const timer = setTimeout(() => update({ search: typed }, true), SEARCH_DELAY_MILLIS);
    return () => clearTimeout(timer);
  }, [typed]);
  const query = toQueryString(state);
  const page = usePoll<Page>(`queries${query === '' ? '' : query}`, 2000);
  const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const sortBy = (key: string) => update({ sort: key, order: state.sort === key && state.order === 'desc' ? 'asc' : 'desc' });

  return html`<section>
    <h1>Queries</h1>
    <div class="filters" role="group" aria-label="Filters">
      <div class="chips" aria-label="State">
        ${STATES.map(
          (s) => html`<button class=${`chip ${state.states.includes(s) ? 'on' : ''}`} aria-pressed=${state.states.includes(s)} data-state-filter=${s} onClick=${() => update({ states: toggle(state.states, s) })}>
            ${s} <span class="chip-count">${page.data?.counts[s] ?? ''}</span>
          </button>`,
        )}
      </div>
      <div class="chips" aria-label="Failure type">
        ${FAILURE_TYPES.map(
          ([type, label]) => html`<button class=${`chip ${state.failures.includes(type) ? 'on' : ''}`} aria-pressed=${state.failures.includes(type)} data-failure-filter=${type} onClick=${() => update({ failures: toggle(state.failures, type) })}>${label}</button>`,
        )}
      </div>
      <input type="search" class="search" placeholder="Search id, user, source, SQL, error" aria-label="Search queries" value=${typed} onInput=${(e: Event) => setTyped((e.target as HTMLInputElement).value)} />
      <label class="muted small">Show
        <select value=${String(state.limit)} onChange=${(e: Event) => update({ limit: Number((e.target as HTMLSelectElement).value) })}>
          ${LIMITS.map((n) => html`<option value=${String(n)}>${n}</option>`)}
        </select>
      </label>
    </div>
    ${page.error ? html`<p class="error" role="alert">${page.error.message}</p>` : null}
    ${page.data
      ? html`<p class="muted small" aria-live="polite">${page.data.matched} of ${page.data.total} queries match${page.data.matched > page.data.queries.length ? `; showing ${page.data.queries.length}` : ''}.</p>
          <${QueryTable} rows=${page.data.queries} empty="No query matches." sort=${state.sort} descending=${state.order === 'desc'} onSort=${sortBy} />`
      : html`<p class="muted">Loading…</p>`}
  </section>`;
}
