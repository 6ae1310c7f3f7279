// A query, stage, task or node state as a coloured badge.

import { html } from 'htm/preact';
import type { VNode } from 'preact';

export function StateBadge({ state, title }: { state: string; title?: string }): VNode {
  return html`<span class=${`badge state-${state.toLowerCase()}`} title=${title ?? state}>${state}</span>`;
}
