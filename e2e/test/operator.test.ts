// The operator end to end, on the test Kubernetes with the real helm and kubectl: the chart installs
// it, EngineClusters are applied, scaled, rolled and deleted, while trino-client runs TPC-H queries
// through the coordinator's Service; answers are checked against the reference generator's rows.
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../src/kubelet/images.js';
import { TestCluster, assertNoStrayProcesses, eventually } from './support/cluster.js';
import { engineClusters, workerSelector } from './support/engine-clusters.js';
import { PodHistory } from './support/pod-history.js';
import { referenceQueries, type ReferenceQuery } from './support/tpch-reference.js';
import { expectAnswer, queryLoad, runQuery } from './support/trino-queries.js';

const chart = path.join(repoRoot, 'charts', 'engine');
const examples = path.join(repoRoot, 'examples');
/** The catalogs of a cluster whose spec names none (no lake: it would be on each pod's own disk). */
const clusterCatalogs = [
  { name: 'memory', connector: 'memory' },
  { name: 'system', connector: 'system' },
  { name: 'tpch', connector: 'tpch' },
];

describe('the operator on the test Kubernetes', function () {
  this.timeout(120_000);
  let cluster: TestCluster;
  let queries: ReferenceQuery[];
  let server: string;
  let pods: PodHistory;

  const { status, workerPods, steady, events } = engineClusters(() => cluster);

  before(async () => {
    queries = referenceQueries();
    cluster = await TestCluster.startWithNode();
  });
  after(async () => {
    pods?.stop();
    await cluster?.stop();
  });

  it('installs with helm: the CRD, and the operator running as the leader', async () => {
    const lint = await cluster.helm(['lint', '--strict', chart]);
    expect(lint).to.match(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    const out = await cluster.helm([
      'install',
      'engine',
      chart,
      '--set',
      'operator.leaderElection.leaseDurationSeconds=3',
      '--set',
      'operator.autoscalePeriodSeconds=1',
      '--wait',
      '--timeout',
      '60s',
    ]);
    expect(out).to.match(/STATUS: deployed/);
    expect(out).to.match(/kubectl apply -n default -f examples\/minimal.yaml/);
    await cluster.ok(['get', 'crd', 'engineclusters.engine.io']);
    const operator = await cluster.json(['get', 'pods', '-l', 'app.kubernetes.io/name=engine-operator']);
    expect(operator.items).to.have.length(1);
    const lease = await cluster.json(['get', 'lease', 'engine-operator']);
    expect(lease.spec.holderIdentity).to.equal(operator.items[0].metadata.name);
    expect(await cluster.ok(['logs', operator.items[0].metadata.name])).to.match(/"msg":"watching EngineClusters"/);
  });

  it("refuses an invalid EngineCluster with the schema's message", async () => {
    const invalid =
      'apiVersion: engine.io/v1alpha1\nkind: EngineCluster\nmetadata: {name: broken}\nspec:\n  workers: {replicas: -1}\n  catalogs: {x: {connector: mysql}}\n';
    const r = await cluster.kubectl(['apply', '-f', '-'], invalid);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain(
      'spec.workers.replicas: Invalid value: -1: spec.workers.replicas in body should be greater than or equal to 0',
    );
    expect(r.stderr).to.contain(
      'spec.catalogs.x.connector: Unsupported value: "mysql": supported values: "tpch", "memory", "system", "hive", "postgresql"',
    );
    expect((await cluster.kubectl(['get', 'enginecluster', 'broken'])).code).to.not.equal(0);
  });

  it("runs examples/minimal.yaml: Available, and TPC-H through the coordinator's Service gives the reference answers", async () => {
    pods = await PodHistory.start(cluster.kubeconfigPath, 'default', 'app.kubernetes.io/managed-by=engine-operator');
    await cluster.ok(['apply', '-f', path.join(examples, 'minimal.yaml')]);
    await cluster.ok(['wait', '--for=condition=Available', 'enginecluster/engine', '--timeout=60s']);
    await steady(2);
    const svc = await cluster.json(['get', 'service', 'engine']);
    server = `http://${svc.spec.clusterIP}:${svc.spec.ports[0].port}`;
    for (const q of queries) await expectAnswer(server, q);
    const nodes = await runQuery(server, 'SELECT node_id, state FROM system.runtime.nodes WHERE coordinator = false ORDER BY node_id');
    expect(nodes).to.deep.equal({ rows: (await workerPods()).map((p) => [p, 'active']) });
    const table = (await cluster.ok(['get', 'ec'])).split('\n');
    expect(table[0]).to.match(/^NAME\s+WORKERS\s+READY\s+STATE\s+AGE$/);
    expect(table[1]).to.match(/^engine\s+2\s+2\s+Available\s+\d+s$/);
    const objects = [
      'deployment/engine-coordinator',
      'service/engine',
      'configmap/engine-config',
      'secret/engine-internal',
      'poddisruptionbudget/engine-workers',
    ];
    for (const o of objects)
      expect((await cluster.json(['get', o])).metadata.ownerReferences[0]).to.include({
        kind: 'EngineCluster',
        name: 'engine',
        controller: true,
      });
  });

  it('scales 2 -> 4 -> 1 with kubectl scale while 20 clients query: no query fails, a removed pod goes only after its node shut down and exited', async () => {
    const load = queryLoad(server, queries, 20);
    await new Promise((r) => setTimeout(r, 1000));
    await cluster.ok(['scale', 'enginecluster/engine', '--replicas=4']);
    await steady(4, 'engine', 90_000);
    const four = await workerPods();
    await new Promise((r) => setTimeout(r, 1000));
    await cluster.ok(['scale', 'enginecluster/engine', '--replicas=1']);
    await steady(1, 'engine', 90_000);
    const report = await load.stop();
    console.log(`      scale 2 -> 4 -> 1: ${report.run} queries, ${report.failures.length} failed`);
    expect(report.failures).to.deep.equal([]);
    expect(report.run).to.be.greaterThan(10);
    const removed = four.filter((p) => pods.deleted().includes(p));
    expect(removed).to.have.length(3);
    for (const name of removed) {
      const deleting = pods.atDeletion(name)!;
      expect(JSON.parse(deleting.metadata!.annotations!['engine.io/drain']).phase, name).to.equal('ShuttingDown');
      expect(deleting.status!.containerStatuses![0].state!.terminated!.exitCode, `${name} had exited 0 before it was deleted`).to.equal(0);
    }
    expect((await events('DrainStarted')).length).to.be.at.least(3);
    expect((await events('WorkerRemoved')).filter((m) => /drained, its node reached SHUTTING_DOWN and exited/.test(m))).to.have.length(3);
  });

  it('drains a busy worker deleted with kubectl delete pod (its preStop hook), and replaces it: no query fails', async () => {
    await cluster.ok(['scale', 'enginecluster/engine', '--replicas=2']);
    await steady(2);
    const load = queryLoad(server, queries, 4);
    await eventually(async () => (await status()).nodes!.some((n) => n.role === 'worker' && n.state === 'ACTIVE'), 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    const [victim] = await workerPods();
    await cluster.ok(['delete', 'pod', victim, '--wait=false']);
    await eventually(async () => !(await workerPods()).includes(victim) && pods.deleted().includes(victim), 60_000);
    await steady(2);
    const report = await load.stop();
    console.log(`      kubectl delete pod: ${report.run} queries, ${report.failures.length} failed`);
    expect(report.failures).to.deep.equal([]);
    const events = (await cluster.json(['get', 'events', '--field-selector', `involvedObject.name=${victim}`])).items.map(
      (e: { reason: string }) => e.reason,
    );
    expect(events, 'the kubelet ran the preStop drain without failing').to.not.include('FailedPreStopHook');
    const final = pods.versions.get(victim)!.at(-1)!.pod;
    expect(final.status!.containerStatuses![0].state!.terminated!.exitCode, 'the node exited by itself after the drain').to.equal(0);
  });

  it("rolls every worker, one new worker ready before each old one drains, when the workers' configuration changes: no query fails", async () => {
    const before = await workerPods();
    const load = queryLoad(server, queries, 4);
    await new Promise((r) => setTimeout(r, 1000));
    await cluster.ok([
      'patch',
      'enginecluster/engine',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { workers: { config: { query: { maxRunning: 90 } } } } }),
    ]);
    await eventually(async () => {
      const now = await workerPods();
      const s = await status();
      return (
        now.every((p) => !before.includes(p)) &&
        s.state === 'Available' &&
        s.workers?.ready === 2 &&
        s.workers.updated === 2 &&
        s.workers.draining === 0 &&
        now.length === 2
      );
    }, 90_000);
    const report = await load.stop();
    console.log(`      rolling the workers: ${report.run} queries, ${report.failures.length} failed`);
    expect(report.failures).to.deep.equal([]);
    const cm = await cluster.json(['get', 'configmap', 'engine-config']);
    expect(JSON.parse(cm.data['worker.json'])).to.deep.equal({ query: { maxRunning: 90 }, catalogs: clusterCatalogs });
    expect(JSON.parse(cm.data['coordinator.json'])).to.deep.equal({ catalogs: clusterCatalogs });
    expect((await events('DrainStarted')).filter((m) => m.includes('outdated template'))).to.have.length(2);
    for (const old of before) expect(pods.atDeletion(old)!.status!.containerStatuses![0].state!.terminated!.exitCode, old).to.equal(0);
  });

  it('rolls the workers first and replaces the coordinator last, after its own drain, when spec.config changes', async () => {
    const coordinatorSelector = 'engine.io/cluster=engine,app.kubernetes.io/component=coordinator';
    const oldWorkers = await workerPods();
    const [oldCoordinator] = (await cluster.json(['get', 'pods', '-l', coordinatorSelector])).items.map((p: any) => p.metadata.name);
    await cluster.ok([
      'patch',
      'enginecluster/engine',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { config: { query: { maxQueued: 500 } } } }),
    ]);
    await eventually(async () => pods.deleted().includes(oldCoordinator), 90_000);
    // The status the operator wrote before the old coordinator went may still read Available: wait
    // for one that reports its successor ACTIVE.
    await eventually(
      async () => (await status()).nodes!.some((n) => n.role === 'coordinator' && n.pod !== oldCoordinator && n.state === 'ACTIVE'),
      60_000,
    );
    await steady(2);
    expect((await workerPods()).filter((p) => oldWorkers.includes(p))).to.deep.equal([]);
    const deletionBegan = (name: string) =>
      pods.versions.get(name)!.find((v) => v.pod.metadata?.deletionTimestamp || v.type === 'DELETED')!.at;
    for (const worker of oldWorkers)
      expect(deletionBegan(worker), `${worker} went before the coordinator`).to.be.below(deletionBegan(oldCoordinator));
    const last = pods.versions.get(oldCoordinator)!.at(-1)!.pod;
    expect(last.status!.containerStatuses![0].state!.terminated!.exitCode, 'the old coordinator drained and exited 0').to.equal(0);
    const cm = await cluster.json(['get', 'configmap', 'engine-config']);
    expect(JSON.parse(cm.data['coordinator.json'])).to.deep.equal({ query: { maxQueued: 500 }, catalogs: clusterCatalogs });
    for (const q of queries) await expectAnswer(server, q);
  });

  it('resumes a drain after the operator is killed in its middle', async () => {
    // Generating sf3 comments keeps both workers busy for several seconds, well past the kill.
    const long = runQuery(server, 'SELECT count(*), sum(l_quantity), max(l_comment) FROM tpch.sf3.lineitem');
    await eventually(async () => (await status()).nodes!.filter((n) => n.role === 'worker' && n.state === 'ACTIVE').length === 2, 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    await cluster.ok(['scale', 'enginecluster/engine', '--replicas=1']);
    const draining = async () =>
      (await cluster.json(['get', 'pods', '-l', workerSelector('engine')])).items.find(
        (p: any) => p.metadata.annotations?.['engine.io/drain'],
      );
    await eventually(async () => (await draining()) !== undefined, 20_000);
    const pod = await draining();
    const record = JSON.parse(pod.metadata.annotations['engine.io/drain']);
    expect(record.phase, "the drain is still waiting for the long query's task when the operator is killed").to.equal('Isolating');
    const [operator] = (await cluster.json(['get', 'pods', '-l', 'app.kubernetes.io/name=engine-operator'])).items;
    await cluster.ok(['delete', 'pod', operator.metadata.name, '--grace-period=0', '--force']);
    await eventually(async () => pods.deleted().includes(pod.metadata.name), 90_000);
    expect(await long).to.deep.equal({ rows: [[17996609, '458992772.00', 'zzle? slyly regular instruc']] });
    const final = pods.atDeletion(pod.metadata.name)!;
    const after = JSON.parse(final.metadata!.annotations!['engine.io/drain']);
    expect(after.startedAt, 'the same drain went on').to.equal(record.startedAt);
    expect(after.phase).to.equal('ShuttingDown');
    expect(final.status!.containerStatuses![0].state!.terminated!.exitCode).to.equal(0);
    const [successor] = (await cluster.json(['get', 'pods', '-l', 'app.kubernetes.io/name=engine-operator'])).items;
    expect(successor.metadata.name).to.not.equal(operator.metadata.name);
    expect((await cluster.json(['get', 'lease', 'engine-operator'])).spec.holderIdentity).to.equal(successor.metadata.name);
    await steady(1);
  });

  it('restarts a worker whose process is killed (kill -9); a query it held fails with a clear error or succeeds', async () => {
    await cluster.ok(['scale', 'enginecluster/engine', '--replicas=2']);
    await steady(2);
    const load = queryLoad(server, queries, 2);
    await new Promise((r) => setTimeout(r, 1500));
    const [victim] = await workerPods();
    const before = await cluster.json(['get', 'pod', victim]);
    const pid = Number(/^process:\/\/(\d+)$/.exec(before.status.containerStatuses[0].containerID)![1]);
    process.kill(pid, 'SIGKILL');
    await eventually(async () => (await cluster.json(['get', 'pod', victim])).status.containerStatuses[0].restartCount === 1, 30_000);
    // The status may still show the cluster as before the kill for a moment: wait for the restarted node itself.
    const restarted = async () => (await status()).nodes?.find((n) => n.pod === victim);
    await eventually(async () => (await restarted())?.state === 'ACTIVE', 30_000);
    await steady(2);
    const report = await load.stop();
    console.log(`      kill -9 of a worker: ${report.run} queries, ${report.failures.length} failed`);
    for (const failure of report.failures) expect(failure).to.match(/^\w+: [A-Z_]+: \S/);
    expect(await restarted()).to.include({ state: 'ACTIVE', restarts: 1 });
  });

  it('autoscales: queued queries add workers up to maxReplicas, idleness removes them through the drain', async () => {
    const auto = `apiVersion: engine.io/v1alpha1
kind: EngineCluster
metadata: {name: auto}
spec:
  coordinator:
    config: {query: {maxRunning: 1}}
  workers:
    replicas: 1
    autoscaling: {minReplicas: 1, maxReplicas: 3, targetQueuedQueries: 0, targetRunningSplitsPerWorker: 1000, scaleInStabilizationSeconds: 3}
`;
    await cluster.ok(['apply', '-f', '-'], auto);
    await steady(1, 'auto');
    const svc = await cluster.json(['get', 'service', 'auto']);
    const load = queryLoad(`http://${svc.spec.clusterIP}:${svc.spec.ports[0].port}`, queries, 4);
    let highest = 0;
    await eventually(async () => {
      const s = await status('auto');
      highest = Math.max(highest, s.workers?.desired ?? 0);
      return s.workers?.ready === 3;
    }, 60_000);
    const report = await load.stop();
    console.log(`      autoscaling under a queue: ${report.run} queries, ${report.failures.length} failed`);
    expect(report.failures).to.deep.equal([]);
    const scaledUp = await cluster.json(['get', 'events', '--field-selector', 'involvedObject.name=auto,reason=Autoscaled']);
    expect(scaledUp.items.map((e: { message: string }) => e.message).some((m: string) => /queued queries/.test(m))).to.equal(true);
    const three = await workerPods('auto');
    await steady(1, 'auto');
    expect(highest, 'never above maxReplicas').to.equal(3);
    const removed = three.filter((p) => pods.deleted().includes(p));
    expect(removed).to.have.length(2);
    for (const name of removed) expect(pods.atDeletion(name)!.status!.containerStatuses![0].state!.terminated!.exitCode, name).to.equal(0);
  });

  it("a HorizontalPodAutoscaler scales an EngineCluster's workers through its scale subresource: up under query load, in through the drain", async () => {
    const elastic = `apiVersion: engine.io/v1alpha1
kind: EngineCluster
metadata: {name: elastic}
spec:
  workers:
    replicas: 1
    resources: {requests: {cpu: 100m}}
`;
    await cluster.ok(['apply', '-f', '-'], elastic);
    await steady(1, 'elastic');
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'elastic' },
      spec: {
        scaleTargetRef: { apiVersion: 'engine.io/v1alpha1', kind: 'EngineCluster', name: 'elastic' },
        minReplicas: 1,
        maxReplicas: 2,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
        behavior: { scaleDown: { stabilizationWindowSeconds: 5 } },
      },
    };
    await cluster.ok(['apply', '-f', '-'], JSON.stringify(hpa));
    const scaleActive = async () =>
      ((await cluster.json(['get', 'hpa', 'elastic'])).status?.conditions ?? []).find((c: { type: string }) => c.type === 'ScalingActive');
    await eventually(async () => (await scaleActive())?.reason === 'ValidMetricFound', 30_000);
    const svc = await cluster.json(['get', 'service', 'elastic']);
    const load = queryLoad(`http://${svc.spec.clusterIP}:${svc.spec.ports[0].port}`, queries, 4);
    await steady(2, 'elastic', 90_000);
    const two = await workerPods('elastic');
    const report = await load.stop();
    console.log(`      HPA on an EngineCluster under load: ${report.run} queries, ${report.failures.length} failed`);
    expect(report.failures).to.deep.equal([]);
    const rescaled = async () =>
      (
        await cluster.json([
          'get',
          'events',
          '--field-selector',
          'involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=elastic,reason=SuccessfulRescale',
        ])
      ).items.map((e: { message: string }) => e.message);
    expect(await rescaled()).to.include('New size: 2; reason: cpu resource utilization (percentage of request) above target');
    expect((await cluster.json(['get', 'ec', 'elastic'])).spec.workers.replicas).to.be.at.least(2);
    // Idle, the HPA asks for 1 after its window; the operator drains the surplus worker before its pod goes.
    await steady(1, 'elastic', 90_000);
    expect(await rescaled()).to.include('New size: 1; reason: All metrics below target');
    const removed = two.filter((p) => pods.deleted().includes(p));
    expect(removed).to.have.length(1);
    const deleting = pods.atDeletion(removed[0])!;
    expect(JSON.parse(deleting.metadata!.annotations!['engine.io/drain']).phase).to.equal('ShuttingDown');
    expect(deleting.status!.containerStatuses![0].state!.terminated!.exitCode, `${removed[0]} had exited 0 before it was deleted`).to.equal(
      0,
    );
    expect(
      (await events('WorkerRemoved')).some((m) => m.includes(removed[0]) && /drained, its node reached SHUTTING_DOWN and exited/.test(m)),
    ).to.equal(true);
    await cluster.ok(['delete', 'hpa', 'elastic']);
    await cluster.ok(['delete', 'enginecluster', 'elastic', '--timeout=60s']);
  });

  it('kubectl delete enginecluster removes every object and process it made', async () => {
    const made = async () =>
      (
        await cluster.json([
          'get',
          'pods,services,configmaps,secrets,deployments,replicasets,poddisruptionbudgets',
          '-l',
          'app.kubernetes.io/managed-by=engine-operator',
        ])
      ).items.map((o: any) => `${o.kind}/${o.metadata.name}`);
    expect((await made()).length).to.be.greaterThan(10);
    await cluster.ok(['delete', 'enginecluster', 'engine', 'auto', '--timeout=60s']);
    await eventually(async () => (await made()).length === 0, 60_000);
    await cluster.helm(['uninstall', 'engine', '--wait', '--timeout', '60s']);
    await eventually(async () => (await cluster.json(['get', 'pods'])).items.length === 0, 30_000);
    assertNoStrayProcesses();
  });
});
