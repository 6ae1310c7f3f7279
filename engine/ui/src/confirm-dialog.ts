// A modal question before an action that cannot be taken back: what will happen, confirm or cancel.

import { html } from 'htm/preact';
import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export interface ConfirmDialogProps {
  title: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ComponentChildren;
}

export function ConfirmDialog({ title, confirmLabel, danger, onConfirm, onCancel, children }: ConfirmDialogProps): VNode {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return html`<dialog ref=${dialog} class="card confirm" aria-labelledby="confirm-title" onCancel=${onCancel}>
    <h2 id="confirm-title">${title}</h2>
    ${children}
    <div class="actions">
      <button onClick=${onCancel}>Cancel</button>
      <button class=${danger ? 'danger' : 'primary'} data-action="confirm" onClick=${onConfirm}>${confirmLabel}</button>
    </div>
  </dialog>`;
}
