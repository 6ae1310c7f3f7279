// The interface's pages live under /ui/ as real URLs (a link can be shared, the back button works):
// the path and query string are a signal, links inside the app change them without a page load.

import { signal } from '@preact/signals';

export interface Route {
  /** Path segments after /ui/. */
  segments: string[];
  params: URLSearchParams;
}

function current(): Route {
  const path = location.pathname.replace(/^\/ui\/?/, '');
  return { segments: path.split('/').filter((s) => s !== '').map(decodeURIComponent), params: new URLSearchParams(location.search) };
}

export const route = signal<Route>(current());

/** Goes to `url` (a /ui/ path); `replace` rewrites the current history entry (filters typed into a page). */
export function navigate(url: string, replace = false): void {
  if (url === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route.value = current();
}

export function startRouter(): void {
  addEventListener('popstate', () => (route.value = current()));
  // Plain clicks on links to /ui/ pages stay in the app; modified clicks (new tab) are the browser's.
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest('a');
    const href = anchor?.getAttribute('href');
    if (!anchor || !href || !href.startsWith('/ui/') || anchor.hasAttribute('download') || anchor.target === '_blank') return;
    event.preventDefault();
    navigate(href);
    scrollTo(0, 0);
  });
}

export function queryUrl(queryId: string, tab?: string): string {
  return `/ui/query/${encodeURIComponent(queryId)}${tab && tab !== 'overview' ? `/${tab}` : ''}`;
}

export function nodeUrl(nodeId: string): string {
  return `/ui/worker/${encodeURIComponent(nodeId)}`;
}
