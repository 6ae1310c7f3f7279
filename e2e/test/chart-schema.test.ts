// The chart renders objects a real Kubernetes accepts: `helm template` with each switch the templates
// branch on, every object validated against the official Kubernetes schemas (kubernetes-models), the
// EngineCluster against the CRD's own schema; crds/ and examples/ likewise. The test Kubernetes does
// not validate built-in kinds, so without this a wrong field type would only show on a real cluster.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import YAML, { parseAllDocuments } from 'yaml';
import { envWithTools } from '../src/binaries/tools.js';
import { repoRoot } from '../src/kubelet/images.js';
import { ManifestValidator, validateCoreType, type Manifest } from './support/kube-schemas.js';

const run = promisify(execFile);
const chart = path.join(repoRoot, 'charts', 'engine');
const examples = path.join(repoRoot, 'examples');
const namespace = 'engine-system';

/** The objects of a multi-document YAML text (documents holding only comments skipped). */
function documents(text: string, source: string): Manifest[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length) throw new Error(`${source}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as Manifest | null;
    return value === null ? [] : [value];
  });
}

const readManifests = (dir: string): Manifest[] =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => documents(fs.readFileSync(path.join(dir, f), 'utf8'), path.join(dir, f)));

const kindsOf = (objects: Manifest[]) => objects.map((o) => o.kind).sort();

interface VolumesPart {
  volumes?: unknown[];
  volumeMounts?: unknown[];
}

/** The volumes and mounts an EngineCluster's spec passes to its pods are core/v1 Volumes and VolumeMounts (the CRD's schema checks only their names). */
async function validateVolumes(cluster: Manifest): Promise<number> {
  const spec = cluster.spec as VolumesPart & { coordinator?: VolumesPart; workers?: VolumesPart };
  let checked = 0;
  for (const [where, part] of [
    ['spec', spec],
    ['spec.coordinator', spec.coordinator],
    ['spec.workers', spec.workers],
  ] as const) {
    for (const [i, v] of (part?.volumes ?? []).entries())
      await validateCoreType('Volume', v, `${cluster.metadata?.name} ${where}.volumes[${i}]`);
    for (const [i, m] of (part?.volumeMounts ?? []).entries())
      await validateCoreType('VolumeMount', m, `${cluster.metadata?.name} ${where}.volumeMounts[${i}]`);
    checked += (part?.volumes?.length ?? 0) + (part?.volumeMounts?.length ?? 0);
  }
  return checked;
}

/** The values of a commented example in values.yaml (between its "--- NAME example" line and the next "--- end" line). */
function valuesExample(name = 'catalogs'): { spec: Record<string, unknown> } {
  const lines = fs.readFileSync(path.join(chart, 'values.yaml'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.includes(`# --- ${name} example`));
  const end = lines.findIndex((l, i) => i > start && l.includes('# --- end of the example'));
  if (start < 0 || end < start) throw new Error(`values.yaml has no ${name} example`);
  const indent = lines[start]!.indexOf('#');
  return YAML.parse(
    lines
      .slice(start + 1, end)
      .map((l) => l.slice(indent).replace(/^# ?/, ''))
      .join('\n'),
  );
}

describe("the chart's manifests against the Kubernetes schemas", function () {
  this.timeout(30_000);
  let home: string;
  let validator: ManifestValidator;
  const fullSpec = () => readManifests(examples).find((m) => m.metadata?.name === 'analytics')!.spec;

  /** `helm template` of the chart (CRDs included) with these flags; the objects it renders. */
  const render = async (...flags: string[]): Promise<Manifest[]> => {
    const env = envWithTools({
      HOME: home,
      HELM_CACHE_HOME: path.join(home, 'cache'),
      HELM_CONFIG_HOME: path.join(home, 'config'),
      HELM_DATA_HOME: path.join(home, 'data'),
    });
    const { stdout } = await run('helm', ['template', 'engine', chart, '--namespace', namespace, '--include-crds', ...flags], {
      env,
      encoding: 'utf8',
    });
    return documents(stdout, `helm template ${flags.join(' ')}`);
  };
  /** Renders, validates every object, and returns them. */
  const renderValid = async (...flags: string[]): Promise<Manifest[]> => {
    const objects = await render(...flags);
    for (const o of objects) await validator.validate(o);
    return objects;
  };
  const valuesFile = (name: string, values: object): string => {
    const file = path.join(home, name);
    fs.writeFileSync(file, JSON.stringify(values));
    return file;
  };

  before(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-chart-'));
    validator = new ManifestValidator();
    for (const crd of readManifests(path.join(chart, 'crds'))) await validator.addCrd(crd);
  });
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  it('validates the CRDs of crds/ and the EngineClusters of examples/', async () => {
    const crds = readManifests(path.join(chart, 'crds'));
    expect(kindsOf(crds)).to.deep.equal(['CustomResourceDefinition']);
    const manifests = readManifests(examples);
    expect(kindsOf(manifests), "examples/secure.yaml holds its rules file's ConfigMap").to.deep.equal([
      'ConfigMap',
      'EngineCluster',
      'EngineCluster',
      'EngineCluster',
      'EngineCluster',
    ]);
    const clusters = manifests.filter((m) => m.kind === 'EngineCluster');
    for (const m of clusters) await validator.validate(m);
    for (const m of manifests.filter((m) => m.kind === 'ConfigMap'))
      await validateCoreType('ConfigMap', m, `ConfigMap ${m.metadata?.name}`);
    const volumes = await Promise.all(clusters.map(validateVolumes));
    expect(
      volumes.reduce((a, b) => a + b),
      'examples/full.yaml mounts volumes',
    ).to.equal(4);
  });

  it("validates the S3 lake and PostgreSQL catalogs with secrets that examples/catalogs.yaml and the chart's values.yaml document", async () => {
    const warehouse = readManifests(examples).find((m) => m.metadata?.name === 'warehouse')!;
    const example = valuesExample();
    const rendered = (await renderValid('--set', 'cluster.enabled=true', '-f', valuesFile('catalogs.json', { cluster: example }))).find(
      (o) => o.kind === 'EngineCluster',
    )!;
    expect(rendered.spec).to.deep.equal(example.spec);
    expect(await validateVolumes(rendered)).to.equal(2);
    for (const cluster of [warehouse, rendered]) {
      const catalogs = (cluster.spec as { catalogs: Record<string, { connector: string; properties: Record<string, unknown> }> }).catalogs;
      expect(catalogs.lake!.connector, cluster.metadata?.name).to.equal('hive');
      expect(catalogs.lake!.properties['hive.metastore.catalog.dir']).to.match(/^s3:\/\//);
      expect(catalogs.lake!.properties['s3.aws-secret-key']).to.deep.equal({
        valueFrom: { secretKeyRef: { name: 'lake-s3', key: 'secret-key' } },
      });
      expect(catalogs.shop!.connector).to.equal('postgresql');
      expect(catalogs.shop!.properties['connection-password']).to.deep.equal({
        valueFrom: { secretKeyRef: { name: 'shop-db', key: 'password' } },
      });
    }
    // The CRD refuses a property from a Secret that misses its key, and a connector the engine has not.
    let error: Error | undefined;
    const broken = structuredClone(warehouse) as Manifest & {
      spec: { catalogs: Record<string, { connector: string; properties: Record<string, unknown> }> };
    };
    broken.spec.catalogs.shop!.properties['connection-password'] = { valueFrom: { secretKeyRef: { name: 'shop-db' } } };
    broken.spec.catalogs.tpch!.connector = 'mysql';
    await validator.validate(broken).catch((e: Error) => (error = e));
    expect(error?.message).to.contain(
      "data/spec/catalogs/shop/properties/connection-password/valueFrom/secretKeyRef must have required property 'key'",
    );
    expect(error?.message).to.contain('data/spec/catalogs/tpch/connector must be equal to one of the allowed values');
  });

  it('renders a valid EngineCluster from the security example of values.yaml (TLS, passwords, JWT, rules)', async () => {
    const example = valuesExample('security');
    const rendered = (await renderValid('--set', 'cluster.enabled=true', '-f', valuesFile('security.json', { cluster: example }))).find(
      (o) => o.kind === 'EngineCluster',
    )!;
    expect(rendered.spec).to.deep.equal(example.spec);
    expect(Object.keys((rendered.spec as { security: object }).security).sort()).to.deep.equal(['accessControl', 'authentication', 'tls']);
  });

  it('renders valid objects with the default values: cluster-wide RBAC, no EngineCluster', async () => {
    const objects = await renderValid();
    expect(kindsOf(objects)).to.deep.equal([
      'ClusterRole',
      'ClusterRoleBinding',
      'CustomResourceDefinition',
      'Deployment',
      'Role',
      'RoleBinding',
      'ServiceAccount',
    ]);
  });

  it("renders valid objects with rbac.scope=namespace: Roles in the release's namespace", async () => {
    const objects = await renderValid('--set', 'rbac.scope=namespace');
    expect(kindsOf(objects)).to.deep.equal([
      'CustomResourceDefinition',
      'Deployment',
      'Role',
      'Role',
      'RoleBinding',
      'RoleBinding',
      'ServiceAccount',
    ]);
    for (const o of objects.filter((o) => o.kind.startsWith('Role'))) expect(o.metadata?.namespace).to.equal(namespace);
  });

  it("renders valid objects with a watchNamespace: the operator's Role there, the leader election's at home", async () => {
    const objects = await renderValid('--set', 'rbac.scope=namespace', '--set', 'watchNamespace=analytics');
    expect(kindsOf(objects)).to.deep.equal([
      'CustomResourceDefinition',
      'Deployment',
      'Role',
      'Role',
      'RoleBinding',
      'RoleBinding',
      'ServiceAccount',
    ]);
    expect(
      objects
        .filter((o) => o.kind === 'Role')
        .map((o) => o.metadata?.namespace)
        .sort(),
    ).to.deep.equal(['analytics', namespace]);
  });

  it('renders a valid EngineCluster from cluster.enabled, with the spec of examples/full.yaml', async () => {
    const minimal = await renderValid('--set', 'cluster.enabled=true');
    expect(kindsOf(minimal)).to.deep.equal([
      'ClusterRole',
      'ClusterRoleBinding',
      'CustomResourceDefinition',
      'Deployment',
      'EngineCluster',
      'Role',
      'RoleBinding',
      'ServiceAccount',
    ]);
    const full = await renderValid('-f', valuesFile('full.json', { cluster: { enabled: true, name: 'analytics', spec: fullSpec() } }));
    const cluster = full.find((o) => o.kind === 'EngineCluster')!;
    expect(cluster.metadata).to.include({ name: 'analytics', namespace });
    expect(cluster.spec).to.deep.equal(fullSpec());
  });

  it('renders only the Deployment without RBAC, ServiceAccount or leader election', async () => {
    const objects = await renderValid(
      '--set',
      'rbac.create=false',
      '--set',
      'serviceAccount.create=false',
      '--set',
      'operator.leaderElection.enabled=false',
    );
    expect(kindsOf(objects)).to.deep.equal(['CustomResourceDefinition', 'Deployment']);
    expect((await renderValid('--set', 'operator.leaderElection.enabled=false')).map((o) => o.kind)).to.not.include('Role');
  });

  it('renders a valid Deployment with every scheduling and image value set', async () => {
    const operator = {
      image: { repository: 'registry.example/engine-operator', tag: '1.2.3', pullPolicy: 'Always' },
      replicas: 3,
      resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: 1, memory: '1Gi' } },
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'engine', effect: 'NoExecute', tolerationSeconds: 60 }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64'] }] }],
          },
        },
      },
      podAnnotations: { 'example.com/team': 'data' },
    };
    const objects = await renderValid('-f', valuesFile('scheduling.json', { operator }));
    const pod = (objects.find((o) => o.kind === 'Deployment')!.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    expect(pod).to.deep.include({ nodeSelector: operator.nodeSelector, tolerations: operator.tolerations, affinity: operator.affinity });
    expect((pod.containers as { image: string }[])[0].image).to.equal('registry.example/engine-operator:1.2.3');
  });

  it('refuses a Deployment whose values render a wrong type, naming the field', async () => {
    const objects = await render('--set-json', 'operator.tolerations=[{"key":"dedicated","tolerationSeconds":"one minute"}]');
    const deployment = objects.find((o) => o.kind === 'Deployment')!;
    let error: Error | undefined;
    await validator.validate(deployment).catch((e: Error) => (error = e));
    expect(error?.message).to.equal(
      'Deployment engine-operator is invalid: data/spec/template/spec/tolerations/0/tolerationSeconds must be integer',
    );
  });

  it('renders the metrics Service with scrape annotations and a valid ServiceMonitor over every engine pod', async () => {
    expect(kindsOf(await renderValid())).to.not.include('ServiceMonitor');
    const annotated = await renderValid('--set', 'metrics.service.enabled=true');
    const service = annotated.find((o) => o.kind === 'Service')!;
    expect((service.metadata as { annotations?: Record<string, string> }).annotations).to.deep.equal({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '8080',
      'prometheus.io/path': '/metrics',
    });
    expect((service.spec as { selector: Record<string, string> }).selector).to.deep.equal({
      'app.kubernetes.io/name': 'engine',
      'app.kubernetes.io/managed-by': 'engine-operator',
    });
    const monitored = await renderValid(
      '--set',
      'metrics.serviceMonitor.enabled=true',
      '--set',
      'metrics.serviceMonitor.labels.release=prometheus',
      '--set',
      'metrics.service.scrapeAnnotations=false',
    );
    expect(kindsOf(monitored)).to.include.members(['Service', 'ServiceMonitor']);
    const monitor = monitored.find((o) => o.kind === 'ServiceMonitor')!;
    const metricsService = monitored.find((o) => o.kind === 'Service')!;
    expect((metricsService.metadata as { annotations?: object }).annotations).to.equal(undefined);
    // The ServiceMonitor selects the metrics Service by its labels, and scrapes its port.
    const selector = (monitor.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
    const labels = (metricsService.metadata as { labels: Record<string, string> }).labels;
    for (const [k, v] of Object.entries(selector)) expect(labels[k], k).to.equal(v);
    expect((monitor.spec as { endpoints: { port: string }[] }).endpoints[0]!.port).to.equal('http-metrics');
    expect((monitor.metadata as { labels: Record<string, string> }).labels.release).to.equal('prometheus');
    // A field prometheus-operator's schema does not have is refused.
    let error: Error | undefined;
    await validator
      .validate({ ...monitor, spec: { ...(monitor.spec as object), endpoints: [{ port: 'http-metrics', interval: 30 }] } })
      .catch((e: Error) => (error = e));
    expect(error?.message).to.match(/^ServiceMonitor /);
  });

  it('renders the metrics Service and a valid ServiceMonitor over HTTPS with a CA and basic auth (EngineClusters with spec.security)', async () => {
    const values = {
      metrics: {
        https: { enabled: true },
        serviceMonitor: {
          enabled: true,
          tlsConfig: { ca: { secret: { name: 'engine-tls', key: 'ca.crt' } }, serverName: 'coordinator.engine-nodes.analytics.svc' },
          basicAuth: { username: { name: 'engine-scraper', key: 'username' }, password: { name: 'engine-scraper', key: 'password' } },
        },
      },
    };
    const objects = await renderValid('-f', valuesFile('metrics-https.json', values));
    const service = objects.find((o) => o.kind === 'Service')!;
    expect((service.spec as { ports: unknown[] }).ports).to.deep.equal([
      { name: 'https-metrics', port: 8443, targetPort: 'https', protocol: 'TCP' },
    ]);
    expect((service.metadata as { annotations?: Record<string, string> }).annotations).to.deep.equal({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '8443',
      'prometheus.io/path': '/metrics',
      'prometheus.io/scheme': 'https',
    });
    const endpoint = (objects.find((o) => o.kind === 'ServiceMonitor')!.spec as { endpoints: Record<string, unknown>[] }).endpoints[0]!;
    expect(endpoint).to.deep.include({
      port: 'https-metrics',
      scheme: 'https',
      tlsConfig: values.metrics.serviceMonitor.tlsConfig,
      basicAuth: values.metrics.serviceMonitor.basicAuth,
    });
  });

  it("refuses an EngineCluster the CRD's schema refuses: a wrong type, a value out of bounds, an unknown field", async () => {
    const objects = await render(
      '-f',
      valuesFile('bad.json', {
        cluster: { enabled: true, spec: { workers: { replicas: 'two', autoscaling: { maxReplicas: 0 } }, coordinater: {} } },
      }),
    );
    let error: Error | undefined;
    await validator.validate(objects.find((o) => o.kind === 'EngineCluster')!).catch((e: Error) => (error = e));
    expect(error?.message).to.match(/^EngineCluster engine is invalid: /);
    expect(error?.message).to.contain('data/spec/workers/replicas must be integer');
    expect(error?.message).to.contain('data/spec/workers/autoscaling/maxReplicas must be >= 1');
    expect(error?.message).to.contain('data/spec must NOT have additional properties: coordinater');
  });

  it('refuses an object of a kind it has no schema for', async () => {
    let error: Error | undefined;
    await validator.validate({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('Widget w: unknown kind Widget of example.com/v1');
  });
});
