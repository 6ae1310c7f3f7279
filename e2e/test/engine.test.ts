import { expect } from 'chai';
import { TestCluster } from './support/cluster.js';

const engine = `apiVersion: v1
kind: ConfigMap
metadata: {name: engine-config}
data:
  config.json: '{"node": {"environment": "kube_test"}}'
---
apiVersion: v1
kind: Pod
metadata: {name: engine, labels: {app: engine}}
spec:
  terminationGracePeriodSeconds: 10
  containers:
  - name: engine
    image: ghcr.io/example/engine:1.0
    args: [server, --config, /etc/engine/config.json, --port, "8080"]
    ports: [{name: http, containerPort: 8080}]
    readinessProbe: {httpGet: {path: /v1/info, port: http}, periodSeconds: 1}
    volumeMounts: [{name: config, mountPath: /etc/engine}]
  volumes: [{name: config, configMap: {name: engine-config}}]
---
apiVersion: v1
kind: Service
metadata: {name: engine}
spec:
  selector: {app: engine}
  ports: [{name: http, port: 8080, targetPort: http}]
`;

interface StatementResponse {
  nextUri?: string;
  data?: unknown[][];
  columns?: { name: string }[];
  error?: { message: string };
}

/** Trino's client protocol: POST /v1/statement, then follow nextUri until there is none. */
async function query(base: string, sql: string): Promise<unknown[][]> {
  let res = (await (
    await fetch(`${base}/v1/statement`, { method: 'POST', body: sql, headers: { 'X-Trino-User': 'e2e' } })
  ).json()) as StatementResponse;
  const rows: unknown[][] = [...(res.data ?? [])];
  while (res.nextUri) {
    res = (await (await fetch(res.nextUri)).json()) as StatementResponse;
    if (res.error) throw new Error(res.error.message);
    rows.push(...(res.data ?? []));
  }
  return rows;
}

describe('the engine image on the process kubelet', function () {
  this.timeout(60000);
  let cluster: TestCluster;
  before(async () => (cluster = await TestCluster.startWithNode()));
  after(async () => cluster?.stop());

  it('becomes Ready by an httpGet probe on /v1/info and answers SQL through its Service', async () => {
    await cluster.ok(['apply', '-f', '-'], engine);
    await cluster.ok(['wait', '--for=condition=Ready', 'pod/engine', '--timeout=30s']);
    const pod = await cluster.json(['get', 'pod', 'engine']);
    // The engine binds its pod's IP, and read the mounted configuration file.
    const info = (await (await fetch(`http://${pod.status.podIP}:8080/v1/info`)).json()) as { environment: string; coordinator: boolean };
    expect(info).to.include({ environment: 'kube_test', coordinator: true });
    const svc = await cluster.json(['get', 'service', 'engine']);
    expect(await query(`http://${svc.spec.clusterIP}:8080`, "SELECT 1 + 1, 'kube'")).to.deep.equal([[2, 'kube']]);
    expect(await cluster.ok(['logs', 'engine'])).to.contain('"msg":"query completed"');
  });

  it('stops the engine gracefully on deletion', async () => {
    await cluster.ok(['delete', 'pod', 'engine', '--timeout=30s']);
    expect((await cluster.kubectl(['get', 'pod', 'engine'])).code).to.not.equal(0);
  });
});
