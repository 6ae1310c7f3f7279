import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { containerArgv, lookupImage, repoRoot, type Image } from '../src/kubelet/images.js';
import { pathRewriter } from '../src/kubelet/volumes.js';
import { expand } from '../src/kubelet/env.js';
import { equalIgnoreHash, rollingParams, templateHash } from '../src/controllers/deployment-util.js';
import type { KubeObject } from '../src/apiserver/types.js';

function image(reference: string, root = repoRoot): Image {
  const found = lookupImage(reference, root);
  if ('error' in found) throw new Error(found.error);
  return found.image;
}

describe('process kubelet rules', () => {
  it("maps image names to this repository's programs, with command and args as a runtime applies them", () => {
    // Node programs run with the cluster DNS hook preloaded.
    const engineMain = [
      process.execPath,
      '--import',
      pathToFileURL(path.join(repoRoot, 'e2e/dist/src/dns/lookup-hook.js')).href,
      path.join(repoRoot, 'engine/dist/src/cli/main.js'),
    ];
    for (const ref of ['engine:latest', 'ghcr.io/x/engine:1.0', 'registry.local:5000/team/engine@sha256:abc'])
      expect(containerArgv(image(ref), undefined, undefined)).to.deep.equal([...engineMain, 'server']);
    expect(containerArgv(image('engine'), undefined, ['server', '--port', '8080'])).to.deep.equal([
      ...engineMain,
      'server',
      '--port',
      '8080',
    ]);
    expect(containerArgv(image('engine'), ['/usr/local/bin/engine', 'sql'], ['SELECT 1'])).to.deep.equal([
      ...engineMain,
      'sql',
      'SELECT 1',
    ]);
    expect(containerArgv(image('busybox:1.36'), ['sh', '-c'], ['echo hi'])).to.deep.equal(['sh', '-c', 'echo hi']);
    expect(image('engine').env('127.5.0.9')).to.deep.equal({ ENGINE_HTTP_HOST: '127.5.0.9' });
  });

  it('says why an image cannot run: the operator not built, an unknown image', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-no-operator-'));
    try {
      const operator = lookupImage('ghcr.io/x/engine-operator:0.1', empty);
      expect(operator).to.deep.equal({
        error: `the process kubelet runs this image as "node operator/dist/src/main.js", which does not exist in ${empty}: build it first (make build)`,
      });
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
    const unknown = lookupImage('nginx:1.27');
    expect('error' in unknown && unknown.error).to.contain(
      'failed to pull and unpack image "nginx:1.27": the process kubelet knows no such image',
    );
  });

  it("rewrites mount paths in arguments and files to the volumes' folders, whole path segments only", () => {
    const rewrite = pathRewriter([
      { mountPath: '/etc/engine/catalogs', hostPath: '/pods/u/volumes/catalogs' },
      { mountPath: '/etc/engine', hostPath: '/pods/u/volumes/config' },
    ]);
    expect(rewrite('/etc/engine/config.json')).to.equal('/pods/u/volumes/config/config.json');
    expect(rewrite('--config=/etc/engine/config.json')).to.equal('--config=/pods/u/volumes/config/config.json');
    expect(rewrite('/etc/engine/catalogs/tpch.json')).to.equal('/pods/u/volumes/catalogs/tpch.json');
    expect(rewrite('cat /etc/engine; ls /etc/engineering /opt/etc/engine')).to.equal(
      'cat /pods/u/volumes/config; ls /etc/engineering /opt/etc/engine',
    );
    expect(rewrite('{"dir": "file:///etc/engine/catalogs/", "other": "file:///opt/etc/engine"}')).to.equal(
      '{"dir": "file:///pods/u/volumes/catalogs/", "other": "file:///opt/etc/engine"}',
    );
  });

  it('expands $(VAR) as the kubelet does', () => {
    const env = { A: '1', B: 'two' };
    expect(expand('$(A)-$(B)-$(C)-$$(A)', env)).to.equal('1-two-$(C)-$(A)');
  });

  it('names a pod template by a hash that ignores key order, nulls and the hash label', () => {
    const a = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const b = {
      spec: { containers: [{ image: 'i', name: 'c' }] },
      metadata: { creationTimestamp: null, labels: { app: 'x', 'pod-template-hash': 'abc' } },
    };
    expect(equalIgnoreHash(a, b)).to.equal(true);
    expect(templateHash(a)).to.match(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(templateHash(a)).to.equal(templateHash({ spec: a.spec, metadata: a.metadata }));
    expect(templateHash(a)).to.not.equal(templateHash(a, 1));
  });

  it('resolves maxSurge and maxUnavailable as the Deployment controller does', () => {
    const d = (replicas: number, rollingUpdate?: object, type?: string) =>
      ({ spec: { replicas, strategy: { type, rollingUpdate } } }) as unknown as KubeObject;
    expect(rollingParams(d(4))).to.deep.equal({ maxSurge: 1, maxUnavailable: 1 });
    expect(rollingParams(d(3))).to.deep.equal({ maxSurge: 1, maxUnavailable: 0 });
    expect(rollingParams(d(10, { maxSurge: '50%', maxUnavailable: 2 }))).to.deep.equal({ maxSurge: 5, maxUnavailable: 2 });
    expect(rollingParams(d(5, { maxSurge: 0, maxUnavailable: 0 }))).to.deep.equal({ maxSurge: 0, maxUnavailable: 1 });
  });
});
