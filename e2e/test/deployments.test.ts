import { expect } from 'chai';
import { TestCluster, eventually } from './support/cluster.js';
import { echoDeployment, echoServerConfig, httpText } from './support/echo.js';

interface Pod {
  metadata: {
    name: string;
    labels: Record<string, string>;
    ownerReferences?: { kind: string; name: string }[];
    deletionTimestamp?: string;
  };
  status: { podIP: string; phase: string };
}

describe('Deployments and ReplicaSets on the test cluster, driven by the real kubectl', function () {
  this.timeout(90000);
  let cluster: TestCluster;
  before(async () => {
    cluster = await TestCluster.startWithNode();
    await cluster.ok(['apply', '-f', '-'], echoServerConfig);
  });
  after(async () => cluster?.stop());

  const pods = async (app: string): Promise<Pod[]> => (await cluster.json(['get', 'pods', '-l', `app=${app}`])).items;
  const livePods = async (app: string) => (await pods(app)).filter((p) => !p.metadata.deletionTimestamp);

  it('rolls out a Deployment: kubectl rollout status, wait --for=condition=Available, one ReplicaSet by pod-template-hash', async () => {
    await cluster.ok(['apply', '-f', '-'], echoDeployment('web', 2));
    expect(await cluster.ok(['rollout', 'status', 'deployment/web', '--timeout=30s'])).to.contain(
      'deployment "web" successfully rolled out',
    );
    expect(await cluster.ok(['wait', '--for=condition=Available', 'deployment/web', '--timeout=10s'])).to.contain(
      'deployment.apps/web condition met',
    );
    const table = await cluster.ok(['get', 'deployment', 'web']);
    expect(table.split('\n')[1]).to.match(/^web\s+2\/2\s+2\s+2\s+\d+s$/);
    const [rs] = (await cluster.json(['get', 'replicasets', '-l', 'app=web'])).items;
    const hash = rs.metadata.labels['pod-template-hash'];
    expect(rs.metadata.name).to.equal(`web-${hash}`);
    expect(rs.metadata.annotations['deployment.kubernetes.io/revision']).to.equal('1');
    const running = await pods('web');
    expect(running).to.have.length(2);
    for (const p of running) {
      expect(p.metadata.ownerReferences![0]).to.include({ kind: 'ReplicaSet', name: rs.metadata.name });
      expect(await httpText(`http://${p.status.podIP}:8080/`)).to.equal(p.metadata.name);
    }
    const d = await cluster.json(['get', 'deployment', 'web']);
    expect(d.status).to.include({ replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2, observedGeneration: 1 });
  });

  it('scales with kubectl scale, up and down, and replaces a deleted pod', async () => {
    expect(await cluster.ok(['scale', 'deployment', 'web', '--replicas=3'])).to.contain('deployment.apps/web scaled');
    await cluster.ok(['rollout', 'status', 'deployment/web', '--timeout=30s']);
    expect(await livePods('web')).to.have.length(3);
    await cluster.ok(['scale', 'deployment', 'web', '--replicas=1']);
    await eventually(async () => (await pods('web')).length === 1, 20000);
    const [only] = await pods('web');
    await cluster.ok(['delete', 'pod', only.metadata.name, '--wait=false']);
    await eventually(
      async () => (await livePods('web')).some((p) => p.metadata.name !== only.metadata.name && p.status.phase === 'Running'),
      20000,
    );
    await cluster.ok(['rollout', 'status', 'deployment/web', '--timeout=30s']);
  });

  it('rolls out a new template to a new ReplicaSet, keeps history, and rolls back with kubectl rollout undo', async () => {
    await cluster.ok(['scale', 'deployment', 'web', '--replicas=2']);
    await cluster.ok(['set', 'env', 'deployment/web', 'VERSION=2']);
    await cluster.ok(['rollout', 'status', 'deployment/web', '--timeout=30s']);
    await eventually(async () => (await pods('web')).length === 2, 20000);
    for (const p of await pods('web')) expect(await httpText(`http://${p.status.podIP}:8080/env/VERSION`)).to.equal('2');
    const sets = (await cluster.json(['get', 'replicasets', '-l', 'app=web'])).items as {
      spec: { replicas: number };
      metadata: { annotations: Record<string, string> };
    }[];
    expect(sets.map((rs) => [rs.metadata.annotations['deployment.kubernetes.io/revision'], rs.spec.replicas]).sort()).to.deep.equal([
      ['1', 0],
      ['2', 2],
    ]);
    const history = await cluster.ok(['rollout', 'history', 'deployment/web']);
    expect(history).to.match(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    expect(await cluster.ok(['rollout', 'undo', 'deployment/web'])).to.contain('deployment.apps/web rolled back');
    await cluster.ok(['rollout', 'status', 'deployment/web', '--timeout=30s']);
    await eventually(async () => (await pods('web')).length === 2, 20000);
    for (const p of await pods('web')) expect(await httpText(`http://${p.status.podIP}:8080/env/VERSION`)).to.equal('');
    const d = await cluster.json(['get', 'deployment', 'web']);
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).to.equal('3');
    const described = await cluster.ok(['describe', 'deployment', 'web']);
    expect(described).to.match(/Replicas:\s+2 desired \| 2 updated \| 2 total \| 2 available \| 0 unavailable/);
    expect(described).to.match(/NewReplicaSet:\s+web-\w+ \(2\/2 replicas created\)/);
  });

  it("deletes a Deployment's ReplicaSets and pods with it", async () => {
    await cluster.ok(['delete', 'deployment', 'web']);
    await eventually(
      async () => (await pods('web')).length === 0 && (await cluster.json(['get', 'replicasets', '-l', 'app=web'])).items.length === 0,
      20000,
    );
  });
});
