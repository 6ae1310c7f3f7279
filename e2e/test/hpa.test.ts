// Resource metrics and the HorizontalPodAutoscaler on the test Kubernetes, driven by the real
// kubectl: `kubectl top` reads metrics.k8s.io, `kubectl autoscale` creates an HPA that scales a
// Deployment of CPU-burning pods up, and back down once they idle and its stabilization window has
// passed; an HPA whose pods request no CPU reports that it cannot compute a utilization.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { TestCluster, eventually } from './support/cluster.js';

/** Pods that burn a CPU while `flag` exists (a shell builtin test: no process per turn), then idle. */
const burner = (name: string, flag: string, cpuRequest?: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - name: main
        image: busybox
        command: ["sh", "-c", "while [ -e ${flag} ]; do :; done; exec sleep 3600"]
${cpuRequest ? `        resources: {requests: {cpu: ${cpuRequest}}}` : ''}
`;

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

describe('resource metrics and the HorizontalPodAutoscaler on the test Kubernetes', function () {
  this.timeout(120_000);
  let cluster: TestCluster;
  let dir: string;

  const hpa = async (name: string) => cluster.json(['get', 'horizontalpodautoscalers.v2.autoscaling', name]);
  const condition = async (name: string, type: string): Promise<Condition | undefined> =>
    ((await hpa(name)).status?.conditions ?? []).find((c: Condition) => c.type === type);
  const replicas = async (deployment: string): Promise<number> => (await cluster.json(['get', 'deployment', deployment])).spec.replicas;
  const rescales = async (name: string): Promise<string[]> =>
    (
      await cluster.json([
        'get',
        'events',
        '--field-selector',
        `involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=${name},reason=SuccessfulRescale`,
      ])
    ).items.map((e: { message: string }) => e.message);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-hpa-'));
    cluster = await TestCluster.startWithNode();
  });
  after(async () => {
    await cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves metrics.k8s.io as metrics-server does: discovery, PodMetrics with a window, no watch', async () => {
    const resources = await cluster.ok(['api-resources', '--api-group=metrics.k8s.io']);
    expect(resources).to.match(/^nodes\s+metrics\.k8s\.io\/v1beta1\s+false\s+NodeMetrics$/m);
    expect(resources).to.match(/^pods\s+metrics\.k8s\.io\/v1beta1\s+true\s+PodMetrics$/m);
    await cluster.ok(['apply', '-f', '-'], burner('idle', path.join(dir, 'never'), '100m'));
    await cluster.ok(['rollout', 'status', 'deployment/idle', '--timeout=60s']);
    let list: any;
    await eventually(async () => {
      list = JSON.parse(
        await cluster.ok(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?labelSelector=app%3Didle']),
      );
      return list.items.length === 1;
    }, 30_000);
    const metrics = list.items[0];
    expect(metrics.kind).to.equal('PodMetrics');
    expect(metrics.metadata.labels.app).to.equal('idle');
    expect(metrics.window).to.match(/^\d+(\.\d+)?s$/);
    expect(metrics.containers).to.have.length(1);
    expect(metrics.containers[0].name).to.equal('main');
    expect(metrics.containers[0].usage.cpu).to.match(/^\d+n$/);
    expect(metrics.containers[0].usage.memory).to.match(/^[1-9]\d*Ki$/);
    const node = JSON.parse(await cluster.ok(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes/kube-test-node']));
    expect(node.kind).to.equal('NodeMetrics');
    const watch = await cluster.kubectl(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/pods?watch=true']);
    expect(watch.code).to.not.equal(0);
    expect(watch.stderr).to.contain('MethodNotAllowed');
    await cluster.ok(['delete', 'deployment', 'idle']);
  });

  it("kubectl autoscale: busy pods scale their Deployment up to the HPA's maximum; kubectl top and get hpa show it", async () => {
    const flag = path.join(dir, 'burn');
    fs.writeFileSync(flag, '');
    await cluster.ok(['apply', '-f', '-'], burner('burn', flag, '100m'));
    await cluster.ok(['rollout', 'status', 'deployment/burn', '--timeout=60s']);
    expect(await cluster.ok(['autoscale', 'deployment', 'burn', '--cpu-percent=50', '--min=1', '--max=3'])).to.contain(
      'horizontalpodautoscaler.autoscaling/burn autoscaled',
    );
    await eventually(async () => (await replicas('burn')) === 3 && (await hpa('burn')).status?.currentReplicas === 3, 60_000);
    expect(await rescales('burn')).to.include('New size: 3; reason: cpu resource utilization (percentage of request) above target');
    const status = (await hpa('burn')).status;
    expect(status.currentMetrics[0].resource.name).to.equal('cpu');
    expect(status.currentMetrics[0].resource.current.averageUtilization).to.be.greaterThan(50);
    expect(status.lastScaleTime).to.be.a('string');
    expect((await condition('burn', 'ScalingActive'))?.reason).to.equal('ValidMetricFound');
    expect((await condition('burn', 'AbleToScale'))?.status).to.equal('True');
    // A busy pod asks for more than the maximum: the count is limited.
    await eventually(async () => (await condition('burn', 'ScalingLimited'))?.reason === 'TooManyReplicas', 30_000);
    const table = (await cluster.ok(['get', 'hpa', 'burn'])).split('\n');
    expect(table[0].split(/\s+/)).to.deep.equal(['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    expect(table[1]).to.match(/^burn\s+Deployment\/burn\s+cpu: \d+%\/50%\s+1\s+3\s+3\s+\d+s$/);
    const v1 = await cluster.json(['get', 'horizontalpodautoscalers.v1.autoscaling', 'burn']);
    expect(v1.spec.targetCPUUtilizationPercentage).to.equal(50);
    expect(v1.status.currentCPUUtilizationPercentage).to.be.greaterThan(50);
    await eventually(
      async () => (await cluster.ok(['top', 'pod', '-l', 'app=burn', '--no-headers'])).trim().split('\n').length === 3,
      30_000,
    );
    const top = await cluster.ok(['top', 'pod', '-l', 'app=burn']);
    expect(top.split('\n')[0].split(/\s+/).slice(0, 3)).to.deep.equal(['NAME', 'CPU(cores)', 'MEMORY(bytes)']);
    for (const line of top.trim().split('\n').slice(1)) expect(line).to.match(/^burn-\S+\s+\d+m\s+\d+Mi\s*$/);
    expect(await cluster.ok(['top', 'node'])).to.match(/^kube-test-node\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%\s*$/m);
  });

  it('idle pods scale back to the minimum, not before the scale-down stabilization window has passed', async () => {
    const windowSeconds = 6;
    await cluster.ok([
      'patch',
      'hpa',
      'burn',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { behavior: { scaleDown: { stabilizationWindowSeconds: windowSeconds } } } }),
    ]);
    const behavior = (await hpa('burn')).spec.behavior;
    expect(behavior.scaleDown).to.deep.equal({
      stabilizationWindowSeconds: windowSeconds,
      selectPolicy: 'Max',
      policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
    });
    expect(behavior.scaleUp.stabilizationWindowSeconds).to.equal(0);
    const idleSince = Date.now();
    fs.rmSync(path.join(dir, 'burn'));
    await eventually(async () => (await replicas('burn')) === 1, 90_000);
    const status = (await hpa('burn')).status;
    // The last busy recommendation came at most one sync period and one metric window before the load stopped.
    expect(Date.parse(status.lastScaleTime)).to.be.at.least(idleSince - 3000 + windowSeconds * 1000 - 1000);
    expect(await rescales('burn')).to.include('New size: 1; reason: All metrics below target');
    await eventually(async () => (await hpa('burn')).status.currentReplicas === 1, 30_000);
    expect(await cluster.ok(['get', 'hpa', 'burn', '--no-headers'])).to.match(/^burn\s+Deployment\/burn\s+cpu: \d+%\/50%\s+1\s+3\s+1\s+/);
    await cluster.ok(['delete', 'hpa', 'burn']);
    await cluster.ok(['delete', 'deployment', 'burn']);
  });

  it('pods without a CPU request: ScalingActive False with FailedGetResourceMetric, and the target is left alone', async () => {
    await cluster.ok(['apply', '-f', '-'], burner('norequest', path.join(dir, 'never')));
    await cluster.ok(['rollout', 'status', 'deployment/norequest', '--timeout=60s']);
    const manifest = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'norequest' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'norequest' },
        minReplicas: 2,
        maxReplicas: 4,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
      },
    };
    expect(await cluster.ok(['apply', '-f', '-'], JSON.stringify(manifest))).to.contain(
      'horizontalpodautoscaler.autoscaling/norequest created',
    );
    // Below minReplicas it scales without metrics, as the real controller does; then the metric fails.
    await eventually(async () => (await replicas('norequest')) === 2, 30_000);
    // Until metrics-server has a window of the pods' usage the metric fails too, for that reason.
    const missingRequest =
      /^the HPA was unable to compute the replica count: failed to get cpu utilization: missing request for cpu in container main of Pod norequest-/;
    await eventually(async () => missingRequest.test((await condition('norequest', 'ScalingActive'))?.message ?? ''), 60_000);
    const active = (await condition('norequest', 'ScalingActive'))!;
    expect(active.status).to.equal('False');
    expect(active.reason).to.equal('FailedGetResourceMetric');
    expect(await cluster.ok(['get', 'hpa', 'norequest', '--no-headers'])).to.match(
      /^norequest\s+Deployment\/norequest\s+cpu: <unknown>\/50%\s+2\s+4\s+2\s+/,
    );
    expect(await replicas('norequest')).to.equal(2);
    const warnings = await cluster.json([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=norequest,reason=FailedGetResourceMetric',
    ]);
    expect(warnings.items[0].type).to.equal('Warning');
  });

  it('an AverageValue target needs no request: busy pods scale up on their average usage', async () => {
    const flag = path.join(dir, 'average');
    fs.writeFileSync(flag, '');
    await cluster.ok(['apply', '-f', '-'], burner('average', flag));
    const manifest = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'average' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'average' },
        maxReplicas: 2,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '0.05' } } }],
      },
    };
    await cluster.ok(['apply', '-f', '-'], JSON.stringify(manifest));
    await eventually(async () => (await replicas('average')) === 2, 60_000);
    fs.rmSync(flag);
    expect(await rescales('average')).to.include('New size: 2; reason: cpu resource above target');
    const status = (await hpa('average')).status;
    expect(status.currentMetrics[0].resource.current.averageValue).to.match(/^\d+m?$/);
    expect(status.currentMetrics[0].resource.current.averageUtilization).to.equal(undefined);
    expect(await cluster.ok(['get', 'hpa', 'average', '--no-headers'])).to.match(
      /^average\s+Deployment\/average\s+cpu: \d+m?\/50m\s+1\s+2\s+/,
    );
    await cluster.ok(['delete', 'hpa', 'average']);
    await cluster.ok(['delete', 'deployment', 'average']);
  });

  it("refuses an invalid HPA with the server's message", async () => {
    const r = await cluster.kubectl(['autoscale', 'deployment', 'norequest', '--name=bad', '--min=3', '--max=2']);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain('--max=MAXPODS must be larger or equal to --min=MINPODS');
    const bad = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'bad' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, minReplicas: 3, maxReplicas: 2 },
    };
    const applied = await cluster.kubectl(['apply', '-f', '-'], JSON.stringify(bad));
    expect(applied.code).to.not.equal(0);
    expect(applied.stderr).to.contain(
      'The HorizontalPodAutoscaler "bad" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
    );
  });
});
