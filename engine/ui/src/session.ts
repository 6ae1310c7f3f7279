// The signed-in user: read once at start, set by the sign-in form, cleared when an answer says the
// session is gone.

import { signal } from '@preact/signals';
import { api, ApiError, send, signedOut } from './api.js';
import type { Session } from './api-types.js';

/** undefined: not known yet; null: nobody is signed in. */
export const session = signal<Session | null | undefined>(undefined);
/** The server authenticates its users: the sign-in form asks for a password too. */
export const passwordRequired = signal(false);

export async function loadSession(): Promise<void> {
  try {
    session.value = await api<Session>('session');
    signedOut.value = false;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      passwordRequired.value = e.errorName === 'PASSWORD_LOGIN_REQUIRED';
      session.value = null;
    } else throw e;
  }
}

export async function signIn(user: string, password?: string): Promise<void> {
  session.value = await send<Session>('POST', 'login', password === undefined ? { user } : { user, password });
  signedOut.value = false;
}

export async function signOut(): Promise<void> {
  await send('POST', 'logout');
  session.value = null;
}
