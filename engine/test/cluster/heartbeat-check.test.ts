// The coordinator's health-check request (node:http, keep-alive) against real loopback servers, and
// how heartbeatFailure types what went wrong.

import { expect } from 'chai';
import { once } from 'node:events';
import { Agent, createServer, type Server } from 'node:http';
import { heartbeatFailure } from '../../src/coordinator/heartbeat-monitor.js';
import { getSmallJson } from '../../src/internode/small-request.js';

describe('the health-check request', () => {
  const agent = new Agent({ keepAlive: true });
  let server: Server;
  let uri: string;
  let answer: (path: string) => { status: number; body: string } | 'hang up' | undefined;
  let connections = 0;

  before(async () => {
    server = createServer((request, response) => {
      const reply = answer(request.url ?? '');
      if (reply === undefined) return; // never answers
      if (reply === 'hang up') return request.socket.destroy();
      response.statusCode = reply.status;
      response.end(reply.body);
    });
    server.on('connection', () => connections++);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    uri = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });

  after(async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads the status and keeps the connection for the next check', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ nodeId: 'w1', state: 'ACTIVE' }) });
    const before = connections;
    for (let i = 0; i < 3; i++)
      expect(await getSmallJson(`${uri}/v1/status`, agent, 2000)).to.deep.equal({ status: 200, body: { nodeId: 'w1', state: 'ACTIVE' } });
    expect(connections - before).to.equal(1);
  });

  it('types a refused connection by its socket error code and names the address', async () => {
    const failure = heartbeatFailure(await getSmallJson('http://127.0.0.1:1/v1/status', agent, 2000).catch((e: unknown) => e));
    expect(failure.type).to.equal('ECONNREFUSED');
    expect(failure.message).to.match(/^GET http:\/\/127\.0\.0\.1:1\/v1\/status: connect ECONNREFUSED 127\.0\.0\.1:1$/);
  });

  it('names the code of a connection closed without an answer, which its message does not say', async () => {
    answer = () => 'hang up';
    const failure = heartbeatFailure(await getSmallJson(`${uri}/v1/status`, agent, 2000).catch((e: unknown) => e));
    expect(failure).to.include({ type: 'ECONNRESET', message: `GET ${uri}/v1/status: socket hang up (ECONNRESET)` });
  });

  it('fails a node that does not answer in time with a TimeoutError', async () => {
    answer = () => undefined;
    const failure = heartbeatFailure(await getSmallJson(`${uri}/v1/status`, agent, 100).catch((e: unknown) => e));
    expect(failure).to.include({ type: 'TimeoutError', message: `GET ${uri}/v1/status did not answer within 100 ms` });
  });

  it('refuses a body that is not JSON, or too large, as an unexpected response', async () => {
    answer = () => ({ status: 200, body: '<html>proxy error</html>' });
    const notJson = heartbeatFailure(await getSmallJson(`${uri}/v1/status`, agent, 2000).catch((e: unknown) => e));
    expect(notJson).to.include({
      type: 'UNEXPECTED_RESPONSE',
      message: `GET ${uri}/v1/status answered 200 with a body that is not JSON: <html>proxy error</html>`,
    });
    answer = () => ({ status: 200, body: `"${'x'.repeat(2 * 1024 * 1024)}"` });
    const tooLarge = heartbeatFailure(await getSmallJson(`${uri}/v1/status`, agent, 5000).catch((e: unknown) => e));
    expect(tooLarge).to.include({ type: 'UNEXPECTED_RESPONSE', message: `GET ${uri}/v1/status answered more than 1048576 bytes` });
  });
});
