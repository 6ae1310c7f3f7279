import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import type { NodeEntry } from '../../src/coordinator/remote-node.js';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { runEngine } from '../support/engine-cli.js';
import { ENGINE_MAIN } from '../support/server-process.js';
import { getJson } from '../support/statement-http.js';
import { eventually } from './cluster-fixture.js';

describe('engine cluster', function () {
  this.timeout(30_000);

  /** Runs `engine cluster --workers 2` until it is up and both workers joined. */
  async function startCluster(env: Record<string, string> = {}) {
    const cluster = spawn(process.execPath, [ENGINE_MAIN, 'cluster', '--workers', '2', '--port', '0', '--environment', 'cluster_command'], {
      // A home of its own: the cluster keeps its generated secret there.
      env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'engine-cluster-home-')), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(cluster, 'exit');
    const output: string[] = [];
    const errors: string[] = [];
    createInterface({ input: cluster.stderr! }).on('line', (line) => errors.push(line));
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
    return { cluster, exited, output, errors, coordinator: coordinator!, workers };
  }

  const putState = (uri: string, headers: Record<string, string> = {}) =>
    getJson<unknown>(`${uri}/v1/info/state`, {
      method: 'PUT',
      body: '"ACTIVE"',
      headers: { 'Content-Type': 'application/json', ...headers },
    });

  it('starts a coordinator and its workers as separate processes, secured by a generated secret, and stops them all on SIGINT', async () => {
    const { cluster, exited, output, coordinator, workers } = await startCluster();
    const pids = output
      .filter((line) => line.includes('"msg":"listening"'))
      .map((line) => (JSON.parse(line.replace(/^\[[^\]]+\] /, '')) as { pid: number }).pid);
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
      expect(await putState(coordinator, { ...new InternalAuthenticator(secret, 'test').authorizationHeader() })).to.deep.include({
        status: 200,
        body: 'ACTIVE',
      });
    } finally {
      cluster.kill('SIGINT');
      await exited;
    }
  });

  it("prints the generated secret's export line, and keeps the secret where 'engine node drain --server <worker>' finds it", async () => {
    const home = mkdtempSync(join(tmpdir(), 'engine-cluster-home-'));
    const { cluster, exited, output, errors, coordinator, workers } = await startCluster({ HOME: home });
    const file = join(home, '.engine', 'clusters', `${new URL(coordinator).port}.json`);
    try {
      const exportLine = errors.find((line) => line.startsWith('  export ENGINE_SHARED_SECRET='));
      expect(exportLine, errors.join('\n')).to.match(/^  export ENGINE_SHARED_SECRET=[A-Za-z0-9_-]{43}$/);
      expect(errors).to.include(
        `The nodes share a secret generated for this run. 'engine node' on this machine finds it in ${file} while the cluster runs.`,
      );
      expect(output).to.include(`Drain a worker: engine node drain --server ${workers[0]}`);
      // The secret appears once: not in any node's log line.
      const secret = exportLine!.split('=')[1]!;
      expect([...output, ...errors].filter((line) => line.includes(secret))).to.deep.equal([exportLine]);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(statSync(join(home, '.engine', 'clusters')).mode & 0o777).to.equal(0o700);

      // The exported line is what another shell needs (no file there): it drains worker-2.
      const elsewhere = { HOME: mkdtempSync(join(tmpdir(), 'engine-other-home-')), ENGINE_SHARED_SECRET: '' };
      const unsigned = await runEngine(['node', 'state', '--server', coordinator, 'ACTIVE'], elsewhere);
      expect(unsigned.code).to.equal(1);
      expect(unsigned.stderr).to.match(/: 401 Unauthorized: .*\nSet ENGINE_SHARED_SECRET to the nodes' shared secret\.\n$/);
      const exported = await runEngine(['node', 'drain', '--server', workers[1]!, '--poll', '100ms'], {
        ...elsewhere,
        ENGINE_SHARED_SECRET: secret,
      });
      expect(exported.code, exported.stderr).to.equal(0);
      await eventually('worker-2 exits', async () => (output.includes('[worker-2] exited with 0') ? true : undefined));

      // The README's drain, as written, on this machine: before, it failed with 401. It drains worker-1.
      const drain = await runEngine(['node', 'drain', '--server', workers[0]!, '--poll', '100ms'], {
        HOME: home,
        ENGINE_SHARED_SECRET: '',
      });
      expect(drain.code, drain.stderr).to.equal(0);
      expect(drain.stdout).to.match(/the node is gone/);
      await eventually('worker-1 exits', async () => (output.includes('[worker-1] exited with 0') ? true : undefined));
    } finally {
      cluster.kill('SIGINT');
      await exited;
    }
    expect(existsSync(file)).to.equal(false);
  });
});
