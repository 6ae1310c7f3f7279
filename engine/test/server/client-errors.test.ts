// Errors the client causes: answered in JSON even when Node's HTTP parser refuses the request, and
// logged without stack traces (debug for 4xx, info for 503); server faults stay errors with a stack.

import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { errorMiddleware } from '../../src/server/http-middleware.js';
import { ServerProcess, type LogLine } from '../support/server-process.js';
import { getJson, postStatement } from '../support/statement-http.js';

interface ErrorJson {
  error: { message: string; errorName?: string };
}

/** Sends raw bytes and returns the whole response the server wrote before closing. */
async function rawRequest(port: number, bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  socket.write(bytes);
  await once(socket, 'close');
  const split = text.indexOf('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), headers: text.slice(0, split), body: text.slice(split + 4) };
}

const LEVEL = { debug: 20, info: 30, error: 50 };

describe('client errors over HTTP', function () {
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start(['--log-level', 'debug']);
  });
  after(async () => {
    await server.stop();
  });

  it('answers request headers over the size limit with 431 and a JSON error', async () => {
    const response = await getJson<ErrorJson>(`${server.uri}/v1/info`, { headers: { 'X-Big': 'x'.repeat(20_000) } });
    expect(response.status).to.equal(431);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(response.body.error.errorName).to.equal('REQUEST_HEADER_FIELDS_TOO_LARGE');
    expect(response.body.error.message).to.match(/^Request header fields are too large \(the limit is \d+ bytes in all\)$/);
  });

  it('answers a malformed request line with 400 and a JSON error', async () => {
    const response = await rawRequest(server.port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(response.status).to.equal(400);
    expect(response.headers).to.match(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    const body = JSON.parse(response.body) as ErrorJson;
    expect(body.error.errorName).to.equal('BAD_REQUEST');
    expect(body.error.message).to.match(/^Malformed HTTP request: .+ \(HPE_[A-Z_]+\)$/);
    expect((await getJson<{ coordinator: boolean }>(`${server.uri}/v1/info`)).status).to.equal(200);
  });

  it('logs refused requests without a stack: 4xx at debug, 503 at info, nothing at error', async () => {
    expect((await getJson(`${server.uri}/v1/nothing`)).status).to.equal(404);
    expect((await postStatement(server.uri, 'SELECT 1', { 'X-Trino-Session': 'no_equals_sign' })).status).to.equal(400);
    expect(
      (await fetch(`${server.uri}/v1/info/state`, { method: 'PUT', body: '"ISOLATED"', headers: { 'Content-Type': 'application/json' } }))
        .status,
    ).to.equal(200);
    try {
      expect((await postStatement(server.uri, 'SELECT 1')).status).to.equal(503);
    } finally {
      await fetch(`${server.uri}/v1/info/state`, { method: 'PUT', body: '"ACTIVE"', headers: { 'Content-Type': 'application/json' } });
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // the log lines cross a pipe
    const refused = server.logs.filter((line) => line.msg === 'request refused');
    expect(refused.map((line) => [line.level, line.status, line.errorName])).to.deep.equal([
      [LEVEL.debug, 404, 'NOT_FOUND'],
      [LEVEL.debug, 400, 'BAD_REQUEST'],
      [LEVEL.info, 503, 'NODE_ISOLATED'],
    ]);
    for (const line of refused) expect(JSON.stringify(line)).not.to.include('stack');
    expect(server.logs.filter((line) => (line.level ?? 0) >= LEVEL.error)).to.deep.equal([]);
  });
});

describe('server faults in the log', () => {
  it('logs an unexpected failure at error with its stack, and answers 500 in JSON', async () => {
    const lines: LogLine[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    const app = new Koa();
    app.silent = true;
    const router = new Router();
    router.get('/boom', () => {
      throw new Error('boom');
    });
    app.use(errorMiddleware(pino({ level: 'debug' }, sink)));
    app.use(router.routes());
    const http = createHttpServer(app.callback()).listen(0, '127.0.0.1');
    await once(http, 'listening');
    try {
      const response = await getJson<ErrorJson>(`http://127.0.0.1:${(http.address() as AddressInfo).port}/boom`);
      expect(response.status).to.equal(500);
      expect(response.body.error).to.deep.equal({ message: 'Internal error: boom', errorName: 'INTERNAL_ERROR' });
    } finally {
      http.close();
      await once(http, 'close');
    }
    expect(lines).to.have.lengthOf(1);
    expect(lines[0]).to.deep.include({ level: LEVEL.error, msg: 'request failed', path: '/boom' });
    expect((lines[0].err as { stack: string }).stack).to.match(/^Error: boom\n\s+at /);
  });
});
