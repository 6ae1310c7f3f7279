import { expect } from 'chai';
import { ALLOCATOR_ENV } from 'engine/memory-budget';
import { specProblems } from '../src/api/spec-defaults.js';
import { configMap } from '../src/resources/cluster-objects.js';
import { coordinatorDeployment, coordinatorService } from '../src/resources/coordinator.js';
import { engineConfig } from '../src/resources/engine-config.js';
import { workerTemplate } from '../src/resources/worker-pod.js';
import { engineCluster } from './support/cluster.js';

describe('what the operator makes for a cluster', () => {
  it("merges each role's configuration file: spec.config, the catalogs, then the role's overrides", () => {
    const cluster = engineCluster({
      config: { query: { maxRunning: 10, maxQueued: 100 }, log: { level: 'info' } },
      catalogs: { tpch: { connector: 'tpch', properties: { 'tpch.column-naming': 'STANDARD' } }, mem: { connector: 'memory' } },
      coordinator: { config: { query: { maxRunning: 20 } } },
      workers: { config: { log: { level: 'debug' } } },
    });
    const catalogs = [
      { name: 'mem', connector: 'memory' },
      { name: 'tpch', connector: 'tpch', properties: { 'tpch.column-naming': 'STANDARD' } },
    ];
    expect(engineConfig(cluster, 'coordinator')).to.deep.equal({
      query: { maxRunning: 20, maxQueued: 100 },
      log: { level: 'info' },
      catalogs,
    });
    expect(engineConfig(cluster, 'worker')).to.deep.equal({ query: { maxRunning: 10, maxQueued: 100 }, log: { level: 'debug' }, catalogs });
    expect(JSON.parse(configMap(cluster).data!['worker.json'])).to.deep.equal(engineConfig(cluster, 'worker'));
  });

  it("gives a cluster whose spec names no catalog tpch, memory and system, but not the engine's default lake on each node's own disk", () => {
    const defaults = [
      { name: 'memory', connector: 'memory' },
      { name: 'system', connector: 'system' },
      { name: 'tpch', connector: 'tpch' },
    ];
    expect(engineConfig(engineCluster(), 'worker')).to.deep.equal({ catalogs: defaults });
    expect(engineConfig(engineCluster({ config: { log: { level: 'debug' } } }), 'coordinator')).to.deep.equal({
      log: { level: 'debug' },
      catalogs: defaults,
    });
    // Catalogs given in a configuration instead of spec.catalogs are kept as they are.
    const own = [{ name: 'files', connector: 'hive', properties: { 'hive.metastore.catalog.dir': 's3://b/lake/' } }];
    expect(engineConfig(engineCluster({ workers: { config: { catalogs: own } } }), 'worker')).to.deep.equal({ catalogs: own });
  });

  it('gives workers their identity, the shared secret, a preStop drain and a grace period beyond the drain timeout', () => {
    const cluster = engineCluster({ workers: { drainTimeoutSeconds: 120 } });
    const { pod } = workerTemplate(cluster, 'http://10.1.2.3:8080', 'c1');
    const spec = pod.spec!;
    const c = spec.containers[0];
    expect(pod.metadata!.generateName).to.equal('demo-worker-');
    expect(pod.metadata!.ownerReferences).to.deep.equal([
      { apiVersion: 'engine.io/v1alpha1', kind: 'EngineCluster', name: 'demo', uid: 'uid-1', controller: true, blockOwnerDeletion: true },
    ]);
    expect(c.args).to.deep.equal(['server', '--config', '/etc/engine/worker.json']);
    const env = Object.fromEntries(c.env!.map((e) => [e.name, e.value ?? e.valueFrom]));
    expect(env).to.deep.equal({
      ENGINE_ROLE: 'worker',
      ENGINE_NODE_ID: { fieldRef: { fieldPath: 'metadata.name' } },
      ENGINE_NODE_INTERNAL_ADDRESS: { fieldRef: { fieldPath: 'status.podIP' } },
      ENGINE_HTTP_PORT: '8080',
      ENGINE_SHARED_SECRET: { secretKeyRef: { name: 'demo-internal', key: 'shared-secret' } },
      ENGINE_DISCOVERY_URI: 'http://10.1.2.3:8080',
      ...ALLOCATOR_ENV,
    });
    expect(c.lifecycle!.preStop!.exec!.command).to.deep.equal([
      'engine',
      'node',
      'drain',
      '--local',
      '--timeout',
      '120s',
      '--until-isolated',
    ]);
    expect(spec.terminationGracePeriodSeconds).to.be.greaterThan(120);
    expect(spec.restartPolicy).to.equal('OnFailure');
  });

  it("changes the workers' template hash with the image or the configuration, and only then", () => {
    const base = workerTemplate(engineCluster(), 'http://10.1.2.3:8080', 'c1').hash;
    expect(workerTemplate(engineCluster(), 'http://10.1.2.3:8080', 'c1').hash).to.equal(base);
    expect(workerTemplate(engineCluster({ image: 'engine:2' }), 'http://10.1.2.3:8080', 'c1').hash).to.not.equal(base);
    expect(workerTemplate(engineCluster(), 'http://10.1.2.3:8080', 'c2').hash).to.not.equal(base);
    expect(workerTemplate(engineCluster({ workers: { replicas: 7 } }), 'http://10.1.2.3:8080', 'c1').hash).to.equal(base);
  });

  it('runs one coordinator, replaced by Recreate, behind a Service named after the cluster', () => {
    const cluster = engineCluster({ coordinator: { service: { type: 'NodePort', port: 9090, nodePort: 30080 } } });
    const d = coordinatorDeployment(cluster, 'c1');
    expect([d.metadata!.name, d.spec!.replicas, d.spec!.strategy!.type]).to.deep.equal(['demo-coordinator', 1, 'Recreate']);
    expect(d.spec!.template.spec!.containers[0].env!.find((e) => e.name === 'ENGINE_ROLE')!.value).to.equal('coordinator');
    const s = coordinatorService(cluster);
    expect([s.metadata!.name, s.spec!.type, s.spec!.ports]).to.deep.equal([
      'demo',
      'NodePort',
      [{ name: 'http', port: 9090, targetPort: 'http', protocol: 'TCP', nodePort: 30080 }],
    ]);
    expect(s.spec!.selector).to.deep.equal(d.spec!.selector!.matchLabels);
  });

  it('finds what the schema cannot refuse everywhere: bounds across fields, catalog names, keys the operator sets', () => {
    expect(specProblems('demo', engineCluster().spec)).to.deep.equal([]);
    expect(specProblems('x'.repeat(41), engineCluster().spec)).to.have.length(1);
    expect(specProblems('demo', engineCluster({ workers: { autoscaling: { minReplicas: 5, maxReplicas: 2 } } }).spec)).to.deep.equal([
      'spec.workers.autoscaling: minReplicas (5) is above maxReplicas (2)',
    ]);
    expect(specProblems('demo', engineCluster({ catalogs: { 'Bad-Name': { connector: 'tpch' } } }).spec)[0]).to.match(
      /"Bad-Name" is not a catalog name/,
    );
    expect(
      specProblems('demo', engineCluster({ config: { role: 'single' }, workers: { config: { http: { port: 1 } } } }).spec),
    ).to.deep.equal([
      'spec.config.role is set by the operator and may not be given',
      'spec.workers.config.http.port is set by the operator and may not be given',
    ]);
  });
});
