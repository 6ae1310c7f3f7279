import path from 'node:path';
import { expect } from 'chai';
import { TestCluster, eventually, fixtures } from './support/cluster.js';

const widget = (name: string, color = 'red') => `apiVersion: example.com/v1
kind: Widget
metadata: {name: ${name}}
spec: {color: ${color}}
`;

describe('the real kubectl against the API test server', function () {
  this.timeout(60000);
  let cluster: TestCluster;

  before(async () => {
    cluster = await TestCluster.start();
    await cluster.ok(['apply', '-f', path.join(fixtures, 'widget-crd.yaml')]);
  });
  after(async () => cluster?.stop());

  it("serves a CRD's kind: apply defaults from the schema, get prints additionalPrinterColumns", async () => {
    expect(await cluster.ok(['apply', '-f', '-'], widget('w1'))).to.contain('widget.example.com/w1 created');
    const table = await cluster.ok(['get', 'widgets']);
    expect(table.split('\n')[0].split(/\s+/)).to.deep.equal(['NAME', 'REPLICAS', 'COLOR', 'AGE']);
    expect(table.split('\n')[1]).to.match(/^w1\s+1\s+red\s+\d+s$/);
    const obj = await cluster.json(['get', 'widget', 'w1']);
    expect(obj.metadata.generation).to.equal(1);
    expect(obj.metadata.uid).to.match(/^[0-9a-f-]{36}$/);
    expect(obj.metadata.creationTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("rejects an object that breaks the schema with kubectl's Invalid message", async () => {
    const r = await cluster.kubectl(['apply', '-f', '-'], widget('bad', 'green'));
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain(`The Widget "bad" is invalid: spec.color: Unsupported value: "green": supported values: "red", "blue"`);
  });

  it('scales through the scale subresource and bumps generation', async () => {
    await cluster.ok(['apply', '-f', '-'], widget('w2'));
    expect(await cluster.ok(['scale', 'widget', 'w2', '--replicas=3'])).to.contain('widget.example.com/w2 scaled');
    const obj = await cluster.json(['get', 'widget', 'w2']);
    expect(obj.spec.replicas).to.equal(3);
    expect(obj.metadata.generation).to.equal(2);
  });

  it("round-trips apply's last-applied annotation and merges containers by name in a strategic patch", async () => {
    const deployment = (image: string, extraEnv: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: main
        image: ${image}
        env: [{name: A, value: "1"}${extraEnv}]
      - name: side
        image: side:1
`;
    await cluster.ok(['apply', '-f', '-'], deployment('main:1', ''));
    expect(await cluster.ok(['apply', '-f', '-'], deployment('main:2', ', {name: B, value: "2"}'))).to.contain(
      'deployment.apps/web configured',
    );
    let obj = await cluster.json(['get', 'deployment', 'web']);
    const [main, side] = obj.spec.template.spec.containers;
    expect([main.name, main.image, side.name]).to.deep.equal(['main', 'main:2', 'side']);
    expect(main.env).to.deep.equal([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
    expect(
      JSON.parse(obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec.template.spec.containers[0].image,
    ).to.equal('main:2');
    await cluster.ok([
      'patch',
      'deployment',
      'web',
      '-p',
      '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"side:2"}]}}}}',
    ]);
    obj = await cluster.json(['get', 'deployment', 'web']);
    expect(obj.spec.template.spec.containers.map((c: { image: string }) => c.image)).to.deep.equal(['main:2', 'side:2']);
    await cluster.ok(['patch', 'deployment', 'web', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":4}]']);
    await cluster.ok(['patch', 'deployment', 'web', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"front"}}}']);
    obj = await cluster.json(['get', 'deployment', 'web']);
    expect([obj.spec.replicas, obj.metadata.labels.tier]).to.deep.equal([4, 'front']);
  });

  it('answers a stale update with 409 Conflict', async () => {
    await cluster.ok(['create', '-f', '-'], "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: stale}\ndata: {v: '1'}\n");
    const old = await cluster.json(['get', 'configmap', 'stale']);
    await cluster.ok(['patch', 'configmap', 'stale', '--type=merge', '-p', '{"data":{"v":"2"}}']);
    old.data.v = '3';
    const r = await cluster.kubectl(['replace', '-f', '-'], JSON.stringify(old));
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain(
      'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect((await cluster.json(['get', 'configmap', 'stale'])).data.v).to.equal('2');
  });

  it("takes the protobuf bodies of kubectl's imperative create commands (configmap, secret, namespace)", async () => {
    expect(await cluster.ok(['create', 'namespace', 'imperative'])).to.contain('namespace/imperative created');
    await cluster.ok(['create', 'configmap', 'settings', '-n', 'imperative', '--from-literal=mode=fast', '--from-literal=size=3']);
    await cluster.ok(['create', 'secret', 'generic', 'creds', '-n', 'imperative', '--from-literal=password=s3cret']);
    const cm = await cluster.json(['get', 'configmap', 'settings', '-n', 'imperative']);
    expect(cm.data).to.deep.equal({ mode: 'fast', size: '3' });
    const secret = await cluster.json(['get', 'secret', 'creds', '-n', 'imperative']);
    expect([secret.type, Buffer.from(secret.data.password, 'base64').toString()]).to.deep.equal(['Opaque', 's3cret']);
  });

  it('prints NotFound as a real cluster does', async () => {
    const r = await cluster.kubectl(['get', 'configmap', 'nope']);
    expect(r.stderr.trim()).to.equal('Error from server (NotFound): configmaps "nope" not found');
  });

  it('describes a custom resource', async () => {
    const out = await cluster.ok(['describe', 'widget', 'w2']);
    expect(out).to.match(/Name:\s+w2/);
    expect(out).to.match(/Replicas:\s+3/);
  });

  it('cascades deletion to dependents (background), keeps them with --cascade=orphan', async () => {
    const make = async (name: string) =>
      JSON.parse(await cluster.ok(['create', '-o', 'json', '-f', '-'], `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\n`));
    const dependent = (name: string, ownerName: string, uid: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: ${ownerName}, uid: ${uid}}]\n`;
    const a = await make('owner-a');
    await cluster.ok(['create', '-f', '-'], dependent('dep-a', 'owner-a', a.metadata.uid));
    await cluster.ok(['delete', 'configmap', 'owner-a']);
    await eventually(async () => (await cluster.kubectl(['get', 'configmap', 'dep-a'])).code !== 0);
    const b = await make('owner-b');
    await cluster.ok(['create', '-f', '-'], dependent('dep-b', 'owner-b', b.metadata.uid));
    await cluster.ok(['delete', 'configmap', 'owner-b', '--cascade=orphan']);
    await eventually(async () => (await cluster.kubectl(['get', 'configmap', 'owner-b'])).code !== 0);
    const kept = await cluster.json(['get', 'configmap', 'dep-b']);
    expect(kept.metadata.ownerReferences ?? []).to.deep.equal([]);
  });

  it('holds an object with a finalizer until the finalizer is removed', async () => {
    await cluster.ok(['create', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, finalizers: [example.com/hold]}\n');
    await cluster.ok(['delete', 'configmap', 'held', '--wait=false']);
    const held = await cluster.json(['get', 'configmap', 'held']);
    expect(held.metadata.deletionTimestamp).to.be.a('string');
    await cluster.ok(['patch', 'configmap', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    expect((await cluster.kubectl(['get', 'configmap', 'held'])).code).to.not.equal(0);
  });
});
