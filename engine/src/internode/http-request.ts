// One request to another node through undici's own API on the process's dispatcher (the one fetch
// uses, trusting the internal CA: internal-tls.ts). fetch's WHATWG Request, Headers and body streams
// cost more CPU than the task and page requests themselves (a coordinator's task polls, a worker's
// page fetches). A failure is shaped as fetch's, which the callers' retries read: the abort signal's
// reason, or a TypeError whose cause is the socket error (its `code`, e.g. ECONNREFUSED), also when
// the body breaks off.

import { request, type Dispatcher } from 'undici';

export interface HttpRequest {
  method?: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface HttpAnswer {
  status: number;
  /** A header of the answer by its (case-insensitive) name; null when absent. */
  header(name: string): string | null;
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
}

export async function httpRequest(uri: string, init: HttpRequest): Promise<HttpAnswer> {
  const { signal } = init;
  const response = await asFetchFailure(signal, () =>
    request(uri, { method: init.method ?? 'GET', headers: init.headers, body: init.body, signal }),
  );
  const headers = response.headers;
  return {
    status: response.statusCode,
    header: (name) => {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    text: () => asFetchFailure(signal, () => response.body.text()),
    bytes: () => asFetchFailure(signal, async () => new Uint8Array(await response.body.arrayBuffer())),
  };
}

async function asFetchFailure<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (signal.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: e });
  }
}
