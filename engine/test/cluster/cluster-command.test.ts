import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import type { NodeEntry } from '../../src/coordinator/remote-node.js';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { ENGINE_MAIN } from '../support/server-process.js';
import { getJson } from '../support/statement-http.js';
import { eventually } from './cluster-fixture.js';

describe('engine cluster', function () {
  this.timeout(30_000);

  /** Runs `engine cluster --workers 2` until it is up and both workers joined. */
  async function startCluster(env: Record<string, string> = {}) {
    const cluster = spawn(process.execPath, [ENGINE_MAIN, 'cluster', '--workers', '2', '--port', '0', '--environment', 'cluster_command'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(cluster, 'exit');
    const output: string[] = [];
    const up = new Promise<string[]>((resolve) => {
      createInterface({ input: cluster.stdout! }).on('line', (line) => {
        output.push(line);
        const match = /^Cluster up: coordinator (\S+), 2 worker\(s\) (\S+) (\S+)$/.exec(line);
        if (match) resolve(match.slice(1));
      });
    });
    const [coordinator, ...workers] = await up;
    const entries = await eventually('both workers on the coordinator', async () => {
      const list = (await getJson<NodeEntry[]>(`${coordinator!}/v1/node`)).body;
      return list.length === 2 ? list : undefined;
    });
    expect(entries.map((e) => e.uri).sort()).to.deep.equal([...workers].sort());
    return { cluster, exited, output, coordinator: coordinator!, workers };
  }

  const putState = (uri: string, headers: Record<string, string> = {}) => getJson<unknown>(`${uri}/v1/info/state`, { method: 'PUT', body: '"ACTIVE"', headers: { 'Content-Type': 'application/json', ...headers } });

  it('starts a coordinator and its workers as separate processes, secured by a generated secret, and stops them all on SIGINT', async () => {
    const { cluster, exited, output, coordinator, workers } = await startCluster();
    const pids = output.filter((line) => line.includes('"msg":"listening"')).map((line) => (JSON.parse(line.replace(/^\[[^\]]+\] /, '')) as { pid: number }).pid);
    expect(pids).to.have.length(3);
    // The workers joined with the generated secret; a request without it is refused.
    expect(output).to.include('Requests between the nodes are signed with a shared secret generated for this run.');
    for (const uri of [coordinator, ...workers]) expect((await putState(uri)).status, uri).to.equal(401);

    cluster.kill('SIGINT');
    const [code] = await exited;
    expect(code).to.equal(0);
    for (const name of ['coordinator', 'worker-1', 'worker-2']) expect(output).to.include(`[${name}] exited with 0`);
    for (const pid of pids) expect(() => process.kill(pid, 0)).to.throw();
  });

  it('uses the secret the user set in ENGINE_SHARED_SECRET', async () => {
    const secret = 'the user chose this secret';
    const { cluster, exited, output, coordinator } = await startCluster({ ENGINE_SHARED_SECRET: secret });
    try {
      expect(output).to.include('Requests between the nodes are signed with the configured shared secret.');
      expect((await putState(coordinator)).status).to.equal(401);
      expect(await putState(coordinator, { ...new InternalAuthenticator(secret, 'test').authorizationHeader() })).to.deep.include({ status: 200, body: 'ACTIVE' });
    } finally {
      cluster.kill('SIGINT');
      await exited;
    }
  });
});
