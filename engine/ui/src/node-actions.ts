// An admin user's moves of a node: ISOLATING, ISOLATED, ACTIVE or SHUTTING_DOWN, each offered only
// where the node may make it, each after a confirmation saying what will happen. Users who are not
// admins are offered nothing (and the server refuses them anyway).

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { send } from './api.js';
import type { ClusterNode } from './api-types.js';
import { ConfirmDialog } from './confirm-dialog.js';

const MOVES: Record<string, string[]> = {
  ACTIVE: ['ISOLATING', 'ISOLATED', 'SHUTTING_DOWN'],
  ISOLATING: ['ACTIVE', 'ISOLATED', 'SHUTTING_DOWN'],
  ISOLATED: ['ACTIVE', 'ISOLATING', 'SHUTTING_DOWN'],
};

const CONSEQUENCES: Record<string, string> = {
  ISOLATING: 'The node takes no new queries or tasks, finishes the ones it runs, then becomes ISOLATED by itself. Queries are placed on the other nodes.',
  ISOLATED: 'The node takes no new queries or tasks at once; what it runs now goes on until it ends.',
  ACTIVE: 'The node takes new queries and tasks again.',
  SHUTTING_DOWN: 'The node takes no new work, lets what it runs finish (at most shutdown.gracePeriod), then its process exits. This cannot be undone: a shut down node must be started again.',
};

export function NodeActions({ node, onMoved }: { node: ClusterNode; onMoved: () => void }): VNode | null {
  const [target, setTarget] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const moves = MOVES[node.state] ?? [];
  if (moves.length === 0) return null;
  const move = async (state: string) => {
    setTarget(undefined);
    try {
      await send('PUT', `nodes/${encodeURIComponent(node.nodeId)}/state`, state);
      setError(undefined);
      onMoved();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return html`<span class="node-actions">
    ${moves.map((state) => html`<button class=${state === 'SHUTTING_DOWN' ? 'danger small' : 'small'} data-move=${state} onClick=${() => setTarget(state)}>${state === 'ACTIVE' ? 'Activate' : state === 'SHUTTING_DOWN' ? 'Shut down' : state === 'ISOLATING' ? 'Drain' : 'Isolate now'}</button>`)}
    ${error ? html`<span class="error small" role="alert">${error}</span>` : null}
    ${target
      ? html`<${ConfirmDialog} title=${`Move ${node.nodeId} to ${target}?`} confirmLabel=${`Move to ${target}`} danger=${target === 'SHUTTING_DOWN'} onConfirm=${() => void move(target)} onCancel=${() => setTarget(undefined)}>
          <p>${CONSEQUENCES[target]}</p>
          ${node.status?.workload ? html`<p class="muted">It runs ${node.status.workload.runningTasks} tasks and ${node.status.workload.runningQueries} queries now.</p>` : null}
        </${ConfirmDialog}>`
      : null}
  </span>`;
}
