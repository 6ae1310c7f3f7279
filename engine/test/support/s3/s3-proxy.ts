// A loopback HTTP proxy in front of an S3 emulator, for tests: it records every request, injects
// faults on request (an error status, a dropped connection before or after the store acted, an
// answer that never comes, a body cut short), and can give an emulator that ignores it the
// semantics of `If-None-Match: *` on PUT (a HEAD then the PUT, one key at a time: atomic among the
// writes that go through this proxy, which is all of a test's), and check every request's AWS
// Signature V4 as S3 does (which no emulator here does).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from './sigv4-verifier.js';

export interface ProxyOptions {
  conditionalWrites?: boolean;
  /** Check signatures: the secret of each access key, and the region requests must be signed for. */
  signatures?: { secrets: ReadonlyMap<string, string>; region: string };
}

export type FaultAction =
  /** Answer with an S3 error document; the store never sees the request. */
  | { kind: 'respond'; status: number; code: string }
  /** Drop the connection without an answer; the store never sees the request. */
  | { kind: 'reset' }
  /** Let the store act, then drop the connection before its answer reaches the client. */
  | { kind: 'reset-after-store' }
  /** Never answer. */
  | { kind: 'hang' }
  /** Hold the request this long, then pass it on. */
  | { kind: 'delay'; ms: number }
  /** Pass the store's answer with its full Content-Length, but close after half the body. */
  | { kind: 'truncate' }
  /** Do something first (delete the object from the store, say), then pass the request on. */
  | { kind: 'before'; run: () => Promise<void> };

export interface Fault {
  /** Which requests it hits: a method, and a test of the path and query. */
  method?: string;
  matches?: (url: URL) => boolean;
  /** How many matching requests it hits before it is spent. */
  times: number;
  /** How many matching requests it lets through untouched before it hits any. */
  skip?: number;
  action: FaultAction;
}

export interface ProxiedRequest {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
}

export class S3Proxy {
  readonly requests: ProxiedRequest[] = [];
  /** Requests being handled now, and the most there ever were at once. */
  private inFlight = 0;
  maxInFlight = 0;
  private faults: Fault[] = [];
  /** Conditional PUTs in progress by path, so that two on one key run one after the other. */
  private readonly keyLocks = new Map<string, Promise<void>>();

  private constructor(
    private readonly server: http.Server,
    private readonly upstream: URL,
    private readonly options: ProxyOptions,
  ) {}

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  static async start(upstream: string, options: ProxyOptions = {}): Promise<S3Proxy> {
    const server = http.createServer();
    const proxy = new S3Proxy(server, new URL(upstream), options);
    server.on('request', (request, response) => {
      proxy.handle(request, response).catch((e: unknown) => {
        response.destroy(e instanceof Error ? e : new Error(String(e)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  inject(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** The recorded requests of a method whose URL passes `test`. */
  count(method: string, test: (url: URL) => boolean = () => true): number {
    return this.requests.filter((r) => r.method === method && test(r.url)).length;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.endpoint);
    const method = request.method ?? 'GET';
    this.requests.push({ method, url, headers: request.headers });
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    response.once('close', () => this.inFlight--);
    const body = await readAll(request);
    const signatures = this.options.signatures;
    if (signatures !== undefined) {
      const verdict = verifySignature(
        { method, target: request.url ?? '/', headers: request.headers, body },
        signatures.secrets,
        signatures.region,
      );
      if (!verdict.ok) {
        const status = verdict.code === 'XAmzContentSHA256Mismatch' || verdict.code === 'AuthorizationHeaderMalformed' ? 400 : 403;
        respondWithError(response, status, verdict.code!, 'the request signature was checked by the test proxy', method);
        return;
      }
    }
    const fault = this.takeFault(method, url);
    switch (fault?.kind) {
      case 'respond':
        respondWithError(response, fault.status, fault.code, 'injected by the test', method);
        return;
      case 'reset':
        request.socket.destroy();
        return;
      case 'hang':
        return;
      case 'delay':
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        break;
      case 'before':
        await fault.run();
        break;
    }
    const answer =
      this.options.conditionalWrites && method === 'PUT' && request.headers['if-none-match'] === '*' && !url.searchParams.has('partNumber')
        ? await this.conditionalPut(url, request.headers, body)
        : await this.forward(method, url, request.headers, body);
    if (fault?.kind === 'reset-after-store') {
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, answer.headers);
    if (fault?.kind === 'truncate') {
      response.write(answer.body.subarray(0, answer.body.length >> 1), () => request.socket.destroy());
      return;
    }
    response.end(answer.body);
  }

  private takeFault(method: string, url: URL): FaultAction | undefined {
    const fault = this.faults.find((f) => f.times > 0 && (f.method === undefined || f.method === method) && (f.matches?.(url) ?? true));
    if (fault === undefined) return undefined;
    if (fault.skip !== undefined && fault.skip > 0) {
      fault.skip--;
      return undefined;
    }
    fault.times--;
    return fault.action;
  }

  private async conditionalPut(url: URL, headers: http.IncomingHttpHeaders, body: Buffer): Promise<Answer> {
    const previous = this.keyLocks.get(url.pathname) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.keyLocks.set(url.pathname, mine);
    await previous;
    try {
      const existing = await this.forward('HEAD', url, { host: headers.host }, Buffer.alloc(0));
      if (existing.status === 200) {
        const xml =
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>';
        return { status: 412, headers: { 'content-type': 'application/xml' }, body: Buffer.from(xml) };
      }
      const { 'if-none-match': _ignored, ...rest } = headers;
      return await this.forward('PUT', url, rest, body);
    } finally {
      if (this.keyLocks.get(url.pathname) === mine) this.keyLocks.delete(url.pathname);
      release();
    }
  }

  private forward(method: string, url: URL, headers: http.IncomingHttpHeaders, body: Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const upstream = http.request(
        { host: this.upstream.hostname, port: this.upstream.port, method, path: `${url.pathname}${url.search}`, headers },
        (answer) => {
          readAll(answer).then(
            (answerBody) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: answerBody }),
            reject,
          );
        },
      );
      upstream.once('error', reject);
      upstream.end(body);
    });
  }
}

/** An S3 error document (a HEAD answer has none, as S3 sends none). */
function respondWithError(response: http.ServerResponse, status: number, code: string, message: string, method: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(
    method === 'HEAD'
      ? undefined
      : `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
