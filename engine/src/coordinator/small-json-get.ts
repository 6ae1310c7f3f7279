// GET of a small JSON document (a node's /v1/status) over node:http with a keep-alive agent. A
// coordinator sends one to every node every heartbeat interval: node:http costs about a third of
// fetch's CPU per request (fetch builds WHATWG streams, headers objects and an AbortSignal each
// time), which showed at 200 nodes (make bench-nodes).

import { type Agent, get } from 'node:http';
import { get as httpsGet } from 'node:https';

/** An answer larger than this is refused rather than buffered: a status is about 1.5 KB. */
const MAX_BODY_BYTES = 1024 * 1024;

/** A failed GET; `code` is the socket error's (ECONNREFUSED, ...) when there is one. */
export class SmallJsonGetError extends Error {
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

/** GET `url` and parse its body as JSON; fails after `timeoutMillis` in all (TimeoutError). */
export function getSmallJson(url: string, agent: Agent, timeoutMillis: number): Promise<SmallJsonAnswer> {
  return new Promise((resolve, reject) => {
    const fail = (error: SmallJsonGetError) => {
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const request = (url.startsWith('https:') ? httpsGet : get)(url, { agent, headers: { Accept: 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_BODY_BYTES)
          fail(new SmallJsonGetError('UNEXPECTED_RESPONSE', `GET ${url} answered more than ${MAX_BODY_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on('error', (e: NodeJS.ErrnoException) => fail(socketError(url, e)));
      response.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: response.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) });
        } catch {
          reject(
            new SmallJsonGetError(
              'UNEXPECTED_RESPONSE',
              `GET ${url} answered ${response.statusCode} with a body that is not JSON: ${text.slice(0, 100)}`,
            ),
          );
        }
      });
    });
    request.on('error', (e: NodeJS.ErrnoException) => fail(socketError(url, e)));
    const timer = setTimeout(
      () => fail(new SmallJsonGetError('TimeoutError', `GET ${url} did not answer within ${timeoutMillis} ms`)),
      timeoutMillis,
    );
  });
}

/** The socket error, its code named ("socket hang up" is an ECONNRESET that does not say so). */
function socketError(url: string, e: NodeJS.ErrnoException): SmallJsonGetError {
  const named = e.code === undefined || e.message.includes(e.code) ? e.message : `${e.message} (${e.code})`;
  return new SmallJsonGetError(e.name, `GET ${url}: ${named}`, e.code);
}
