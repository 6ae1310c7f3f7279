import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { e2eRoot, envWithTools } from '../src/binaries/tools.js';

const run = promisify(execFile);
const cli = path.join(e2eRoot, 'bin', 'kube-test-cluster.js');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('kube-test-cluster up / down (make kube-up, make kube-down)', function () {
  this.timeout(60000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-kube-up-'))));
  after(async () => {
    await run(process.execPath, [cli, 'down', '--state-dir', dir]).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts the cluster in the background, prints how to reach it, and stops it with every pod process', async () => {
    const up = await run(process.execPath, [cli, 'up', '--state-dir', dir]);
    const kubeconfig = path.join(dir, 'kubeconfig');
    expect(up.stdout).to.contain(`export KUBECONFIG=${kubeconfig}`);
    const pid = Number(fs.readFileSync(path.join(dir, 'cluster.pid'), 'utf8'));
    expect(alive(pid)).to.equal(true);
    const env = envWithTools({ KUBECONFIG: kubeconfig, HOME: dir });
    await run('kubectl', ['run', 'sleeper', '--image=busybox', '--restart=Never', '--', 'sleep', '600'], { env });
    await run('kubectl', ['wait', '--for=condition=Ready', 'pod/sleeper', '--timeout=20s'], { env });
    const groups = fs.readFileSync(path.join(dir, 'pod-groups'), 'utf8').split('\n').filter(Boolean).map(Number);
    expect(groups).to.have.length(1);
    expect((await run(process.execPath, [cli, 'status', '--state-dir', dir])).stdout).to.contain(`running (pid ${pid})`);
    const down = await run(process.execPath, [cli, 'down', '--state-dir', dir]);
    expect(down.stdout).to.contain(`stopped the test cluster (pid ${pid})`);
    expect(alive(pid)).to.equal(false);
    expect(groups.filter(alive)).to.deep.equal([]);
    expect(fs.existsSync(kubeconfig)).to.equal(false);
  });
});
