// Small requests between nodes over node:http with a keep-alive agent: a coordinator's GET of a
// node's /v1/status every heartbeat interval, a worker's PUT of its announcement every announcement
// interval. node:http costs about a third of fetch's CPU per request (fetch builds WHATWG streams,
// headers objects and an AbortSignal each time), which showed at 200 nodes (make bench-nodes) and in
// an idle cluster's CPU.

import { type Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** An answer larger than this is refused rather than buffered: a status is about 1.5 KB. */
const MAX_BODY_BYTES = 1024 * 1024;

/** A failed request; `code` is the socket error's (ECONNREFUSED, ...) when there is one. */
export class SmallRequestError extends Error {
  constructor(
    name: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = name;
  }
}

export interface SmallJsonAnswer {
  status: number;
  body: unknown;
}

export interface SmallRequest {
  method: 'GET' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
}

/** The status and body text of `url`'s answer; fails after `timeoutMillis` in all (TimeoutError). */
export function smallRequest(
  url: string,
  { method, headers = {}, body }: SmallRequest,
  agent: Agent,
  timeoutMillis: number,
): Promise<{ status: number; text: string }> {
  const what = `${method} ${url}`;
  return new Promise((resolve, reject) => {
    const fail = (error: SmallRequestError) => {
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_BODY_BYTES)
          fail(new SmallRequestError('UNEXPECTED_RESPONSE', `${what} answered more than ${MAX_BODY_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on('error', (e: NodeJS.ErrnoException) => fail(socketError(what, e)));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.on('error', (e: NodeJS.ErrnoException) => fail(socketError(what, e)));
    const timer = setTimeout(
      () => fail(new SmallRequestError('TimeoutError', `${what} did not answer within ${timeoutMillis} ms`)),
      timeoutMillis,
    );
    request.end(body);
  });
}

/** GET `url` and parse its body as JSON; fails after `timeoutMillis` in all (TimeoutError). */
export async function getSmallJson(url: string, agent: Agent, timeoutMillis: number): Promise<SmallJsonAnswer> {
  const { status, text } = await smallRequest(url, { method: 'GET', headers: { Accept: 'application/json' } }, agent, timeoutMillis);
  try {
    return { status, body: text === '' ? undefined : JSON.parse(text) };
  } catch {
    throw new SmallRequestError('UNEXPECTED_RESPONSE', `GET ${url} answered ${status} with a body that is not JSON: ${text.slice(0, 100)}`);
  }
}

/** The socket error, its code named ("socket hang up" is an ECONNRESET that does not say so). */
function socketError(what: string, e: NodeJS.ErrnoException): SmallRequestError {
  const named = e.code === undefined || e.message.includes(e.code) ? e.message : `${e.message} (${e.code})`;
  return new SmallRequestError(e.name, `${what}: ${named}`, e.code);
}
