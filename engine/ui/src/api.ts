// Requests to the coordinator's /ui/api. A 401 means the user is not signed in: the app shows the
// sign-in form. Any other error answer carries the server's JSON error message.

import { signal } from '@preact/signals';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName?: string,
  ) {
    super(message);
  }
}

/** Set when an answer said the user is not signed in (the session ended, or never began). */
export const signedOut = signal(false);

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`/ui/api/${path}`, { credentials: 'same-origin', ...init, headers: { Accept: 'application/json', ...(init.headers ?? {}) } });
  if (response.status === 401) signedOut.value = true;
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const body = text === '' ? undefined : (JSON.parse(text) as unknown);
  if (!response.ok) {
    const error = (body as { error?: { message?: string; errorName?: string } } | undefined)?.error;
    throw new ApiError(response.status, error?.message ?? `${response.status} ${response.statusText}`, error?.errorName);
  }
  return body as T;
}

/** A request with a JSON body (what the server needs for anything that changes state). */
export function send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return api<T>(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }) });
}
