// The test Kubernetes' cluster DNS: the records it serves (Services, pods under headless Services),
// and the hook that makes a pod's Node process resolve them, run in a real Node process.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { KubeObject } from '../src/apiserver/types.js';
import { clusterDnsVariable, dnsRecords } from '../src/dns/cluster-dns.js';
import { repoRoot } from '../src/kubelet/images.js';

const service = (name: string, spec: object): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'ns' }, spec }) as KubeObject;

function pod(
  name: string,
  options: {
    ready?: boolean;
    deleting?: boolean;
    hostname?: string;
    subdomain?: string;
    ip?: string;
    labels?: Record<string, string>;
  } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ns',
      labels: options.labels ?? { app: 'engine' },
      ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { subdomain: options.subdomain ?? 'nodes', ...(options.hostname ? { hostname: options.hostname } : {}) },
    status: { podIP: options.ip, conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }] },
  } as KubeObject;
}

describe("the test Kubernetes' cluster DNS", () => {
  it('names Services by their cluster IP, and the pods a headless Service selects under it (not-ready ones only with publishNotReadyAddresses)', () => {
    const services = [
      service('web', { clusterIP: '127.9.128.4', selector: { app: 'engine' } }),
      service('nodes', { clusterIP: 'None', selector: { app: 'engine' } }),
      service('all-nodes', { clusterIP: 'None', selector: { app: 'engine' }, publishNotReadyAddresses: true }),
    ];
    const pods = [
      pod('a', { ip: '127.9.0.2' }),
      pod('b', { ip: '127.9.0.3', ready: false }),
      pod('c', { ip: '127.9.0.4', deleting: true }),
      pod('d', { ip: '127.9.0.5', hostname: 'coordinator' }),
      pod('e'),
      pod('f', { ip: '127.9.0.6', labels: { app: 'other' } }),
      pod('g', { ip: '127.9.0.7', subdomain: 'all-nodes', ready: false }),
      pod('h', { ip: '127.9.0.8', subdomain: 'all-nodes', deleting: true }),
    ];
    expect(dnsRecords(services, pods)).to.deep.equal({
      'web.ns.svc': '127.9.128.4',
      'a.nodes.ns.svc': '127.9.0.2',
      'coordinator.nodes.ns.svc': '127.9.0.5',
      'g.all-nodes.ns.svc': '127.9.0.7',
      'h.all-nodes.ns.svc': '127.9.0.8',
    });
  });

  it("resolves .svc names from the file in a pod's Node process (fetch and node:http), refuses unknown ones, and leaves other names to the machine", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-dns-'));
    try {
      const file = path.join(dir, 'cluster-dns.json');
      fs.writeFileSync(file, JSON.stringify({ 'web.ns.svc': '127.0.0.1' }));
      const hook = pathToFileURL(path.join(repoRoot, 'e2e/dist/src/dns/lookup-hook.js')).href;
      const script = `
        const dns = require("node:dns");
        const server = require("node:http").createServer((q, r) => r.end("answered")).listen(0, "127.0.0.1", async () => {
          const port = server.address().port;
          const out = [];
          out.push(await (await fetch("http://web.ns.svc.cluster.local:" + port)).text());
          out.push(await new Promise((ok) => require("node:http").get("http://web.ns.svc:" + port, (res) => { let t = ""; res.on("data", (d) => (t += d)); res.on("end", () => ok(t)); })));
          out.push(await fetch("http://other.ns.svc:" + port).then(() => "reached", (e) => e.cause.code));
          out.push(await new Promise((ok) => dns.lookup("localhost", (e, a) => ok(a))));
          console.log(JSON.stringify(out));
          server.close();
        });`;
      const out = execFileSync(process.execPath, ['--import', hook, '-e', script], {
        env: { ...process.env, [clusterDnsVariable]: file },
        encoding: 'utf8',
      });
      expect(JSON.parse(out)).to.deep.equal(['answered', 'answered', 'ENOTFOUND', '127.0.0.1']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
