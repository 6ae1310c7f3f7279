import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import YAML from 'yaml';
import { specProblems, withDefaults } from '../src/api/spec-defaults.js';
import { securityRequiredKeys } from '../src/api/security.js';
import { missingKeys } from '../src/controller/secret-check.js';
import { podView } from '../src/controller/worker-view.js';
import { coordinatorDeployment, coordinatorService } from '../src/resources/coordinator.js';
import { coordinatorUri, nodesService } from '../src/resources/node-addresses.js';
import { workerTemplate } from '../src/resources/worker-pod.js';
import { engineCluster } from './support/cluster.js';
import { clusterValidator, repoRoot } from './support/crd-schema.js';

const secure = {
  coordinator: { service: { port: 8443 } },
  security: {
    tls: { secretName: 'demo-tls' },
    authentication: {
      password: { name: 'demo-passwords' },
      jwt: { keySecret: { name: 'demo-jwt', key: 'public.pem' }, requiredIssuer: 'https://issuer.test', requiredAudience: 'engine' },
    },
    accessControl: { rulesConfigMap: { name: 'demo-rules' }, refreshPeriod: '10s' },
  },
};

const envOf = (c: { env?: { name: string; value?: string; valueFrom?: unknown }[] }) =>
  Object.fromEntries(c.env!.map((e) => [e.name, e.value ?? e.valueFrom]));

