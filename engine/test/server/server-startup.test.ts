import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_MAIN, ServerProcess } from '../support/server-process.js';
import { getJson, query } from '../support/statement-http.js';

async function failedStart(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [ENGINE_MAIN, 'server', '--port', '0', '--host', '127.0.0.1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

describe('engine server startup', function () {
  const dir = mkdtempSync(join(tmpdir(), 'engine-startup-'));

  it('starts from a YAML configuration file and serves its catalogs', async () => {
    const file = join(dir, 'ok.yaml');
    writeFileSync(
      file,
      'node:\n  id: from-file\n  environment: yaml_env\ncatalogs:\n  - name: scratch\n    connector: memory\n  - name: system\n    connector: system\n',
    );
    const server = await ServerProcess.start(['--config', file]);
    try {
      const info = await getJson<{ environment: string }>(`${server.uri}/v1/info`);
      expect(info.body.environment).to.equal('yaml_env');
      const listening = server.logs.find((l) => l.msg === 'listening')!;
      expect(listening).to.include({ nodeId: 'from-file', port: server.port, uri: server.uri });
      expect(listening.catalogs).to.deep.equal(['scratch', 'system']);
    } finally {
      await server.stop();
    }
  });

  it('serves the system catalog when the configuration lists other catalogs only', async () => {
    const file = join(dir, 'no-system.yaml');
    writeFileSync(file, 'catalogs:\n  - name: scratch\n    connector: memory\n');
    const server = await ServerProcess.start(['--config', file]);
    try {
      expect(server.logs.find((l) => l.msg === 'listening')!.catalogs).to.deep.equal(['scratch', 'system']);
      expect(await query(server.uri, 'SHOW CATALOGS')).to.deep.equal([['scratch'], ['system']]);
      expect(await query(server.uri, "SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'")).to.deep.equal([[1]]);
    } finally {
      await server.stop();
    }
  });

  it('takes settings from environment variables', async () => {
    const server = await ServerProcess.start([], { ENGINE_NODE_ENVIRONMENT: 'from_env' });
    try {
      expect((await getJson<{ environment: string }>(`${server.uri}/v1/info`)).body.environment).to.equal('from_env');
    } finally {
      await server.stop();
    }
  });

  it('stops with a message naming a wrong key or value', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'http:\n  prot: 8080\nmemory:\n  nodeMemory: plenty\n');
    const { code, stderr } = await failedStart(['--config', file]);
    expect(code).to.equal(2);
    expect(stderr).to.contain(`Invalid configuration file ${file}`);
    expect(stderr).to.contain("unknown key 'http.prot'");
    expect(stderr).to.contain("'memory.nodeMemory' must be a byte count or a size such as '512MB'");
    const flag = await failedStart(['--log-level', 'chatty']);
    expect(flag.code).to.equal(2);
    expect(flag.stderr).to.contain("'log.level' must be one of");
    const unknown = await failedStart(['--prot', '1']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain("engine server: Unknown option '--prot'");
  });

  it('stops with a clear message for what this version does not offer', async () => {
    const file = join(dir, 'tpch-properties.json');
    writeFileSync(file, JSON.stringify({ catalogs: [{ name: 'tpch', connector: 'tpch', properties: { splits: 4 } }] }));
    const properties = await failedStart(['--config', file]);
    expect(properties.code).to.equal(2);
    expect(properties.stderr).to.contain("Catalog 'tpch': unknown tpch connector properties: splits (known: tpch.column-naming)");
    const worker = await failedStart(['--role', 'worker']);
    expect(worker.code).to.equal(2);
    expect(worker.stderr).to.contain("role 'worker' needs 'discovery.uri' (--discovery-uri)");
  });

  it('stops on SIGTERM', async () => {
    const server = await ServerProcess.start();
    expect(await server.stop()).to.equal(0);
  });
});
