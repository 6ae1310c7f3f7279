import path from 'node:path';
import { expect } from 'chai';
import * as k8s from '@kubernetes/client-node';
import { TestCluster, eventually, fixtures } from './support/cluster.js';

interface Seen {
  type: string;
  name: string;
  data?: Record<string, string>;
}

/** The library an operator uses (@kubernetes/client-node), unchanged, against the test cluster. */
describe('@kubernetes/client-node against the test cluster', function () {
  this.timeout(60000);
  let cluster: TestCluster;
  let kc: k8s.KubeConfig;
  before(async () => {
    cluster = await TestCluster.startWithNode();
    kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    await cluster.ok(['apply', '-f', path.join(fixtures, 'widget-crd.yaml')]);
  });
  after(async () => cluster?.stop());

  it("lists, then watches from the list's resourceVersion, and sees its own merge patch", async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'before' }, data: { v: '0' } } });
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    expect(list.items.map((c) => c.metadata!.name)).to.include('before');
    const seen: Seen[] = [];
    const watch = new k8s.Watch(kc);
    const abort = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: list.metadata!.resourceVersion, allowWatchBookmarks: true },
      (type, obj: k8s.V1ConfigMap) => seen.push({ type, name: obj.metadata!.name!, data: obj.data }),
      () => undefined,
    );
    try {
      await cluster.ok(['create', '-f', '-'], "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: after}\ndata: {v: '1'}\n");
      const patched = await core.patchNamespacedConfigMap(
        { name: 'after', namespace: 'default', body: { data: { v: '2' } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
      expect(patched.data).to.deep.equal({ v: '2' });
      await core.deleteNamespacedConfigMap({ name: 'after', namespace: 'default' });
      await eventually(async () => seen.length >= 3);
      expect(seen).to.deep.equal([
        { type: 'ADDED', name: 'after', data: { v: '1' } },
        { type: 'MODIFIED', name: 'after', data: { v: '2' } },
        { type: 'DELETED', name: 'after', data: { v: '2' } },
      ]);
    } finally {
      abort.abort();
    }
  });

  it('answers a stale replace with a 409 ApiException', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const cm = await core.readNamespacedConfigMap({ name: 'before', namespace: 'default' });
    await core.replaceNamespacedConfigMap({ name: 'before', namespace: 'default', body: { ...cm, data: { v: '1' } } });
    let error: unknown;
    try {
      await core.replaceNamespacedConfigMap({ name: 'before', namespace: 'default', body: { ...cm, data: { v: 'stale' } } });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(k8s.ApiException);
    expect((error as k8s.ApiException<string>).code).to.equal(409);
    expect(JSON.parse((error as k8s.ApiException<string>).body).reason).to.equal('Conflict');
  });

  it('runs an informer on a custom resource and patches its status subresource', async () => {
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const informer = k8s.makeInformer(
      kc,
      '/apis/example.com/v1/namespaces/default/widgets',
      () =>
        custom.listNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets' }) as Promise<
          k8s.KubernetesListObject<k8s.KubernetesObject>
        >,
    );
    const events: string[] = [];
    informer.on('add', (obj) => events.push(`add ${obj.metadata!.name}`));
    informer.on('update', (obj) => events.push(`update ${obj.metadata!.name} ${JSON.stringify((obj as { status?: unknown }).status)}`));
    await informer.start();
    try {
      await custom.createNamespacedCustomObject({
        group: 'example.com',
        version: 'v1',
        namespace: 'default',
        plural: 'widgets',
        body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { color: 'blue' } },
      });
      await custom.patchNamespacedCustomObjectStatus(
        { group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets', name: 'w', body: { status: { replicas: 1 } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
      await eventually(async () => events.length >= 2);
      expect(events).to.deep.equal(['add w', 'update w {"replicas":1}']);
      expect(informer.get('w', 'default')?.metadata?.generation).to.equal(1);
    } finally {
      await informer.stop();
    }
  });

  it('scales a Deployment through the scale subresource and reads its status', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'sleepers' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'sleepers' } },
          template: {
            metadata: { labels: { app: 'sleepers' } },
            spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '600'] }] },
          },
        },
      },
    });
    await apps.patchNamespacedDeploymentScale({
      name: 'sleepers',
      namespace: 'default',
      body: [{ op: 'replace', path: '/spec/replicas', value: 2 }],
    });
    await eventually(
      async () => (await apps.readNamespacedDeploymentStatus({ name: 'sleepers', namespace: 'default' })).status?.availableReplicas === 2,
      20000,
    );
    const scale = await apps.readNamespacedDeploymentScale({ name: 'sleepers', namespace: 'default' });
    expect([scale.spec?.replicas, scale.status?.replicas, scale.status?.selector]).to.deep.equal([2, 2, 'app=sleepers']);
    await apps.deleteNamespacedDeployment({ name: 'sleepers', namespace: 'default' });
  });
});
