import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { TestCluster, assertNoStrayProcesses } from './support/cluster.js';
import { collectEvents } from './support/watch.js';

/** A container that records its preStop hook and the SIGTERM it gets (and ignores) with times in ms. */
const recorder = (name: string, dir: string, grace: number, onTerm = '') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: ${grace}
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "trap 'echo term $(date +%s%3N) >> /signals/log${onTerm}' TERM; echo started $(date +%s%3N) >> /signals/log; while true; do sleep 0.1; done"]
    lifecycle:
      preStop:
        exec: {command: [sh, -c, "echo prestop $(date +%s%3N) >> /signals/log; sleep 1; echo prestop-done $(date +%s%3N) >> /signals/log"]}
    readinessProbe: {exec: {command: [cat, /signals/log]}, periodSeconds: 1}
    volumeMounts: [{name: signals, mountPath: /signals}]
  volumes: [{name: signals, hostPath: {path: ${dir}, type: DirectoryOrCreate}}]
`;

function readSignals(dir: string): { what: string; at: number }[] {
  return fs
    .readFileSync(path.join(dir, 'log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [what, at] = line.split(' ');
      return { what, at: Number(at) };
    });
}

interface PodView {
  metadata: { name: string; deletionTimestamp?: string };
  status: { phase: string; containerStatuses?: { state: { terminated?: { exitCode: number; signal?: number; reason: string } } }[] };
}

describe('pod deletion: preStop hook, then SIGTERM, then SIGKILL at the end of the grace period', function () {
  this.timeout(60000);
  let cluster: TestCluster;
  let tmp: string;
  before(async () => {
    cluster = await TestCluster.startWithNode();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-signals-'));
  });
  after(async () => {
    await cluster?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function readyPod(name: string, grace: number, onTerm = ''): Promise<string> {
    const dir = path.join(tmp, name);
    await cluster.ok(['apply', '-f', '-'], recorder(name, dir, grace, onTerm));
    await cluster.ok(['wait', '--for=condition=Ready', `pod/${name}`, '--timeout=20s']);
    return dir;
  }

  it('runs the preStop hook first, sends SIGTERM when it is done, and SIGKILLs a process that ignores it once the grace period is over', async () => {
    const dir = await readyPod('stubborn', 3);
    const watch = collectEvents<PodView>(
      `${cluster.url}/api/v1/namespaces/default/pods?watch=1&fieldSelector=metadata.name%3Dstubborn`,
      (e) => e.type === 'DELETED',
    );
    const deletedAt = Date.now();
    await cluster.ok(['delete', 'pod', 'stubborn', '--wait=false']);
    const events = await watch;
    const goneAt = Date.now();
    const signals = readSignals(dir);
    expect(signals.map((s) => s.what)).to.deep.equal(['started', 'prestop', 'prestop-done', 'term']);
    const at = Object.fromEntries(signals.map((s) => [s.what, s.at]));
    expect(at.prestop).to.be.at.least(deletedAt - 50);
    expect(at.term).to.be.at.least(at['prestop-done']);
    // SIGKILL only at the end of the 3 s grace period, counted from the deletion.
    expect(goneAt - deletedAt).to.be.at.least(2900);
    const lastState = events[events.length - 2].object;
    expect(lastState.metadata.deletionTimestamp).to.be.a('string');
    expect(lastState.status.containerStatuses![0].state.terminated).to.include({ exitCode: 137, signal: 9, reason: 'Error' });
    expect(lastState.status.phase).to.equal('Failed');
  });

  it('removes a pod as soon as its process exits on SIGTERM, without waiting out the grace period', async () => {
    await readyPod('polite', 30, '; exit 0');
    const deletedAt = Date.now();
    await cluster.ok(['delete', 'pod', 'polite']);
    expect(Date.now() - deletedAt).to.be.below(15000);
    expect(readSignals(path.join(tmp, 'polite')).map((s) => s.what)).to.deep.equal(['started', 'prestop', 'prestop-done', 'term']);
  });

  it('cuts the grace period short for a later delete with --grace-period', async () => {
    await readyPod('impatient', 30);
    const watch = collectEvents(
      `${cluster.url}/api/v1/namespaces/default/pods?watch=1&fieldSelector=metadata.name%3Dimpatient`,
      (e) => e.type === 'DELETED',
    );
    const deletedAt = Date.now();
    await cluster.ok(['delete', 'pod', 'impatient', '--wait=false']);
    await cluster.ok(['delete', 'pod', 'impatient', '--grace-period=1', '--wait=false']);
    await watch;
    expect(Date.now() - deletedAt).to.be.below(20000);
    expect(readSignals(path.join(tmp, 'impatient')).map((s) => s.what)).to.include('term');
  });

  it("ends a preStop hook still running when the container's process exits (the hook runs inside the container)", async () => {
    const dir = path.join(tmp, 'selfstop');
    // $$$$ is the shell's $$ once the kubelet has expanded $(VAR) references.
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: selfstop}
spec:
  terminationGracePeriodSeconds: 30
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "trap 'exit 0' TERM; echo $$$$ > /signals/pid; while true; do sleep 0.1; done"]
    lifecycle:
      preStop:
        exec: {command: [sh, -c, "kill -TERM $(cat /signals/pid); sleep 30"]}
    readinessProbe: {exec: {command: [cat, /signals/pid]}, periodSeconds: 1}
    volumeMounts: [{name: signals, mountPath: /signals}]
  volumes: [{name: signals, hostPath: {path: ${dir}, type: DirectoryOrCreate}}]
`;
    await cluster.ok(['apply', '-f', '-'], pod);
    await cluster.ok(['wait', '--for=condition=Ready', 'pod/selfstop', '--timeout=20s']);
    const watch = collectEvents(
      `${cluster.url}/api/v1/namespaces/default/pods?watch=1&fieldSelector=metadata.name%3Dselfstop`,
      (e) => e.type === 'DELETED',
    );
    const deletedAt = Date.now();
    await cluster.ok(['delete', 'pod', 'selfstop', '--wait=false']);
    await watch;
    expect(Date.now() - deletedAt).to.be.below(15000);
    assertNoStrayProcesses();
  });
});
