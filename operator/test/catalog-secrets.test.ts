import { expect } from 'chai';
import { secretEnvName, secretProperties } from '../src/api/catalog-properties.js';
import { specProblems } from '../src/api/spec-defaults.js';
import { clusterStatus } from '../src/controller/cluster-status.js';
import { missingSecretKeys } from '../src/controller/secret-check.js';
import { configMap } from '../src/resources/cluster-objects.js';
import { coordinatorDeployment } from '../src/resources/coordinator.js';
import { engineConfig } from '../src/resources/engine-config.js';
import { workerTemplate } from '../src/resources/worker-pod.js';
import { engineCluster } from './support/cluster.js';

const fromSecret = (name: string, key: string) => ({ valueFrom: { secretKeyRef: { name, key } } });

const catalogs = {
  lake: {
    connector: 'hive',
    properties: {
      'hive.metastore.catalog.dir': 's3://lake/warehouse/',
      'fs.native-s3.enabled': 'true',
      's3.aws-access-key': fromSecret('lake-s3', 'access-key'),
      's3.aws-secret-key': fromSecret('lake-s3', 'secret-key'),
    },
  },
  pg: {
    connector: 'postgresql',
    properties: {
      'connection-url': 'jdbc:postgresql://db:5432/shop',
      'connection-user': 'engine',
      'connection-password': fromSecret('pg-credentials', 'password'),
    },
  },
};

