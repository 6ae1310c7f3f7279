import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config-loader.js';
import { ConfigError } from '../../src/config/config-error.js';
import { CONFIG_SCHEMA } from '../../src/config/config-schema.js';
import { formatDataSize, parseDataSize } from '../../src/config/data-size.js';
import { formatDuration, parseDuration } from '../../src/config/duration.js';
import { SETTINGS, envName } from '../../src/config/settings.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-config-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
function configError(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).to.be.instanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('defaults to the embedded single node on 0.0.0.0:8080 with tpch, memory, lake and system catalogs', () => {
    const config = loadConfig();
    expect(config.http).to.deep.equal({ host: '0.0.0.0', port: 8080, maxRequestBodySize: 16 * 1024 * 1024 });
    expect(config.role).to.equal('single');
    expect(config.discovery).to.deep.equal({ uri: undefined, announcementInterval: 3000, maxAnnouncementAge: 9000 });
    expect(config.failureDetector).to.deep.equal({ heartbeatInterval: 1000, heartbeatTimeout: 500 });
    expect(config.nodeScheduler).to.deep.equal({ includeCoordinator: undefined });
    expect(config.catalogs.map((c) => `${c.name}=${c.connector}`)).to.deep.equal([
      'tpch=tpch',
      'memory=memory',
      'lake=hive',
      'system=system',
    ]);
    expect(config.memory.queryMaxMemoryPerNode).to.equal(2 * 1024 ** 3);
    // The buffer pool: 256MB, at most an eighth of the node memory.
    expect(config.memory.bufferPoolSize).to.equal(Math.min(256 * 1024 ** 2, Math.floor(config.memory.nodeMemory / 8)));
    expect(config.memory.bufferPoolIdleTimeout).to.equal(30_000);
    expect(config.node.environment).to.equal('production');
    expect(config.node.id).to.match(/^[0-9a-f-]{36}$/);
    expect(config.log.level).to.equal('info');
    expect(config.results).to.deep.equal({ maxRowsPerResponse: 10000, maxBytesPerResponse: 1024 * 1024 });
    expect(config.query.clientTimeout).to.equal(5 * 60_000);
    // Trino's query.remote-task.max-error-duration and task.client-timeout.
    expect(config.query.remoteTaskMaxErrorDuration).to.equal(60_000);
    expect(config.task).to.deep.equal({
      clientTimeout: 2 * 60_000,
      maxWorkerThreads: availableParallelism(),
      workerThreadIdleTimeout: 30_000,
      workerThreadNice: 10,
      exchangeThreadDecodingMinSize: 128 * 1024,
    });
  });

  it('replaces ${ENV:NAME} in catalog properties from the environment, and refuses a variable that is not set', () => {
    const yaml = file(
      'env.yaml',
      'catalogs:\n  - name: tpch2\n    connector: tpch\n    properties:\n      tpch.column-naming: ${ENV:NAMING}\n      note: "key ${ENV:KEY_ID}/${ENV:KEY_ID} kept"\n',
    );
    const config = loadConfig({ file: yaml, env: { NAMING: 'SIMPLIFIED', KEY_ID: 'k1' } });
    expect(config.catalogs[0].properties).to.deep.equal({ 'tpch.column-naming': 'SIMPLIFIED', note: 'key k1/k1 kept' });
    const message = configError(() => loadConfig({ file: yaml, env: { NAMING: 'SIMPLIFIED' } }));
    expect(message).to.equal(
      "Invalid configuration:\n  catalog 'tpch2': property 'note' refers to environment variable KEY_ID, which is not set",
    );
  });

  it('reads YAML and JSON files, converting sizes and durations', () => {
    const yaml = file(
      'a.yaml',
      'node:\n  id: n1\n  environment: test\nhttp:\n  port: 9090\nmemory:\n  queryMaxMemoryPerNode: 512MB\n  nodeMemory: 1GB\n  bufferPoolSize: 64MB\n  bufferPoolIdleTimeout: 10s\nquery:\n  maxHistoryAge: 2m\ncatalogs:\n  - name: mem2\n    connector: memory\n',
    );
    const config = loadConfig({ file: yaml });
    expect(config.node).to.include({ id: 'n1', environment: 'test' });
    expect(config.http.port).to.equal(9090);
    expect(config.memory).to.deep.equal({
      queryMaxMemoryPerNode: 512 * 1024 ** 2,
      queryMaxMemory: 20 * 1024 ** 3,
      nodeMemory: 1024 ** 3,
      bufferPoolSize: 64 * 1024 ** 2,
      bufferPoolIdleTimeout: 10_000,
    });
    expect(config.query.maxHistoryAge).to.equal(120_000);
    expect(config.catalogs).to.deep.equal([
      { name: 'mem2', connector: 'memory', properties: {} },
      { name: 'system', connector: 'system', properties: {} },
    ]);
    const json = file('b.json', JSON.stringify({ http: { port: 7070 }, log: { level: 'warn' } }));
    expect(loadConfig({ file: json }).http.port).to.equal(7070);
    expect(loadConfig({ file: json }).log.level).to.equal('warn');
  });

  it('lets environment variables override the file and flags override both', () => {
    const path = file('c.yaml', 'http:\n  port: 9000\n  host: 127.0.0.1\n');
    expect(loadConfig({ file: path }).http.port).to.equal(9000);
    expect(loadConfig({ file: path, env: { ENGINE_HTTP_PORT: '9001' } }).http.port).to.equal(9001);
    const both = loadConfig({ file: path, env: { ENGINE_HTTP_PORT: '9001' }, flags: { port: '9002' } });
    expect(both.http).to.include({ port: 9002, host: '127.0.0.1' });
    const sized = loadConfig({ env: { ENGINE_MEMORY_QUERY_MAX_MEMORY_PER_NODE: '64MB' }, flags: { catalogs: 'a=memory,s=system' } });
    expect(sized.memory.queryMaxMemoryPerNode).to.equal(64 * 1024 ** 2);
    expect(sized.catalogs.map((c) => c.name)).to.deep.equal(['a', 's', 'system']);
  });

  it('always has the system catalog, as Trino does, however the catalogs are listed', () => {
    const listed = (config: ReturnType<typeof loadConfig>) => config.catalogs.map((c) => `${c.name}=${c.connector}`);
    const onlyMemory = file('only-memory.yaml', 'catalogs:\n  - name: memory\n    connector: memory\n');
    expect(listed(loadConfig({ file: onlyMemory }))).to.deep.equal(['memory=memory', 'system=system']);
    expect(listed(loadConfig({ flags: { catalogs: 'tpch=tpch' } }))).to.deep.equal(['tpch=tpch', 'system=system']);
    expect(listed(loadConfig({ env: { ENGINE_CATALOGS: 'memory=memory' } }))).to.deep.equal(['memory=memory', 'system=system']);
    // Listing it explicitly keeps working, in any position and without a second copy.
    expect(listed(loadConfig({ flags: { catalogs: 'system=system,memory=memory' } }))).to.deep.equal(['system=system', 'memory=memory']);
    expect(configError(() => loadConfig({ flags: { catalogs: 'system=memory' } }))).to.contain(
      "catalog 'system' is the system catalog: its connector must be 'system', not 'memory'",
    );
  });

  it('names every wrong key and value', () => {
    const path = file(
      'bad.yaml',
      'http:\n  prot: 1\nmemory:\n  nodeMemory: lots\ncatalogs:\n  - name: x\n    connector: foo\nlog:\n  level: loud\n',
    );
    const message = configError(() => loadConfig({ file: path }));
    expect(message).to.contain(`Invalid configuration file ${path}`);
    expect(message).to.contain("unknown key 'http.prot'");
    expect(message).to.contain("'memory.nodeMemory' must be a byte count or a size such as '512MB'");
    expect(message).to.contain("'catalogs[0].connector' must be one of 'memory', 'system', 'tpch', 'postgresql', 'hive'");
    expect(message).to.contain("'log.level' must be one of");
    expect(configError(() => loadConfig({ flags: { port: 'abc' } }))).to.equal(
      "Invalid flag --port for 'http.port': expected an integer, got 'abc'",
    );
    expect(configError(() => loadConfig({ env: { ENGINE_NODE_SCHEDULER_INCLUDE_COORDINATOR: 'yes' } }))).to.equal(
      "Invalid environment variable ENGINE_NODE_SCHEDULER_INCLUDE_COORDINATOR for 'nodeScheduler.includeCoordinator': expected 'true' or 'false', got 'yes'",
    );
    expect(configError(() => loadConfig({ flags: { port: '70000' } }))).to.contain("'http.port' must be <= 65535");
    expect(configError(() => loadConfig({ flags: { catalogs: 'a=memory,a=system' } }))).to.contain("catalog 'a' is defined twice");
    expect(configError(() => loadConfig({ file: file('list.yaml', '- 1\n') }))).to.contain('must hold an object of settings');
    expect(configError(() => loadConfig({ file: join(dir, 'missing.yaml') }))).to.contain('Cannot read configuration file');
  });

  it('reads admin users as a list, the per-user cap and the resource group file from file, environment or flags', () => {
    const defaults = loadConfig();
    expect(defaults.security.adminUsers).to.deep.equal([]);
    expect(defaults.query.maxRunningPerUser).to.equal(10);
    expect(defaults.resourceGroups.configFile).to.equal(undefined);
    expect(loadConfig({ flags: { 'admin-users': 'root, ops' } }).security.adminUsers).to.deep.equal(['root', 'ops']);
    expect(loadConfig({ env: { ENGINE_SECURITY_ADMIN_USERS: 'root' } }).security.adminUsers).to.deep.equal(['root']);
    const path = file(
      'security.yaml',
      'security:\n  adminUsers: [a, b]\nquery:\n  maxRunningPerUser: 3\nresourceGroups:\n  configFile: groups.json\n',
    );
    const config = loadConfig({ file: path, env: { ENGINE_QUERY_MAX_RUNNING_PER_USER: '4' } });
    expect(config.security.adminUsers).to.deep.equal(['a', 'b']);
    expect(config.query.maxRunningPerUser).to.equal(4);
    expect(config.resourceGroups.configFile).to.equal('groups.json');
    expect(configError(() => loadConfig({ file: file('bad-admins.yaml', 'security:\n  adminUsers: root\n') }))).to.contain(
      "'security.adminUsers' must be array",
    );
  });

  it('reads the role, discovery, heartbeat and scheduler settings, and refuses a role without what it needs', () => {
    const worker = loadConfig({
      file: file('worker.yaml', 'role: worker\ndiscovery:\n  uri: http://coordinator:8080\n  announcementInterval: 2s\n'),
      env: { ENGINE_FAILURE_DETECTOR_HEARTBEAT_INTERVAL: '250ms' },
      flags: { 'node-id': 'worker-7', 'internal-address': '10.0.0.7', 'node-scheduler-include-coordinator': 'true' },
    });
    expect(worker.role).to.equal('worker');
    expect(worker.node).to.deep.include({ id: 'worker-7', internalAddress: '10.0.0.7' });
    expect(worker.discovery).to.deep.equal({ uri: 'http://coordinator:8080', announcementInterval: 2000, maxAnnouncementAge: 6000 });
    expect(worker.failureDetector.heartbeatInterval).to.equal(250);
    expect(worker.nodeScheduler.includeCoordinator).to.equal(true);
    expect(loadConfig({ flags: { role: 'coordinator', 'max-announcement-age': '5s' } }).discovery.maxAnnouncementAge).to.equal(5000);
    const bounds = loadConfig({
      file: file('bounds.yaml', 'query:\n  remoteTaskMaxErrorDuration: 30s\ntask:\n  clientTimeout: 90s\n'),
      env: { ENGINE_TASK_CLIENT_TIMEOUT: '3m' },
    });
    expect([bounds.query.remoteTaskMaxErrorDuration, bounds.task.clientTimeout]).to.deep.equal([30_000, 180_000]);
    expect(loadConfig({ flags: { 'query-remote-task-max-error-duration': '10s' } }).query.remoteTaskMaxErrorDuration).to.equal(10_000);
    expect(configError(() => loadConfig({ flags: { role: 'leader' } }))).to.contain(
      "'role' must be one of 'single', 'coordinator', 'worker'",
    );
    expect(configError(() => loadConfig({ flags: { role: 'worker' } }))).to.contain(
      "role 'worker' needs 'discovery.uri' (--discovery-uri)",
    );
    expect(configError(() => loadConfig({ flags: { 'discovery-uri': 'http://c:8080' } }))).to.contain(
      "'discovery.uri' is only for role 'worker' (this node's role is 'single')",
    );
    expect(configError(() => loadConfig({ file: file('old.yaml', 'coordinator: false\n') }))).to.contain(
      "unknown key 'coordinator' (the node's role is now 'role': single, coordinator or worker)",
    );
  });

  it('reads the shared secret from the file, ENGINE_SHARED_SECRET or its flag, and names no secret in an error', () => {
    expect(loadConfig().internalCommunication.sharedSecret).to.equal(undefined);
    const path = file('secret.yaml', 'internalCommunication:\n  sharedSecret: from-file\n');
    expect(loadConfig({ file: path }).internalCommunication.sharedSecret).to.equal('from-file');
    expect(loadConfig({ file: path, env: { ENGINE_SHARED_SECRET: 'from-env' } }).internalCommunication.sharedSecret).to.equal('from-env');
    expect(
      loadConfig({ file: path, env: { ENGINE_SHARED_SECRET: 'from-env' }, flags: { 'internal-communication-shared-secret': 'from-flag' } })
        .internalCommunication.sharedSecret,
    ).to.equal('from-flag');
    // An empty variable is no setting, as for every other variable.
    expect(loadConfig({ env: { ENGINE_SHARED_SECRET: '' } }).internalCommunication.sharedSecret).to.equal(undefined);
    expect(envName(SETTINGS.find((s) => s.flag === 'internal-communication-shared-secret')!)).to.equal('ENGINE_SHARED_SECRET');
    expect(configError(() => loadConfig({ flags: { 'internal-communication-shared-secret': '' } }))).to.contain(
      "'internalCommunication.sharedSecret' must NOT have fewer than 1 characters",
    );
    const wrongType = configError(() =>
      loadConfig({ file: file('secret-number.yaml', 'internalCommunication:\n  sharedSecret: 982451653\n') }),
    );
    expect(wrongType).to.contain("'internalCommunication.sharedSecret' must be string");
    expect(wrongType).not.to.contain('982451653');
  });

  it('has a flag and an environment variable for every setting, and every setting is in the schema', () => {
    expect(new Set(SETTINGS.map((s) => s.flag)).size).to.equal(SETTINGS.length);
    expect(envName(SETTINGS.find((s) => s.flag === 'query-max-memory-per-node')!)).to.equal('ENGINE_MEMORY_QUERY_MAX_MEMORY_PER_NODE');
    for (const setting of SETTINGS) {
      let schema: { properties?: Record<string, unknown> } = CONFIG_SCHEMA;
      for (const key of setting.path) {
        expect(schema.properties, setting.path.join('.')).to.have.property(key);
        schema = schema.properties![key] as typeof schema;
      }
    }
  });

  it('reads the sql settings of routines (Trino sql.*) and refuses what Trino refuses', () => {
    expect(loadConfig({}).sql).to.deep.equal({ path: [] });
    expect(loadConfig({ flags: { 'sql-path': 'example.default, memory.default' } }).sql).to.deep.equal({
      path: [
        { catalog: 'example', schema: 'default' },
        { catalog: 'memory', schema: 'default' },
      ],
    });
    expect(configError(() => loadConfig({ flags: { 'sql-default-function-catalog': 'example', 'sql-path': 'example.default' } }))).to.equal(
      "Invalid configuration:\n  'sql.defaultFunctionCatalog' and 'sql.defaultFunctionSchema' must be set together",
    );
    expect(
      configError(() => loadConfig({ flags: { 'sql-default-function-catalog': 'example', 'sql-default-function-schema': 'default' } })),
    ).to.equal("Invalid configuration:\n  'sql.path' must contain the default function schema example.default");
    expect(configError(() => loadConfig({ flags: { 'sql-path': 'example' } }))).to.equal(
      "Invalid configuration:\n  'sql.path' entry 'example' must be catalog.schema",
    );
  });
});

