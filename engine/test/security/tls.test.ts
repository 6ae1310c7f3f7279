// HTTPS on real server processes: the certificate chain and an encrypted key; the certificate
// reloaded when Kubernetes-style symlinks are swapped, with a query running across the swap; a bad
// new pair keeping the old one; start-up refusals that name the problem; which ports are open; and
// a coordinator and a worker talking HTTPS to each other, checked against the configured CA.

import { expect } from 'chai';
import { mkdirSync, renameSync, symlinkSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { once } from 'node:events';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, query } from '../support/statement-http.js';
import { basic, issueServerCertificate, KEY_PASSPHRASE, makeTlsFiles, writePasswordFile, type TlsFiles } from '../support/tls-fixtures.js';

const SECRET = 'internal secret of the tls test 5e2f';

/** The certificate a TLS client is shown by the server at `port`. */
async function servedCertificate(port: number, ca: string): Promise<PeerCertificate & { issuerCertificate?: PeerCertificate }> {
  const socket = tlsConnect({ host: '127.0.0.1', port, ca, servername: 'localhost' });
  await once(socket, 'secureConnect');
  const certificate = socket.getPeerCertificate(true);
  socket.destroy();
  return certificate;
}

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startFails(args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const server = await ServerProcess.start(args, { ENGINE_SHARED_SECRET: SECRET, ...env });
    await server.stop();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the server started');
}

