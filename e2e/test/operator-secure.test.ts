// examples/secure.yaml end to end on the test Kubernetes, applied as it is: an EngineCluster with TLS
// from a Secret (a CA and a certificate for the example's DNS names, made by the test with openssl
// as cert-manager would), password authentication from a Secret and access rules from a ConfigMap;
// the pods are named under the headless Service the operator makes (the test Kubernetes' cluster
// DNS serves those names to the pods). trino-client with BasicAuth and the CA runs TPC-H through the
// coordinator's Service over HTTPS; a wrong password gets 401; the rules hold; a changed password
// Secret reaches every node without a restart; the operator (over HTTPS, with the cluster's CA and
// its internal token) scales the workers in through the drain, and a deleted worker's preStop drain
// runs over HTTPS, while queries run: none fails. Then a cluster with nodeAddresses: PodIP (a
// certificate naming IP addresses) and JWTs (an HMAC key from a Secret) beside the passwords.
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { BasicAuth } from 'trino-client';
import { repoRoot } from '../src/kubelet/images.js';
import { makeTlsSecretFiles, writePbkdf2PasswordFile } from './support/cluster-certificates.js';
import { TestCluster, assertNoStrayProcesses, eventually } from './support/cluster.js';
import { engineClusters } from './support/engine-clusters.js';
import { PodHistory } from './support/pod-history.js';
import { referenceQueries, type ReferenceQuery } from './support/tpch-reference.js';
import { expectAnswer, queryLoad, runQuery, type ClientSecurity } from './support/trino-queries.js';

const chart = path.join(repoRoot, 'charts', 'engine');
const example = path.join(repoRoot, 'examples', 'secure.yaml');
const users = { alice: "alice's long password 7f3e", admin: "the admin's password c1d2" };

/** IP SAN entries 127.N.A.1 - 127.N.A.254 for each A of `blocks`. */
function ipNames(subnet: number, blocks: number[]): string[] {
  return blocks.flatMap((a) => Array.from({ length: 254 }, (_, i) => `IP:127.${subnet}.${a}.${i + 1}`));
}

