// The sign-in form: a user name, as Trino's insecure login asks for one, and a password when the
// server authenticates its users. The server keeps the session in an HttpOnly cookie.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { passwordRequired, signIn } from './session.js';

export function LoginForm(): VNode {
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const withPassword = passwordRequired.value;
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await signIn(user, withPassword ? password : undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return html`<main class="login">
    <form class="card login-card" onSubmit=${submit}>
      <h1>Engine</h1>
      <p class="muted">Sign in with your user name${withPassword ? ' and password' : ''}: you see your own queries (all queries as an admin user).</p>
      <label for="login-user">User name</label>
      <input id="login-user" name="user" autocomplete="username" required autofocus value=${user} onInput=${(e: Event) => setUser((e.target as HTMLInputElement).value)} />
      ${withPassword
        ? html`<label for="login-password">Password</label>
            <input id="login-password" name="password" type="password" autocomplete="current-password" required value=${password} onInput=${(e: Event) => setPassword((e.target as HTMLInputElement).value)} />`
        : null}
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <button type="submit" class="primary">Sign in</button>
    </form>
  </main>`;
}
