// Runs one statement over the client protocol with fetch: POST the SQL, then follow nextUri until
// the final response. The caller reads each response as it arrives and may cancel at any time.

import type { StatementResponseJson } from '../../server/statement-json.js';
import { applySessionHeaders, applyTransactionEnd, requestHeaders, type ClientSession } from './client-session.js';
import { parseJsonQuickly } from '../../types/exact-json.js';
import { ClientError } from '../../internode/client-error.js';

/** The server refused the request (not a query failure: those arrive in `error`). */

export class RunningStatement {
  private lastHeaders: Headers;

  private constructor(
    private readonly session: ClientSession,
    private readonly headers: Record<string, string>,
    /** The latest response. */
    public current: StatementResponseJson,
    responseHeaders: Headers,
  ) {
    this.lastHeaders = responseHeaders;
  }

  static async submit(session: ClientSession, sql: string, userAgent: string): Promise<RunningStatement> {
    const headers = requestHeaders(session, userAgent);
    const response = await request(`${session.server}/v1/statement`, {
      method: 'POST',
      body: sql,
      headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
    });
    return new RunningStatement(
      session,
      headers,
      parseJsonQuickly(await response.text()) as unknown as StatementResponseJson,
      response.headers,
    );
  }

  get done(): boolean {
    return this.current.nextUri === undefined;
  }

  /** Fetches the next response; false once the statement is complete. */
  async advance(): Promise<boolean> {
    const next = this.current.nextUri;
    if (next === undefined) return false;
    const response = await request(next, { method: 'GET', headers: this.headers });
    this.current = parseJsonQuickly(await response.text()) as unknown as StatementResponseJson;
    this.lastHeaders = response.headers;
    return true;
  }

  /** Asks the server to cancel the query; the following responses report USER_CANCELED. */
  async cancel(): Promise<void> {
    if (this.done) return;
    await request(this.current.nextUri!, { method: 'DELETE', headers: this.headers }).catch(() => undefined);
  }

  /** The session to use for the next statement: changed by this one unless it failed. */
  nextSession(): ClientSession {
    return this.current.error ? applyTransactionEnd(this.session, this.lastHeaders) : applySessionHeaders(this.session, this.lastHeaders);
  }
}

async function request(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    throw new ClientError(`Cannot reach ${new URL(url).origin}: ${cause ?? (e as Error).message}`);
  }
  if (response.status === 204 || response.ok) return response;
  const text = await response.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    // not JSON: show the text as it came
  }
  throw new ClientError(`${response.status} ${response.statusText}: ${message}`);
}