/** A JWT signed with HS256 (RFC 7515), made here rather than by the engine. */
function hs256(key: Buffer, claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${signed}.${createHmac('sha256', key).update(signed).digest('base64url')}`;
}

/** The test process has no cluster DNS: it connects to an IP and checks the certificate for this name. */
interface Tls {
  ca: string;
  servername?: string;
}

/** A request with these headers: the status, the WWW-Authenticate header and the body. */
function call(
  url: string,
  method: string,
  tls: Tls,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; challenge?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, ...tls, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, challenge: res.headers['www-authenticate'], body }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const postStatement = (server: string, tls: Tls, headers: Record<string, string>) =>
  call(`${server}/v1/statement`, 'POST', tls, { 'X-Trino-User': 'alice', ...headers }, 'SELECT 1');

/** trino-client's ssl options (an https.Agent's: servername included). */
const clientTls = (tls: Tls) => tls as ClientSecurity['ssl'];

function tlsSecretArgs(name: string, dir: string): string[] {
  return ['create', 'secret', 'generic', name, ...['tls.crt', 'tls.key', 'ca.crt'].map((f) => `--from-file=${f}=${path.join(dir, f)}`)];
}

function connectError(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
  });
}

describe('the operator runs examples/secure.yaml: TLS, passwords and access rules', function () {
  this.timeout(120_000);
  let cluster: TestCluster;
  let queries: ReferenceQuery[];
  let pods: PodHistory;
  let server: string;
  let tls: Tls;
  let alice: ClientSecurity;

  const { workerPods, steady, events } = engineClusters(() => cluster, 'secure');

  before(async () => {
    queries = referenceQueries();
    cluster = await TestCluster.startWithNode();
  });
  // E2E_DIAGNOSE=1: after a failed test, the cluster's status, pods and their last log lines.
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || process.env.E2E_DIAGNOSE !== '1') return;
    console.log(JSON.stringify((await cluster.json(['get', 'enginecluster', 'secure'])).status, null, 1));
    console.log(await cluster.ok(['get', 'pods', '-o', 'wide']));
    for (const p of (await cluster.json(['get', 'pods'])).items)
      console.log(p.metadata.name, (await cluster.kubectl(['logs', p.metadata.name, '--tail=15'])).stdout);
  });
  after(async () => {
    pods?.stop();
    await cluster?.stop();
  });

  it('starts from the example with the Secrets a user makes: Available, every pod serving HTTPS only, named under the headless Service', async () => {
    await cluster.helm([
      'install',
      'engine',
      chart,
      '--set',
      'operator.leaderElection.leaseDurationSeconds=3',
      '--wait',
      '--timeout',
      '60s',
    ]);
    // The names of the example's cert-manager Certificate, for the namespace "default".
    const files = makeTlsSecretFiles(path.join(cluster.dir, 'tls'), [
      'DNS:secure.default.svc',
      'DNS:secure.default.svc.cluster.local',
      'DNS:*.secure-nodes.default.svc',
    ]);
    await cluster.ok(tlsSecretArgs('secure-tls', files.dir));
    const passwords = path.join(cluster.dir, 'password.db');
    writePbkdf2PasswordFile(passwords, users);
    await cluster.ok(['create', 'secret', 'generic', 'secure-passwords', `--from-file=password.db=${passwords}`]);

    pods = await PodHistory.start(cluster.kubeconfigPath, 'default', 'app.kubernetes.io/managed-by=engine-operator');
    await cluster.ok(['apply', '-f', example]);
    await cluster.ok(['wait', '--for=condition=Available', 'enginecluster/secure', '--timeout=90s']);
    await steady(2);

    const svc = await cluster.json(['get', 'service', 'secure']);
    expect(svc.spec.ports).to.deep.equal([{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }]);
    server = `https://${svc.spec.clusterIP}:8443`;
    tls = { ca: files.ca, servername: 'secure.default.svc' };
    expect((await cluster.json(['get', 'enginecluster', 'secure'])).status.coordinatorURL).to.equal('https://secure.default.svc:8443');
    expect((await cluster.json(['get', 'service', 'secure-nodes'])).spec).to.include({ clusterIP: 'None', publishNotReadyAddresses: true });
    const all = (await cluster.json(['get', 'pods', '-l', 'engine.io/cluster=secure'])).items;
    expect(all).to.have.length(3);
    for (const pod of all) {
      expect(pod.spec.containers[0].readinessProbe.httpGet).to.include({ port: 'https', scheme: 'HTTPS', path: '/v1/info' });
      expect(await connectError(pod.status.podIP, 8080), `${pod.metadata.name}: the plain HTTP port is closed`).to.equal('ECONNREFUSED');
    }
    alice = { auth: new BasicAuth('alice', users.alice), ssl: clientTls(tls) };
  });

  it("answers TPC-H to trino-client with BasicAuth and the CA through the coordinator's Service, as the reference says", async () => {
    for (const q of queries) await expectAnswer(server, q, alice);
    // The nodes announce their DNS names under the headless Service, and reach each other by them.
    const nodes = await runQuery(server, 'SELECT node_id, http_uri, state FROM system.runtime.nodes ORDER BY coordinator, node_id', alice);
    const [coordinator] = (
      await cluster.json(['get', 'pods', '-l', 'engine.io/cluster=secure,app.kubernetes.io/component=coordinator'])
    ).items.map((p: { metadata: { name: string } }) => p.metadata.name);
    expect(nodes).to.deep.equal({
      rows: [
        ...(await workerPods()).map((p) => [p, `https://${p}.secure-nodes.default.svc:8443`, 'active']),
        [coordinator, 'https://coordinator.secure-nodes.default.svc:8443', 'active'],
      ],
    });
  });

  it('refuses a wrong password, an unknown user and no credentials with 401, and a client that does not trust the CA', async () => {
    for (const [what, headers] of [
      ['wrong password', { Authorization: `Basic ${Buffer.from('alice:not her password').toString('base64')}` }],
      ['unknown user', { Authorization: `Basic ${Buffer.from('mallory:whatever').toString('base64')}` }],
      ['no credentials', {}],
    ] as const) {
      const answer = await postStatement(server, tls, headers);
      expect(answer.status, what).to.equal(401);
      expect(answer.challenge, what).to.contain('Basic realm="Engine"');
      expect(JSON.parse(answer.body).error.errorName, what).to.equal('AUTHENTICATION_FAILED');
    }
    const wrong = await runQuery(server, 'SELECT 1', { auth: new BasicAuth('alice', 'not her password'), ssl: clientTls(tls) });
    expect(wrong).to.have.property('error').that.matches(/401/);
    const untrusting = await runQuery(server, 'SELECT 1', {
      auth: new BasicAuth('alice', users.alice),
      ssl: clientTls({ ca: '', servername: tls.servername }),
    });
    expect(untrusting)
      .to.have.property('error')
      .that.matches(/self-signed certificate|unable to verify|certificate/i);
  });

  it("applies the rules of the example's ConfigMap: alice reads tpch and system only, admin everything", async () => {
    expect(await runQuery(server, 'SHOW CATALOGS', alice)).to.deep.equal({ rows: [['system'], ['tpch']] });
    const denied = await runQuery(server, 'SELECT count(*) FROM memory.information_schema.tables', alice);
    expect(denied)
      .to.have.property('error')
      .that.matches(/^PERMISSION_DENIED: Access Denied/);
    const admin = { auth: new BasicAuth('admin', users.admin), ssl: clientTls(tls) };
    expect(await runQuery(server, 'SHOW CATALOGS', admin)).to.deep.equal({ rows: [['memory'], ['system'], ['tpch']] });
  });

  it('takes a changed password Secret on every node without restarting a pod: the new password works, the old one gets 401', async () => {
    const before = (await cluster.json(['get', 'pods', '-l', 'engine.io/cluster=secure'])).items
      .map((p: { metadata: { uid: string } }) => p.metadata.uid)
      .sort();
    const changed = { ...users, alice: "alice's new password 9b1c" };
    const passwords = path.join(cluster.dir, 'password-2.db');
    writePbkdf2PasswordFile(passwords, changed);
    const secret = await cluster.json([
      'create',
      'secret',
      'generic',
      'secure-passwords',
      `--from-file=password.db=${passwords}`,
      '--dry-run=client',
      '-o',
      'json',
    ]);
    await cluster.ok(['apply', '-f', '-'], JSON.stringify(secret));
    const renewed: ClientSecurity = { auth: new BasicAuth('alice', changed.alice), ssl: clientTls(tls) };
    // Every node checks passwords (a query's tasks reach workers with the internal token): ask each node's /metrics.
    const nodes = (await cluster.json(['get', 'pods', '-l', 'engine.io/cluster=secure'])).items.map(
      (p: { metadata: { name: string }; spec: { hostname?: string }; status: { podIP: string } }) => ({
        url: `https://${p.status.podIP}:8443/metrics`,
        tls: { ca: tls.ca, servername: `${p.spec.hostname ?? p.metadata.name}.secure-nodes.default.svc` },
      }),
    );
    const basicFor = (password: string) => ({ Authorization: `Basic ${Buffer.from(`alice:${password}`).toString('base64')}` });
    await eventually(async () => {
      for (const node of nodes) if ((await call(node.url, 'GET', node.tls, basicFor(changed.alice))).status !== 200) return false;
      return true;
    }, 90_000);
    for (const node of nodes) expect((await call(node.url, 'GET', node.tls, basicFor(users.alice))).status, node.url).to.equal(401);
    expect(await runQuery(server, 'SELECT count(*) FROM tpch.tiny.nation', renewed)).to.deep.equal({ rows: [[25]] });
    const after = (await cluster.json(['get', 'pods', '-l', 'engine.io/cluster=secure'])).items;
    expect(after.map((p: { metadata: { uid: string } }) => p.metadata.uid).sort()).to.deep.equal(before);
    for (const p of after) expect(p.status.containerStatuses[0].restartCount, p.metadata.name).to.equal(0);
    alice = renewed;
  });

  it('scales 2 -> 3 -> 1 under authenticated load: the operator drains over HTTPS, no query fails', async () => {
    const load = queryLoad(server, queries, 4, alice);
    await new Promise((r) => setTimeout(r, 1000));
    await cluster.ok(['scale', 'enginecluster/secure', '--replicas=3']);
    await steady(3, 'secure', 90_000);
    const three = await workerPods();
    await cluster.ok(['scale', 'enginecluster/secure', '--replicas=1']);
    await steady(1, 'secure', 90_000);
    const report = await load.stop();
    console.log(`      scale 2 -> 3 -> 1 with TLS and passwords: ${report.run} queries, ${report.failures.length} failed`);
    expect(report.failures).to.deep.equal([]);
    expect(report.run).to.be.greaterThan(10);
    const removed = three.filter((p) => pods.deleted().includes(p));
    expect(removed).to.have.length(2);
    for (const name of removed) {
      const deleting = pods.atDeletion(name)!;
      expect(JSON.parse(deleting.metadata!.annotations!['engine.io/drain']).phase, name).to.equal('ShuttingDown');
      expect(deleting.status!.containerStatuses![0].state!.terminated!.exitCode, `${name} had exited 0 before it was deleted`).to.equal(0);
    }
    expect((await events('WorkerRemoved')).filter((m) => /drained, its node reached SHUTTING_DOWN and exited/.test(m))).to.have.length(2);
  });

  it('drains a worker deleted with kubectl delete pod through its preStop hook over HTTPS, and replaces it: no query fails', async () => {
    const load = queryLoad(server, queries, 2, alice);
    await new Promise((r) => setTimeout(r, 1500));
    const [victim] = await workerPods();
    await cluster.ok(['delete', 'pod', victim, '--wait=false']);
    await eventually(async () => !(await workerPods()).includes(victim) && pods.deleted().includes(victim), 60_000);
    await steady(1);
    const report = await load.stop();
    console.log(`      kubectl delete pod with TLS and passwords: ${report.run} queries, ${report.failures.length} failed`);
    expect(report.failures).to.deep.equal([]);
    const reasons = (await cluster.json(['get', 'events', '--field-selector', `involvedObject.name=${victim}`])).items.map(
      (e: { reason: string }) => e.reason,
    );
    expect(reasons, 'the kubelet ran the preStop drain without failing').to.not.include('FailedPreStopHook');
    const final = pods.versions.get(victim)!.at(-1)!.pod;
    expect(final.status!.containerStatuses![0].state!.terminated!.exitCode, 'the node exited by itself after the drain').to.equal(0);
  });

  it('runs with nodeAddresses PodIP and a certificate naming IP addresses, and JWTs beside passwords: queries, and a scale-in through the drain, none failing', async () => {
    // Pod IPs come from 127.N.0.0/17 and Service IPs from 127.N.128.0/17, handed out in turn.
    const subnet = cluster.local!.network.subnet;
    const files = makeTlsSecretFiles(path.join(cluster.dir, 'tls-ip'), ipNames(subnet, [0, 1, 128]));
    await cluster.ok(tlsSecretArgs('by-ip-tls', files.dir));
    const hmacKey = randomBytes(32);
    const keyFile = path.join(cluster.dir, 'hmac.key');
    fs.writeFileSync(keyFile, hmacKey.toString('base64'));
    await cluster.ok(['create', 'secret', 'generic', 'by-ip-jwt', `--from-file=hmac.key=${keyFile}`]);
    const byIp = `apiVersion: engine.io/v1alpha1
kind: EngineCluster
metadata: {name: by-ip}
spec:
  coordinator: {service: {port: 8443}}
  workers: {replicas: 2}
  security:
    tls: {secretName: by-ip-tls, nodeAddresses: PodIP}
    authentication:
      password: {name: secure-passwords}
      jwt: {keySecret: {name: by-ip-jwt, key: hmac.key}, requiredIssuer: https://issuer.test, requiredAudience: engine}
`;
    await cluster.ok(['apply', '-f', '-'], byIp);
    await steady(2, 'by-ip', 90_000);
    const svc = await cluster.json(['get', 'service', 'by-ip']);
    const ipServer = `https://${svc.spec.clusterIP}:8443`;
    const ipAlice = { auth: alice.auth, ssl: clientTls({ ca: files.ca }) };
    const uris = await runQuery(ipServer, 'SELECT http_uri FROM system.runtime.nodes WHERE coordinator = false ORDER BY 1', ipAlice);
    const workerIps = (await cluster.json(['get', 'pods', '-l', 'engine.io/cluster=by-ip,app.kubernetes.io/component=worker'])).items.map(
      (p: { status: { podIP: string } }) => `https://${p.status.podIP}:8443`,
    );
    expect(uris).to.deep.equal({ rows: workerIps.sort().map((u: string) => [u]) });
    const now = Math.floor(Date.now() / 1000);
    const bearer = (claims: object) => ({ ssl: ipAlice.ssl, extraHeaders: { Authorization: `Bearer ${hs256(hmacKey, claims)}` } });
    expect(
      await runQuery(ipServer, 'SELECT current_user', bearer({ sub: 'bob', iss: 'https://issuer.test', aud: 'engine', exp: now + 300 })),
    ).to.deep.equal({ rows: [['bob']] });
    expect(
      await runQuery(ipServer, 'SELECT current_user', bearer({ sub: 'bob', iss: 'https://issuer.test', aud: 'another', exp: now + 300 })),
    )
      .to.have.property('error')
      .that.matches(/401/);
    const load = queryLoad(ipServer, queries, 2, ipAlice);
    await new Promise((r) => setTimeout(r, 1000));
    await cluster.ok(['scale', 'enginecluster/by-ip', '--replicas=1']);
    await steady(1, 'by-ip', 90_000);
    const report = await load.stop();
    console.log(`      scale 2 -> 1 with PodIP addresses: ${report.run} queries, ${report.failures.length} failed`);
    expect(report.failures).to.deep.equal([]);
    expect(report.run).to.be.greaterThan(2);
  });

  it('kubectl delete enginecluster removes every object and process it made', async () => {
    await cluster.ok(['delete', 'enginecluster', 'secure', 'by-ip', '--timeout=60s']);
    await eventually(
      async () =>
        (await cluster.json(['get', 'pods,services,configmaps,deployments', '-l', 'app.kubernetes.io/managed-by=engine-operator'])).items
          .length === 0,
      60_000,
    );
    await cluster.helm(['uninstall', 'engine', '--wait', '--timeout', '60s']);
    await eventually(async () => (await cluster.json(['get', 'pods'])).items.length === 0, 30_000);
    assertNoStrayProcesses();
  });
});
