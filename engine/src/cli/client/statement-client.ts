// Runs one statement over the client protocol with fetch: POST the SQL, then follow nextUri until
// the final response. The caller reads each response as it arrives and may cancel at any time. The
// next response is requested as soon as one arrives, so it travels while the caller prints this one;
// a response's rows stay JSON bytes until the caller asks for them parsed (a printer that can, prints
// them from the bytes: see OutputHandler.addJsonRows).

import type { StatementResponseJson } from '../../server/statement-json.js';
import { applySessionHeaders, applyTransactionEnd, requestHeaders, type ClientSession } from './client-session.js';
import { parseJsonQuickly } from '../../types/exact-json.js';
import { ClientError } from '../../internode/client-error.js';
import { splitDataMember } from './response-data.js';

/** One response: its fields (without `data`), the bytes of its rows, its headers. */
interface ReceivedResponse {
  json: StatementResponseJson;
  data: Uint8Array | undefined;
  headers: Headers;
}

const decoder = new TextDecoder();

/** The server refused the request (not a query failure: those arrive in `error`). */

export class RunningStatement {
  /** The latest response (its rows: rows() and dataBytes). */
  current: StatementResponseJson;
  /** The latest response's rows as JSON bytes, `[[...],...]`, unless they came parsed in `current.data`. */
  dataBytes: Uint8Array | undefined;
  private lastHeaders: Headers;
  /** The response after the latest, requested already. */
  private following: Promise<ReceivedResponse> | undefined;

  private constructor(
    private readonly session: ClientSession,
    private readonly headers: Record<string, string>,
    first: ReceivedResponse,
  ) {
    this.current = first.json;
    this.dataBytes = first.data;
    this.lastHeaders = first.headers;
    this.requestFollowing();
  }

  static async submit(session: ClientSession, sql: string, userAgent: string): Promise<RunningStatement> {
    const headers = requestHeaders(session, userAgent);
    const response = await request(`${session.server}/v1/statement`, {
      method: 'POST',
      body: sql,
      headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
    });
    return new RunningStatement(session, headers, await receive(response));
  }

  /** The latest response's rows, parsed. */
  rows(): unknown[][] {
    if (this.current.data !== undefined) return this.current.data;
    return this.dataBytes === undefined ? [] : (parseJsonQuickly(decoder.decode(this.dataBytes)) as unknown as unknown[][]);
  }

  get done(): boolean {
    return this.current.nextUri === undefined;
  }

  /** Fetches the next response; false once the statement is complete. */
  async advance(): Promise<boolean> {
    if (this.following === undefined) return false;
    const next = await this.following;
    this.current = next.json;
    this.dataBytes = next.data;
    this.lastHeaders = next.headers;
    this.requestFollowing();
    return true;
  }

  private requestFollowing(): void {
    const next = this.current.nextUri;
    this.following =
      next === undefined ? undefined : request(next, { method: 'GET', headers: this.headers }).then((response) => receive(response));
    // Its failure is the caller's when it advances, not an unhandled rejection before.
    this.following?.catch(() => undefined);
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

async function receive(response: Response): Promise<ReceivedResponse> {
  const { rest, data } = splitDataMember(new Uint8Array(await response.arrayBuffer()));
  return { json: parseJsonQuickly(rest) as unknown as StatementResponseJson, data, headers: response.headers };
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
