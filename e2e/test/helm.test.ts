import path from 'node:path';
import { expect } from 'chai';
import { TestCluster, eventually, fixtures } from './support/cluster.js';
import { httpText } from './support/echo.js';

const chart = path.join(fixtures, 'charts', 'greeter');

describe('the real helm against the test cluster', function () {
  this.timeout(90000);
  let cluster: TestCluster;
  before(async () => (cluster = await TestCluster.startWithNode()));
  after(async () => cluster?.stop());

  const serviceUrl = async () => {
    const svc = await cluster.json(['get', 'service', 'demo']);
    return `http://${svc.spec.clusterIP}:${svc.spec.ports[0].port}/`;
  };

  it('installs a chart with a CRD, a Deployment and a Service, and waits for them', async () => {
    const out = await cluster.helm(['install', 'demo', chart, '--wait', '--timeout', '60s']);
    expect(out).to.match(/STATUS: deployed/);
    expect(out).to.match(/REVISION: 1/);
    const crd = await cluster.json(['get', 'crd', 'greetings.example.com']);
    expect(crd.status.conditions.find((c: { type: string }) => c.type === 'Established').status).to.equal('True');
    expect((await cluster.ok(['get', 'greetings'])).split('\n')[1]).to.match(/^demo\s+hello$/);
    const d = await cluster.json(['get', 'deployment', 'demo']);
    expect(d.status.readyReplicas).to.equal(1);
    expect(d.metadata.labels['app.kubernetes.io/managed-by']).to.equal('Helm');
    expect(d.metadata.annotations['meta.helm.sh/release-name']).to.equal('demo');
    expect(await httpText(await serviceUrl())).to.match(/^hello from demo-\w+-\w+$/);
    const list = await cluster.helm(['list', '-o', 'json']);
    expect(JSON.parse(list).map((r: { name: string; status: string; revision: string }) => [r.name, r.status, r.revision])).to.deep.equal([
      ['demo', 'deployed', '1'],
    ]);
  });

  it('upgrades the release: a rolling update of the Deployment, the custom resource patched', async () => {
    const out = await cluster.helm(['upgrade', 'demo', chart, '--set', 'replicas=2,message=bonjour', '--wait', '--timeout', '60s']);
    expect(out).to.match(/REVISION: 2/);
    await cluster.ok(['rollout', 'status', 'deployment/demo', '--timeout=30s']);
    await eventually(async () => (await cluster.json(['get', 'pods', '-l', 'app.kubernetes.io/instance=demo'])).items.length === 2, 20000);
    const url = await serviceUrl();
    for (let i = 0; i < 4; i++) expect(await httpText(url)).to.match(/^bonjour from demo-\w+-\w+$/);
    expect((await cluster.ok(['get', 'greeting', 'demo'])).split('\n')[1]).to.match(/^demo\s+bonjour$/);
    const history = JSON.parse(await cluster.helm(['history', 'demo', '-o', 'json'])) as { revision: number; status: string }[];
    expect(history.map((h) => [h.revision, h.status])).to.deep.equal([
      [1, 'superseded'],
      [2, 'deployed'],
    ]);
  });

  it('uninstalls the release: its objects go, the CRD stays (as helm keeps CRDs)', async () => {
    expect(await cluster.helm(['uninstall', 'demo', '--wait', '--timeout', '60s'])).to.contain('release "demo" uninstalled');
    await eventually(async () => (await cluster.json(['get', 'pods', '-l', 'app.kubernetes.io/instance=demo'])).items.length === 0, 20000);
    for (const kind of ['deployment', 'service', 'configmap/demo-code', 'greeting']) {
      const args = kind.includes('/') ? ['get', kind] : ['get', kind, 'demo'];
      expect((await cluster.kubectl(args)).code, kind).to.not.equal(0);
    }
    expect((await cluster.json(['get', 'secrets', '-l', 'owner=helm'])).items).to.deep.equal([]);
    await cluster.ok(['get', 'crd', 'greetings.example.com']);
  });
});
