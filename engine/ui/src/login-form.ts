// The sign-in form: a user name, as Trino's insecure login asks for one, until user authentication
// exists. The server keeps the name in an HttpOnly cookie.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { signIn } from './session.js';

export function LoginForm(): VNode {
  const [user, setUser] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await signIn(user);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return html`<main class="login">
    <form class="card login-card" onSubmit=${submit}>
      <h1>Engine</h1>
      <p class="muted">Sign in with your user name: you see your own queries (all queries as an admin user).</p>
      <label for="login-user">User name</label>
      <input id="login-user" name="user" autocomplete="username" required autofocus value=${user} onInput=${(e: Event) => setUser((e.target as HTMLInputElement).value)} />
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <button type="submit" class="primary">Sign in</button>
    </form>
  </main>`;
}
