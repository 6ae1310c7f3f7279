// A real S3 server for tests: Ceph's RADOS Gateway (Debian's `radosgw`, Ceph 16) over a throwaway
// one-node cluster (a monitor and an in-memory OSD) in a temporary folder, on free loopback ports,
// its three daemons children of the test, stopped at the end. Unlike the emulators it checks AWS
// Signature V4 and honours `If-None-Match: *` on PUT. Installed with apt-get when missing (as root;
// otherwise the tests that need it are skipped, saying why).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../free-port.js';

export const CEPH_PACKAGES = ['ceph-mon', 'ceph-osd', 'radosgw'] as const;
const STARTUP_LIMIT_MS = 90_000;

/** Why Ceph cannot run here, or undefined when it can (installing it first if need be). */
export function ensureCephInstalled(): string | undefined {
  if (hasRadosgw()) return undefined;
  if (process.getuid?.() !== 0) return `radosgw is not installed and installing it needs root (apt-get install ${CEPH_PACKAGES.join(' ')})`;
  const environment = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...CEPH_PACKAGES], { env: environment, encoding: 'utf8' });
  let result = install();
  if (result.status !== 0) {
    spawnSync('apt-get', ['update'], { env: environment, encoding: 'utf8' });
    result = install();
  }
  if (result.status !== 0 || !hasRadosgw())
    return `apt-get could not install ${CEPH_PACKAGES.join(' ')}: ${(result.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`;
  return undefined;
}

function hasRadosgw(): boolean {
  return spawnSync('radosgw', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Runs a Ceph command to its end; its output, or an error with its output. */
function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

export class CephRgw {
  private constructor(
    private readonly directory: string,
    private readonly daemons: ChildProcess[],
    readonly endpoint: string,
    readonly accessKey: string,
    readonly secretKey: string,
  ) {}

  static async start(): Promise<CephRgw> {
    const directory = await mkdtemp(path.join(tmpdir(), 'ceph-rgw-'));
    const daemons: ChildProcess[] = [];
    try {
      const [monV2, monV1, rgwPort] = [await freePort(), await freePort(), await freePort()];
      const conf = path.join(directory, 'ceph.conf');
      const fsid = randomUUID();
      await writeFile(conf, configuration(directory, fsid, monV2, monV1, rgwPort));
      for (const dir of ['mon', 'osd/osd.0', 'run', 'log', 'rgw']) await mkdir(path.join(directory, dir), { recursive: true });
      const keyring = path.join(directory, 'keyring');
      await run('ceph-authtool', ['--create-keyring', keyring, '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *']);
      await run('ceph-authtool', [
        keyring,
        '--gen-key',
        '-n',
        'client.admin',
        '--cap',
        'mon',
        'allow *',
        '--cap',
        'osd',
        'allow *',
        '--cap',
        'mgr',
        'allow *',
      ]);
      await run('ceph-authtool', [keyring, '--gen-key', '-n', 'client.rgw', '--cap', 'mon', 'allow rw', '--cap', 'osd', 'allow rwx']);
      const monmap = path.join(directory, 'monmap');
      await run('monmaptool', ['--create', '--addv', 'a', `[v2:127.0.0.1:${monV2},v1:127.0.0.1:${monV1}]`, '--fsid', fsid, monmap]);
      await run('ceph-mon', ['-c', conf, '--mkfs', '-i', 'a', '--monmap', monmap, '--keyring', keyring]);
      daemons.push(daemon('ceph-mon', ['-c', conf, '-f', '-i', 'a']));
      const osdId = (await run('ceph', ['-c', conf, '--connect-timeout', '30', 'osd', 'create'])).trim();
      await run('ceph-osd', ['-c', conf, '-i', osdId, '--mkfs', '--mkkey', '--no-mon-config']);
      await run('ceph', [
        '-c',
        conf,
        'auth',
        'add',
        `osd.${osdId}`,
        'osd',
        'allow *',
        'mon',
        'allow profile osd',
        '-i',
        path.join(directory, `osd/osd.${osdId}/keyring`),
      ]);
      daemons.push(daemon('ceph-osd', ['-c', conf, '-f', '-i', osdId]));
      daemons.push(daemon('radosgw', ['-c', conf, '-f', '-n', 'client.rgw']));
      const endpoint = `http://127.0.0.1:${rgwPort}`;
      await untilAnswering(endpoint, daemons);
      const [accessKey, secretKey] = ['LAKEACCESSKEY', 'lake-secret-key'];
      await run('radosgw-admin', [
        '-c',
        conf,
        'user',
        'create',
        '--uid=lake',
        '--display-name=lake',
        `--access-key=${accessKey}`,
        `--secret=${secretKey}`,
      ]);
      return new CephRgw(directory, daemons, endpoint, accessKey, secretKey);
    } catch (e) {
      await stopAll(daemons);
      await rm(directory, { recursive: true, force: true });
      throw e;
    }
  }

  async stop(): Promise<void> {
    await stopAll(this.daemons);
    await rm(this.directory, { recursive: true, force: true });
  }
}

function daemon(command: string, args: readonly string[]): ChildProcess {
  return spawn(command, args, { stdio: 'ignore' });
}

async function stopAll(daemons: readonly ChildProcess[]): Promise<void> {
  // The gateway first, the monitor last: each can then leave cleanly.
  for (const child of [...daemons].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

async function untilAnswering(endpoint: string, daemons: readonly ChildProcess[]): Promise<void> {
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    const dead = daemons.find((d) => d.exitCode !== null);
    if (dead) throw new Error(`${dead.spawnfile} exited with ${dead.exitCode} while Ceph started`);
    try {
      if ((await fetch(endpoint)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`radosgw did not answer at ${endpoint} within ${STARTUP_LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function configuration(directory: string, fsid: string, monV2: number, monV1: number, rgwPort: number): string {
  return `[global]
fsid = ${fsid}
mon host = [v2:127.0.0.1:${monV2},v1:127.0.0.1:${monV1}]
mon initial members = a
public addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = ${directory}/keyring
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
run dir = ${directory}/run
log file = ${directory}/log/$name.log
admin socket = ${directory}/run/$name.asok
pid file = ${directory}/run/$name.pid
[mon]
mon data = ${directory}/mon/$name
[osd]
osd data = ${directory}/osd/$name
keyring = $osd_data/keyring
osd objectstore = memstore
memstore device bytes = 1073741824
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${directory}/rgw
`;
}