describe('spec.security in what the operator makes', () => {
  const validate = clusterValidator();

  it("applies the CRD's defaults, as the API server does", () => {
    for (const spec of [secure, { security: { tls: { secretName: 't', nodeAddresses: 'PodIP' } } }, { security: {} }]) {
      const obj = { apiVersion: 'engine.io/v1alpha1', kind: 'EngineCluster', spec: structuredClone(spec) };
      expect(validate(obj), JSON.stringify(validate.errors)).to.equal(true);
      expect(obj.spec, JSON.stringify(spec)).to.deep.equal(withDefaults(spec));
    }
    expect(withDefaults(secure).security).to.deep.equal({
      tls: { secretName: 'demo-tls', nodeAddresses: 'PodDNS' },
      authentication: {
        password: { name: 'demo-passwords', key: 'password.db' },
        jwt: { keySecret: { name: 'demo-jwt', key: 'public.pem' }, requiredIssuer: 'https://issuer.test', requiredAudience: 'engine' },
      },
      accessControl: { rulesConfigMap: { name: 'demo-rules', key: 'rules.json' }, refreshPeriod: '10s' },
    });
    const refused = {
      apiVersion: 'engine.io/v1alpha1',
      kind: 'EngineCluster',
      spec: { security: { tls: { secretName: 't', nodeAddresses: 'Hostname' }, accessControl: { refreshPeriod: 'soon' } } },
    };
    expect(validate(refused)).to.equal(false);
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ');
    expect(errors).to.match(/\/spec\/security\/tls\/nodeAddresses must be equal to one of the allowed values/);
    expect(errors).to.match(/\/spec\/security\/accessControl must have required property 'rulesConfigMap'/);
  });

  it("mounts the TLS Secret, the password file, the JWT key and the rules file read-only, and sets the engine's settings on every node", () => {
    const cluster = engineCluster(secure);
    const worker = workerTemplate(cluster, 'https://demo.ns.svc:8443', 'c1').pod.spec!;
    const coordinator = coordinatorDeployment(cluster, 'c1').spec!.template.spec!;
    for (const [role, spec] of [
      ['worker', worker],
      ['coordinator', coordinator],
    ] as const) {
      const c = spec.containers[0];
      const env = envOf(c);
      expect(env, role).to.deep.include({
        ENGINE_HTTP_HTTPS_ENABLED: 'true',
        ENGINE_HTTP_HTTPS_PORT: '8443',
        ENGINE_HTTP_HTTPS_CERTIFICATE_FILE: '/etc/engine-tls/tls.crt',
        ENGINE_HTTP_HTTPS_KEY_FILE: '/etc/engine-tls/tls.key',
        ENGINE_INTERNAL_COMMUNICATION_CA_FILE: '/etc/engine-tls/ca.crt',
        ENGINE_AUTHENTICATION_TYPES: 'PASSWORD,JWT',
        ENGINE_AUTHENTICATION_PASSWORD_FILE: '/etc/engine-auth/password/password.db',
        ENGINE_AUTHENTICATION_JWT_KEY_FILE: '/etc/engine-auth/jwt/jwt-key',
        ENGINE_AUTHENTICATION_JWT_REQUIRED_ISSUER: 'https://issuer.test',
        ENGINE_AUTHENTICATION_JWT_REQUIRED_AUDIENCE: 'engine',
        ENGINE_SECURITY_RULES_FILE: '/etc/engine-rules/rules.json',
        ENGINE_SECURITY_RULES_REFRESH_PERIOD: '10s',
        ENGINE_SHARED_SECRET: { secretKeyRef: { name: 'demo-internal', key: 'shared-secret' } },
      });
      expect(spec.volumes!.slice(1), role).to.deep.equal([
        { name: 'engine-tls', secret: { secretName: 'demo-tls', defaultMode: 0o440 } },
        {
          name: 'engine-password',
          secret: { secretName: 'demo-passwords', defaultMode: 0o440, items: [{ key: 'password.db', path: 'password.db' }] },
        },
        { name: 'engine-jwt-key', secret: { secretName: 'demo-jwt', defaultMode: 0o440, items: [{ key: 'public.pem', path: 'jwt-key' }] } },
        { name: 'engine-rules', configMap: { name: 'demo-rules', items: [{ key: 'rules.json', path: 'rules.json' }] } },
      ]);
      expect(
        c.volumeMounts!.map((m) => [m.name, m.mountPath, m.readOnly]),
        role,
      ).to.deep.equal([
        ['config', '/etc/engine', true],
        ['engine-tls', '/etc/engine-tls', true],
        ['engine-password', '/etc/engine-auth/password', true],
        ['engine-jwt-key', '/etc/engine-auth/jwt', true],
        ['engine-rules', '/etc/engine-rules', true],
      ]);
      // Probes read /v1/info, which needs no credentials, on the HTTPS port; the preStop drain reads the same HTTPS settings.
      expect(c.readinessProbe!.httpGet, role).to.deep.equal({ path: '/v1/info', port: 'https', scheme: 'HTTPS' });
      expect(c.livenessProbe!.httpGet, role).to.deep.equal({ path: '/v1/info', port: 'https', scheme: 'HTTPS' });
      expect(c.ports, role).to.deep.equal([
        { name: 'http', containerPort: 8080, protocol: 'TCP' },
        { name: 'https', containerPort: 8443, protocol: 'TCP' },
      ]);
      expect(c.lifecycle!.preStop!.exec!.command, role).to.deep.equal([
        'engine',
        'node',
        'drain',
        '--local',
        '--timeout',
        '600s',
        '--until-isolated',
      ]);
    }
    expect(envOf(worker.containers[0]).ENGINE_DISCOVERY_URI).to.equal('https://demo.ns.svc:8443');
  });

  it('names the pods under a headless Service (PodDNS): the addresses nodes announce are the ones the operator calls and the certificate names', () => {
    const cluster = engineCluster(secure);
    const worker = workerTemplate(cluster, 'https://demo.ns.svc:8443', 'c1').pod.spec!;
    const coordinator = coordinatorDeployment(cluster, 'c1').spec!.template.spec!;
    expect([worker.hostname, worker.subdomain]).to.deep.equal([undefined, 'demo-nodes']);
    expect([coordinator.hostname, coordinator.subdomain]).to.deep.equal(['coordinator', 'demo-nodes']);
    expect(envOf(worker.containers[0]).ENGINE_NODE_INTERNAL_ADDRESS).to.equal('$(ENGINE_NODE_ID).demo-nodes.ns.svc');
    expect(worker.containers[0].env!.findIndex((e) => e.name === 'ENGINE_NODE_ID')).to.be.below(
      worker.containers[0].env!.findIndex((e) => e.name === 'ENGINE_NODE_INTERNAL_ADDRESS'),
    );
    expect(envOf(coordinator.containers[0]).ENGINE_NODE_INTERNAL_ADDRESS).to.equal('coordinator.demo-nodes.ns.svc');
    const headless = nodesService(cluster);
    expect(headless.metadata!.name).to.equal('demo-nodes');
    expect(headless.spec).to.deep.equal({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { 'engine.io/cluster': 'demo' },
      ports: [{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }],
    });
    expect(coordinatorService(cluster).spec!.ports).to.deep.equal([{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }]);
    expect(coordinatorUri(cluster, '10.0.0.9')).to.equal('https://demo.ns.svc:8443');
    const pod = { metadata: { name: 'demo-worker-abcde', namespace: 'ns' }, status: { podIP: '10.1.0.7' } };
    expect(podView(cluster, pod).uri).to.equal('https://demo-worker-abcde.demo-nodes.ns.svc:8443');
  });

  it("uses pod IPs and the Service's cluster IP with nodeAddresses PodIP, and plain HTTP without TLS", () => {
    const byIp = engineCluster({ security: { tls: { secretName: 'demo-tls', nodeAddresses: 'PodIP' } } });
    const worker = workerTemplate(byIp, 'https://10.0.0.9:8080', 'c1').pod.spec!;
    expect(envOf(worker.containers[0]).ENGINE_NODE_INTERNAL_ADDRESS).to.deep.equal({ fieldRef: { fieldPath: 'status.podIP' } });
    expect(worker.subdomain).to.equal(undefined);
    expect(coordinatorUri(byIp, '10.0.0.9')).to.equal('https://10.0.0.9:8080');
    const pod = { metadata: { name: 'demo-worker-abcde', namespace: 'ns' }, status: { podIP: '10.1.0.7' } };
    expect(podView(byIp, pod).uri).to.equal('https://10.1.0.7:8443');
    const plain = engineCluster();
    expect(podView(plain, pod).uri).to.equal('http://10.1.0.7:8080');
    expect(coordinatorUri(plain, '10.0.0.9')).to.equal('http://10.0.0.9:8080');
    const c = workerTemplate(plain, 'http://10.0.0.9:8080', 'c1').pod.spec!.containers[0];
    expect(c.readinessProbe!.httpGet).to.deep.equal({ path: '/v1/info', port: 'http', scheme: 'HTTP' });
    expect(c.env!.some((e) => e.name.startsWith('ENGINE_HTTP_HTTPS') || e.name.startsWith('ENGINE_AUTHENTICATION'))).to.equal(false);
  });

  it("changes the workers' template hash when spec.security changes (the pods roll)", () => {
    const base = workerTemplate(engineCluster(secure), 'u', 'c1').hash;
    const rotated = structuredClone(secure);
    rotated.security.authentication.password.name = 'other-passwords';
    expect(workerTemplate(engineCluster(rotated), 'u', 'c1').hash).to.not.equal(base);
  });

  it('finds what the schema cannot refuse: authentication without TLS or any type, a JWT key given twice or not at all, settings the operator sets, its paths', () => {
    const problems = (spec: unknown) => specProblems('demo', engineCluster(spec).spec);
    expect(problems(secure)).to.deep.equal([]);
    expect(problems({ security: { authentication: { password: { name: 'p' } } } })).to.deep.equal([
      'spec.security.authentication needs spec.security.tls: the engine takes credentials only over HTTPS',
    ]);
    expect(problems({ security: { tls: { secretName: 't' }, authentication: {} } })).to.deep.equal([
      'spec.security.authentication names no way to authenticate: give password, jwt or both',
    ]);
    expect(problems({ security: { tls: { secretName: 't' }, authentication: { jwt: { requiredAudience: 'a' } } } })).to.deep.equal([
      'spec.security.authentication.jwt: give exactly one of keySecret (a key file in a Secret) and jwksUrl',
    ]);
    expect(problems({ security: { tls: { secretName: 't' }, authentication: { jwt: { jwksUrl: 'file:///etc/key' } } } })).to.deep.equal([
      'spec.security.authentication.jwt.jwksUrl: "file:///etc/key" is not an http(s) URL',
    ]);
    expect(
      problems({
        config: { http: { https: { enabled: true } } },
        coordinator: { config: { authentication: { types: ['PASSWORD'] } } },
        workers: { config: { security: { rulesFile: '/x' } } },
      }),
    ).to.deep.equal([
      'spec.config.http.https is set by the operator and may not be given (use spec.security)',
      'spec.coordinator.config.authentication is set by the operator and may not be given (use spec.security)',
      'spec.workers.config.security.rulesFile is set by the operator and may not be given (use spec.security)',
    ]);
    expect(
      problems({
        volumes: [
          { name: 'engine-tls', emptyDir: {} },
          { name: 'x', emptyDir: {} },
        ],
        volumeMounts: [{ name: 'x', mountPath: '/etc/engine-rules/more' }],
      }),
    ).to.deep.equal([
      'spec.volumes: the name "engine-tls" is the operator\'s (spec.security.tls)',
      'spec.volumeMounts: /etc/engine-rules/more is where the operator mounts spec.security.accessControl',
    ]);
  });

  it('reports the Secrets, ConfigMaps and keys spec.security needs that are missing, by key name only', async () => {
    const objects = new Map<string, Set<string>>([
      ['Secret/demo-tls', new Set(['tls.crt', 'tls.key'])],
      ['Secret/demo-passwords', new Set(['password.db'])],
      ['ConfigMap/demo-rules', new Set(['other.json'])],
    ]);
    const missing = await missingKeys(securityRequiredKeys(engineCluster(secure).spec), 'ns', async (kind, name) =>
      objects.get(`${kind}/${name}`),
    );
    expect(missing).to.deep.equal([
      'spec.security.tls: Secret ns/demo-tls has no key "ca.crt"',
      'spec.security.authentication.jwt.keySecret: Secret ns/demo-jwt not found',
      'spec.security.accessControl.rulesConfigMap: ConfigMap ns/demo-rules has no key "rules.json"',
    ]);
  });

  it('accepts examples/secure.yaml, whose rules file is JSON', () => {
    const documents = YAML.parseAllDocuments(fs.readFileSync(path.join(repoRoot, 'examples/secure.yaml'), 'utf8')).map((d) => d.toJS());
    const cluster = documents.find((d) => d.kind === 'EngineCluster');
    const obj = structuredClone(cluster);
    delete obj.metadata;
    expect(validate(obj), JSON.stringify(validate.errors)).to.equal(true);
    expect(specProblems(cluster.metadata.name, withDefaults(cluster.spec))).to.deep.equal([]);
    const rules = documents.find((d) => d.kind === 'ConfigMap');
    expect(rules.metadata.name).to.equal(cluster.spec.security.accessControl.rulesConfigMap.name);
    expect(JSON.parse(rules.data[cluster.spec.security.accessControl.rulesConfigMap.key]).catalogs).to.have.length(3);
  });
});
