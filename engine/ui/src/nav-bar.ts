// The bar on every page: the pages, and who is signed in.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { Session } from './api-types.js';
import { route } from './router.js';
import { signOut } from './session.js';

const LINKS: Array<[string, string, string[]]> = [
  ['/ui/', 'Overview', ['']],
  ['/ui/queries', 'Queries', ['queries', 'query']],
  ['/ui/workers', 'Workers', ['workers', 'worker']],
];

export function NavBar({ session }: { session: Session }): VNode {
  const section = route.value.segments[0] ?? '';
  return html`<header class="nav">
    <a class="brand" href="/ui/">Engine</a>
    <nav aria-label="Pages">
      ${LINKS.map(([href, label, sections]) => html`<a href=${href} class=${sections.includes(section) ? 'active' : ''} aria-current=${sections.includes(section) ? 'page' : undefined}>${label}</a>`)}
    </nav>
    <span class="user" title=${session.admin ? 'Admin user: sees every query and may change node states' : 'Sees own queries'}>
      ${session.user}${session.admin ? html` <span class="badge admin">admin</span>` : null}
      <button class="link" onClick=${() => void signOut()}>Sign out</button>
    </span>
  </header>`;
}