describe('sizes and durations', () => {
  it('parse as Trino writes them', () => {
    expect(parseDataSize('2GB')).to.equal(2 * 1024 ** 3);
    expect(parseDataSize('1.5kB')).to.equal(1536);
    expect(parseDataSize('10 mb')).to.equal(10 * 1024 ** 2);
    expect(parseDataSize('12')).to.equal(undefined);
    expect(parseDuration('15m')).to.equal(900_000);
    expect(parseDuration('1.5s')).to.equal(1500);
    expect(parseDuration('250ms')).to.equal(250);
    expect(parseDuration('5 parsecs')).to.equal(undefined);
  });

  it('format in the most succinct unit like airlift', () => {
    expect(formatDataSize(0)).to.equal('0B');
    expect(formatDataSize(1536)).to.equal('1.50kB');
    expect(formatDataSize(2048)).to.equal('2kB');
    expect(formatDataSize(3 * 1024 ** 3)).to.equal('3GB');
    expect(formatDuration(0)).to.equal('0.00ns');
    expect(formatDuration(45)).to.equal('45.00ms');
    expect(formatDuration(1234)).to.equal('1.23s');
    expect(formatDuration(0.5)).to.equal('500.00us');
    expect(formatDuration(90_000)).to.equal('1.50m');
  });
});