describe('catalog properties from Secrets', () => {
  it("writes a ${ENV:...} reference into each role's configuration, never a secret's value or its name", () => {
    const cluster = engineCluster({ catalogs });
    for (const role of ['coordinator', 'worker'] as const) {
      const config = engineConfig(cluster, role);
      expect(config.catalogs).to.deep.equal([
        {
          name: 'lake',
          connector: 'hive',
          properties: {
            'hive.metastore.catalog.dir': 's3://lake/warehouse/',
            'fs.native-s3.enabled': 'true',
            's3.aws-access-key': '${ENV:ENGINE_CATALOG_LAKE_S3_AWS_ACCESS_KEY}',
            's3.aws-secret-key': '${ENV:ENGINE_CATALOG_LAKE_S3_AWS_SECRET_KEY}',
          },
        },
        {
          name: 'pg',
          connector: 'postgresql',
          properties: {
            'connection-url': 'jdbc:postgresql://db:5432/shop',
            'connection-user': 'engine',
            'connection-password': '${ENV:ENGINE_CATALOG_PG_CONNECTION_PASSWORD}',
          },
        },
      ]);
    }
    const text = JSON.stringify(configMap(cluster).data);
    for (const word of ['pg-credentials', 'lake-s3', 'secretKeyRef', 'valueFrom']) expect(text).to.not.contain(word);
  });

  it('hands every engine pod, coordinator and workers, the keys as environment variables of stable names', () => {
    const cluster = engineCluster({ catalogs });
    const expected = {
      ENGINE_CATALOG_LAKE_S3_AWS_ACCESS_KEY: { secretKeyRef: { name: 'lake-s3', key: 'access-key' } },
      ENGINE_CATALOG_LAKE_S3_AWS_SECRET_KEY: { secretKeyRef: { name: 'lake-s3', key: 'secret-key' } },
      ENGINE_CATALOG_PG_CONNECTION_PASSWORD: { secretKeyRef: { name: 'pg-credentials', key: 'password' } },
    };
    const catalogEnv = (env: { name: string; valueFrom?: unknown }[]) =>
      Object.fromEntries(env.filter((e) => e.name.startsWith('ENGINE_CATALOG_')).map((e) => [e.name, e.valueFrom]));
    expect(catalogEnv(workerTemplate(cluster, 'http://10.0.0.1:8080', 'c').pod.spec!.containers[0].env!)).to.deep.equal(expected);
    expect(catalogEnv(coordinatorDeployment(cluster, 'c').spec!.template.spec!.containers[0].env!)).to.deep.equal(expected);
    // The same spec always gives the same pod: no roll without a change.
    expect(workerTemplate(engineCluster({ catalogs }), 'http://10.0.0.1:8080', 'c').hash).to.equal(
      workerTemplate(cluster, 'http://10.0.0.1:8080', 'c').hash,
    );
  });

  it("names the variables as the engine's ${ENV:NAME} takes them, whatever the property's characters", () => {
    expect(secretEnvName('lake', 's3.aws-secret-key')).to.equal('ENGINE_CATALOG_LAKE_S3_AWS_SECRET_KEY');
    expect(secretEnvName('my_pg2', 'connection-password')).to.equal('ENGINE_CATALOG_MY_PG2_CONNECTION_PASSWORD');
    expect(secretEnvName('c', 'odd key/ä.1')).to.match(/^[A-Za-z_][A-Za-z0-9_]*$/);
  });

  it('finds property values the schema may let through, and variable names two properties would share', () => {
    const problems = (properties: Record<string, unknown>, connector = 'postgresql') =>
      specProblems('demo', engineCluster({ catalogs: { pg: { connector, properties } } }).spec);
    expect(problems({ 'connection-password': fromSecret('pg-credentials', 'password') })).to.deep.equal([]);
    expect(problems({ 'connection-user': 5 })).to.deep.equal([
      'spec.catalogs.pg.properties.connection-user must be a string or {valueFrom: {secretKeyRef: {name, key}}}',
    ]);
    expect(problems({ 'connection-password': { valueFrom: { secretKeyRef: { name: 'pg', key: 'p', optional: true } } } })).to.deep.equal([
      'spec.catalogs.pg.properties.connection-password.valueFrom.secretKeyRef has fields other than name and key: optional',
    ]);
    expect(problems({ 'connection-password': fromSecret('pg', 'a key') })).to.deep.equal([
      'spec.catalogs.pg.properties.connection-password.valueFrom.secretKeyRef.key "a key" is not a Secret key (letters, digits, -, _ and .)',
    ]);
    expect(problems({}, 'mysql')).to.deep.equal([
      'spec.catalogs.pg.connector "mysql" is not one of tpch, memory, system, hive, postgresql',
    ]);
    expect(problems({ 'a.b': fromSecret('s', 'k'), 'a-b': fromSecret('s', 'k') })).to.deep.equal([
      'spec.catalogs: pg.a-b and pg.a.b would both be passed in the environment variable ENGINE_CATALOG_PG_A_B: rename one',
    ]);
  });

  it('reports each property whose Secret or key is missing, reading each Secret once', async () => {
    const read: string[] = [];
    const secrets = new Map([['lake-s3', new Set(['access-key'])]]);
    const missing = await missingSecretKeys(secretProperties(engineCluster({ catalogs }).spec.catalogs!), 'ns', async (name) => {
      read.push(name);
      return secrets.get(name);
    });
    expect(missing).to.deep.equal([
      'catalog lake, property s3.aws-secret-key: Secret ns/lake-s3 has no key "secret-key"',
      'catalog pg, property connection-password: Secret ns/pg-credentials not found',
    ]);
    expect(read.sort()).to.deep.equal(['lake-s3', 'pg-credentials']);
    secrets.set('lake-s3', new Set(['access-key', 'secret-key'])).set('pg-credentials', new Set(['password']));
    expect(await missingSecretKeys(secretProperties(catalogs as never), 'ns', async (name) => secrets.get(name))).to.deep.equal([]);
  });

  it('is Degraded with reason SecretMissing while a Secret is missing, naming it', () => {
    const missing = ['catalog pg, property connection-password: Secret ns/pg-credentials not found'];
    const status = clusterStatus({
      previous: undefined,
      generation: 1,
      desired: 1,
      templateHash: 'h',
      workers: [],
      plan: undefined,
      coordinator: {},
      coordinatorURL: '',
      selector: 's',
      problems: [],
      missingSecrets: missing,
      now: new Date(0),
    });
    const degraded = status.conditions!.find((c) => c.type === 'Degraded')!;
    expect([status.state, degraded.status, degraded.reason, degraded.message]).to.deep.equal([
      'Degraded',
      'True',
      'SecretMissing',
      missing[0],
    ]);
  });
});
