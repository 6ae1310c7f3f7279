import { expect } from 'chai';
import { TestCluster, eventually } from './support/cluster.js';
import { echoPod, echoServerConfig, httpText, service } from './support/echo.js';

interface Endpoints {
  subsets?: {
    addresses?: { ip: string; targetRef: { name: string } }[];
    notReadyAddresses?: { ip: string; targetRef: { name: string } }[];
    ports?: { port: number }[];
  }[];
}

describe('Services: loopback cluster IPs proxied to ready endpoints', function () {
  this.timeout(60000);
  let cluster: TestCluster;
  before(async () => {
    cluster = await TestCluster.startWithNode();
    await cluster.ok(['apply', '-f', '-'], echoServerConfig);
  });
  after(async () => cluster?.stop());

  /** Who answers `count` connections to the Service. */
  async function answers(url: string, count: number): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(await httpText(url));
    return out;
  }

  it('reaches only the ready pods behind a Service, in turn, and follows readiness changes', async () => {
    await cluster.ok(
      ['apply', '-f', '-'],
      [echoPod('echo-a', { app: 'echo' }), echoPod('echo-b', { app: 'echo' }, { READY: '0' }), service('echo', { app: 'echo' })].join(
        '---\n',
      ),
    );
    await cluster.ok(['wait', '--for=condition=Ready', 'pod/echo-a', '--timeout=20s']);
    const svc = await cluster.json(['get', 'service', 'echo']);
    const clusterIp: string = svc.spec.clusterIP;
    expect(cluster.local!.network.services.contains(clusterIp)).to.equal(true);
    const table = await cluster.ok(['get', 'service', 'echo']);
    expect(table.split('\n')[1]).to.match(
      new RegExp(`^echo\\s+ClusterIP\\s+${clusterIp.replace(/\./g, '\\.')}\\s+<none>\\s+80/TCP\\s+\\d+s$`),
    );
    await eventually(async () => {
      const ep: Endpoints = await cluster.json(['get', 'endpoints', 'echo']);
      return ep.subsets?.[0]?.addresses?.length === 1 && ep.subsets[0].notReadyAddresses?.length === 1;
    });
    const ep: Endpoints = await cluster.json(['get', 'endpoints', 'echo']);
    expect(ep.subsets![0].addresses![0].targetRef.name).to.equal('echo-a');
    expect(ep.subsets![0].notReadyAddresses![0].targetRef.name).to.equal('echo-b');
    expect(ep.subsets![0].ports).to.deep.equal([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const [slice] = (await cluster.json(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=echo'])).items;
    const conditions = Object.fromEntries(
      slice.endpoints.map((e: { targetRef: { name: string }; conditions: object }) => [e.targetRef.name, e.conditions]),
    );
    expect(conditions).to.deep.equal({
      'echo-a': { ready: true, serving: true, terminating: false },
      'echo-b': { ready: false, serving: false, terminating: false },
    });
    expect(await answers(`http://${clusterIp}/`, 4)).to.deep.equal(['echo-a', 'echo-a', 'echo-a', 'echo-a']);
    // echo-b turns ready: both answer, in turn.
    const b = await cluster.json(['get', 'pod', 'echo-b']);
    await httpText(`http://${b.status.podIP}:8080/toggle`);
    await cluster.ok(['wait', '--for=condition=Ready', 'pod/echo-b', '--timeout=20s']);
    await eventually(async () => new Set(await answers(`http://${clusterIp}/`, 2)).size === 2);
    expect(new Set(await answers(`http://${clusterIp}/`, 4))).to.deep.equal(new Set(['echo-a', 'echo-b']));
    // echo-a turns unready: only echo-b answers.
    const a = await cluster.json(['get', 'pod', 'echo-a']);
    await httpText(`http://${a.status.podIP}:8080/toggle`);
    await eventually(async () =>
      (await cluster.json(['get', 'pod', 'echo-a'])).status.conditions.some(
        (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'False',
      ),
    );
    await eventually(async () => (await cluster.json(['get', 'endpoints', 'echo'])).subsets[0].addresses.length === 1);
    expect(await answers(`http://${clusterIp}/`, 4)).to.deep.equal(['echo-b', 'echo-b', 'echo-b', 'echo-b']);
  });

  it('refuses connections when no endpoint is ready', async () => {
    await cluster.ok(['apply', '-f', '-'], service('nobody', { app: 'nobody' }));
    const ip = (await cluster.json(['get', 'service', 'nobody'])).spec.clusterIP;
    let failure: unknown;
    try {
      await httpText(`http://${ip}/`);
    } catch (err) {
      failure = err;
    }
    expect(failure).to.be.instanceOf(Error);
  });

  it("serves a NodePort on the node's address", async () => {
    await cluster.ok(['apply', '-f', '-'], service('echo-np', { app: 'echo' }).replace('spec:\n', 'spec:\n  type: NodePort\n'));
    const svc = await cluster.json(['get', 'service', 'echo-np']);
    const nodePort: number = svc.spec.ports[0].nodePort;
    expect(nodePort).to.be.within(30000, 32767);
    expect(await cluster.ok(['get', 'service', 'echo-np'])).to.contain(`80:${nodePort}/TCP`);
    const nodeIp = (await cluster.json(['get', 'node', 'kube-test-node'])).status.addresses.find(
      (a: { type: string }) => a.type === 'InternalIP',
    ).address;
    await eventually(async () => (await httpText(`http://${nodeIp}:${nodePort}/`).catch(() => '')) === 'echo-b');
  });

  it('rejects a requested cluster IP outside the service range', async () => {
    const r = await cluster.kubectl(
      ['apply', '-f', '-'],
      service('bad-ip', { app: 'echo' }).replace('spec:\n', 'spec:\n  clusterIP: 10.0.0.10\n'),
    );
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain(
      `The Service "bad-ip" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.10"]: failed to allocate IP 10.0.0.10: the provided IP (10.0.0.10) is not in the valid range. The range of valid IPs is ${cluster.local!.network.services.describe()}`,
    );
  });
});