describe('HTTPS', function () {
  this.timeout(60_000);
  let tls: TlsFiles;
  let previousDispatcher: Dispatcher;

  before(() => {
    tls = makeTlsFiles();
    // fetch in this process trusts the test CA (as the engine CLI's --ca-file does).
    previousDispatcher = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ connect: { ca: tls.ca } }));
  });

  after(() => {
    setGlobalDispatcher(previousDispatcher);
    tls?.remove();
  });

  it('reloads a certificate whose Kubernetes-style symlinks were swapped, without dropping a running query', async () => {
    // A mounted Secret: tls.crt -> ..data/tls.crt, ..data -> ..<timestamp>/ (swapped as a whole).
    const mount = join(tls.dir, 'mount');
    const version = (name: string, certificate: string) => {
      mkdirSync(join(mount, name), { recursive: true });
      copyFileSync(join(tls.dir, `${certificate}.crt`), join(mount, name, 'tls.crt'));
      copyFileSync(join(tls.dir, `${certificate}.key`), join(mount, name, 'tls.key'));
    };
    version('..v1', 'server');
    symlinkSync('..v1', join(mount, '..data'));
    symlinkSync('..data/tls.crt', join(mount, 'tls.crt'));
    symlinkSync('..data/tls.key', join(mount, 'tls.key'));
    const server = await ServerProcess.start([
      '--https-enabled',
      'true',
      '--https-port',
      '0',
      '--https-certificate-file',
      join(mount, 'tls.crt'),
      '--https-key-file',
      join(mount, 'tls.key'),
      '--https-refresh-period',
      '100ms',
    ]);
    try {
      const base = `https://127.0.0.1:${server.port}`;
      const first = await servedCertificate(server.port, tls.ca);
      expect(first.subject.CN).to.equal('engine-test-server');
      // The chain file's intermediate is sent: a client that trusts only the root accepts it.
      expect(first.issuerCertificate?.subject.CN).to.equal('Engine Test Intermediate CA');
      const running = await postStatement(base, 'SELECT count(*) FROM tpch.tiny.lineitem');
      expect(running.status).to.equal(200);

      // A broken pair (this key does not belong to this certificate) is refused and the old one kept.
      issueServerCertificate(tls.dir, 'renewed', '/CN=engine-test-server-renewed');
      mkdirSync(join(mount, '..broken'));
      copyFileSync(join(tls.dir, 'renewed.crt'), join(mount, '..broken', 'tls.crt'));
      copyFileSync(join(tls.dir, 'server.key'), join(mount, '..broken', 'tls.key'));
      swapSymlink(mount, '..broken');
      await until('the broken pair refused', () =>
        server.logs.some((l) => l.msg === 'TLS certificate not reloaded: keeping the last good one'),
      );
      expect(String(server.logs.find((l) => l.msg === 'TLS certificate not reloaded: keeping the last good one')!.reason)).to.include(
        'the key does not belong to the certificate',
      );
      expect((await servedCertificate(server.port, tls.ca)).fingerprint256).to.equal(first.fingerprint256);

      version('..v2', 'renewed');
      swapSymlink(mount, '..v2');
      await until(
        'the renewed certificate served',
        async () => (await servedCertificate(server.port, tls.ca)).subject.CN === 'engine-test-server-renewed',
      );
      expect(
        server.logs.some((l) => l.msg === 'TLS certificate reloaded' && String(l.subject).includes('engine-test-server-renewed')),
      ).to.equal(true);
      const finished = await follow(running);
      expect(finished.final.error).to.equal(undefined);
      expect(finished.rows).to.deep.equal([[60175]]);
      expect(server.running).to.equal(true);
    } finally {
      await server.stop();
    }
  });

  it('takes an encrypted key with its passphrase, and keeps plain HTTP open while authentication is off', async () => {
    const server = await ServerProcess.start(
      ['--https-enabled', 'true', '--https-port', '0', '--https-certificate-file', tls.chainFile, '--https-key-file', tls.encryptedKeyFile],
      { ENGINE_HTTP_HTTPS_KEY_PASSPHRASE: KEY_PASSPHRASE },
    );
    try {
      expect(await query(`https://127.0.0.1:${server.port}`, 'SELECT 1')).to.deep.equal([[1]]);
      const listening = server.logs.find((l) => l.msg === 'listening')!;
      expect(listening.uri).to.equal(`https://127.0.0.1:${server.port}`);
      expect(await query(`http://127.0.0.1:${listening.httpPort as number}`, 'SELECT 2')).to.deep.equal([[2]]);
    } finally {
      await server.stop();
    }
  });

  it('refuses to start with a wrong or missing key passphrase, a missing file, or credentials without HTTPS', async () => {
    const https = ['--https-enabled', 'true', '--https-port', '0', '--https-certificate-file', tls.chainFile];
    expect(
      await startFails([...https, '--https-key-file', tls.encryptedKeyFile], { ENGINE_HTTP_HTTPS_KEY_PASSPHRASE: 'wrong' }),
    ).to.include('the key passphrase (http.https.keyPassphrase) is wrong');
    expect(await startFails([...https, '--https-key-file', tls.encryptedKeyFile])).to.match(
      /the key is encrypted: set http.https.keyPassphrase|passphrase/,
    );
    expect(await startFails([...https, '--https-key-file', join(tls.dir, 'nope.key')])).to.include(
      `Cannot read the TLS key (http.https.keyFile) ${join(tls.dir, 'nope.key')}`,
    );
    expect(await startFails([...https.slice(0, 4)])).to.include(
      "'http.https.enabled' needs 'http.https.certificateFile' and 'http.https.keyFile'",
    );
    writePasswordFile(join(tls.dir, 'users.db'), { alice: 'x' });
    expect(await startFails(['--authentication-types', 'PASSWORD', '--password-file', join(tls.dir, 'users.db')])).to.include(
      "it needs 'http.https.enabled'",
    );
    writeFileSync(join(tls.dir, 'syntax.db'), `# users\nalice:${'$2y$10$' + 'a'.repeat(53)}\nbob has no colon\n`);
    expect(
      await startFails([
        ...https,
        '--https-key-file',
        tls.keyFile,
        '--authentication-types',
        'PASSWORD',
        '--password-file',
        join(tls.dir, 'syntax.db'),
      ]),
    ).to.include(`Invalid password file ${join(tls.dir, 'syntax.db')} line 3: expected user:hash`);
    writeFileSync(join(tls.dir, 'bad.db'), `alice:${'$2y$04$' + 'a'.repeat(53)}\n`);
    expect(
      await startFails([
        ...https,
        '--https-key-file',
        tls.keyFile,
        '--authentication-types',
        'PASSWORD',
        '--password-file',
        join(tls.dir, 'bad.db'),
      ]),
    ).to.include(`Invalid password file ${join(tls.dir, 'bad.db')} line 1 (user 'alice'): bcrypt cost 4 is below the minimum of 8`);
  });

  it('runs a coordinator and a worker over HTTPS with password authentication, checked against the CA file', async () => {
    const passwords = join(tls.dir, 'cluster.db');
    writePasswordFile(passwords, { alice: 'alice cluster password' });
    const https = [
      '--https-enabled',
      'true',
      '--https-port',
      '0',
      '--https-certificate-file',
      tls.chainFile,
      '--https-key-file',
      tls.keyFile,
      '--internal-communication-ca-file',
      tls.caFile,
      '--environment',
      'tls_cluster',
    ];
    const auth = ['--authentication-types', 'PASSWORD', '--password-file', passwords];
    const coordinator = await ServerProcess.start(
      [
        '--role',
        'coordinator',
        '--node-id',
        'coordinator',
        '--node-scheduler-include-coordinator',
        'false',
        '--heartbeat-interval',
        '250ms',
        '--heartbeat-timeout',
        '2s',
        ...https,
        ...auth,
      ],
      { ENGINE_SHARED_SECRET: SECRET },
    );
    const base = `https://127.0.0.1:${coordinator.port}`;
    let worker: ServerProcess | undefined;
    try {
      worker = await ServerProcess.start(
        ['--role', 'worker', '--node-id', 'worker-1', '--discovery-uri', base, '--announcement-interval', '500ms', ...https, ...auth],
        { ENGINE_SHARED_SECRET: SECRET },
      );
      const headers = { Authorization: basic('alice', 'alice cluster password') };
      const activeWorkers = "SELECT http_uri FROM system.runtime.nodes WHERE state = 'active' AND NOT coordinator";
      await until('the worker active', async () => (await query(base, activeWorkers, headers)).length === 1);
      expect(await query(base, activeWorkers, headers)).to.deep.equal([[`https://127.0.0.1:${worker.port}`]]);
      expect(await query(base, 'SELECT count(*), sum(n_regionkey) FROM tpch.tiny.nation', headers)).to.deep.equal([[25, 50]]);
      // The worker's client endpoints want credentials too; its status stays public.
      expect((await getJson(`https://127.0.0.1:${worker.port}/v1/node`)).status).to.equal(401);
      expect((await getJson(`https://127.0.0.1:${worker.port}/v1/status`)).status).to.equal(200);
    } finally {
      await worker?.stop();
      await coordinator.stop();
    }
  });
});

/** Points ..data at another version directory in one rename, as the kubelet does. */
function swapSymlink(mount: string, target: string): void {
  const temporary = join(mount, '..data_tmp');
  symlinkSync(target, temporary);
  renameSync(temporary, join(mount, '..data'));
}
