// The interface: the sign-in form until someone is signed in, then the navigation bar and the page
// the URL names.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect } from 'preact/hooks';
import { signedOut } from './api.js';
import { LoginForm } from './login-form.js';
import { NavBar } from './nav-bar.js';
import { OverviewPage } from './overview-page.js';
import { QueryDetailPage } from './query-detail-page.js';
import { QueryListPage } from './query-list-page.js';
import { route } from './router.js';
import { loadSession, session } from './session.js';
import { WorkerDetailPage } from './worker-detail-page.js';
import { WorkersPage } from './workers-page.js';

export function App(): VNode {
  useEffect(() => void loadSession(), []);
  const current = session.value;
  if (current === undefined) return html`<main class="page"><p class="muted">Loading…</p></main>`;
  if (current === null || signedOut.value) return html`<${LoginForm} />`;
  return html`<${NavBar} session=${current} /><main class="page">${page(current.admin)}</main>`;
}

function page(admin: boolean): VNode {
  const [first, second, third] = route.value.segments;
  switch (first) {
    case undefined:
      return html`<${OverviewPage} />`;
    case 'queries':
      return html`<${QueryListPage} />`;
    case 'query':
      return second ? html`<${QueryDetailPage} queryId=${second} tab=${third ?? 'overview'} />` : html`<${QueryListPage} />`;
    case 'workers':
      return html`<${WorkersPage} admin=${admin} />`;
    case 'worker':
      return second ? html`<${WorkerDetailPage} nodeId=${second} admin=${admin} />` : html`<${WorkersPage} admin=${admin} />`;
    default:
      return html`<section><h1>Not found</h1><p>There is no page <code>/ui/${route.value.segments.join('/')}</code>. <a href="/ui/">Go to the overview</a>.</p></section>`;
  }
}
