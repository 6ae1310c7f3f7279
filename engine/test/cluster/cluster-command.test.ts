import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import type { NodeEntry } from '../../src/coordinator/remote-node.js';
import { ENGINE_MAIN } from '../support/server-process.js';
import { getJson } from '../support/statement-http.js';
import { eventually } from './cluster-fixture.js';

describe('engine cluster', function () {
  this.timeout(30_000);

  it('starts a coordinator and its workers as separate processes and stops them all on SIGINT', async () => {
    const cluster = spawn(process.execPath, [ENGINE_MAIN, 'cluster', '--workers', '2', '--port', '0', '--environment', 'cluster_command'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    const pids = output.filter((line) => line.includes('"msg":"listening"')).map((line) => (JSON.parse(line.replace(/^\[[^\]]+\] /, '')) as { pid: number }).pid);
    expect(pids).to.have.length(3);

    cluster.kill('SIGINT');
    const [code] = await exited;
    expect(code).to.equal(0);
    for (const name of ['coordinator', 'worker-1', 'worker-2']) expect(output).to.include(`[${name}] exited with 0`);
    for (const pid of pids) expect(() => process.kill(pid, 0)).to.throw();
  });
});
