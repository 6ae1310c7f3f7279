// A throwaway PostgreSQL server for tests: a new cluster (initdb) in a temporary folder, started
// as a child process on a free loopback port and removed when stopped. initdb and postgres refuse
// to run as root, so as root they run as the `postgres` user (Debian's package makes it). The
// database's default collation is ICU's English, not "C": what the connector pushes down must not
// depend on it. Host connections need the password (SCRAM), so wrong credentials can be tried.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const POSTGRES_ROOT = '/usr/lib/postgresql';

/** The newest installed server's bin folder (Debian's postgresql package). */
function binFolder(): string {
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT).filter((v) => existsSync(path.join(POSTGRES_ROOT, v, 'bin', 'initdb')))
    : [];
  if (versions.length === 0)
    throw new Error(`No PostgreSQL server under ${POSTGRES_ROOT}: install Debian's postgresql package (make test does)`);
  versions.sort((a, b) => Number(b) - Number(a));
  return path.join(POSTGRES_ROOT, versions[0], 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** uid and gid to run as: the postgres user's when we are root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export class PostgresServer {
  static readonly user = 'postgres';
  static readonly password = 'engine-test-password';
  private process: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  private constructor(
    private readonly folder: string,
    readonly port: number,
    private readonly bin: string,
    private readonly identity: { uid: number; gid: number } | undefined,
  ) {}

  static async start(): Promise<PostgresServer> {
    const bin = binFolder();
    const folder = mkdtempSync(path.join(tmpdir(), 'engine-pg-'));
    const identity = runAs();
    if (identity !== undefined) chownSync(folder, identity.uid, identity.gid);
    const passwordFile = path.join(folder, 'password');
    writeFileSync(passwordFile, PostgresServer.password);
    if (identity !== undefined) chownSync(passwordFile, identity.uid, identity.gid);
    execFileSync(
      path.join(bin, 'initdb'),
      [
        '-D',
        path.join(folder, 'data'),
        '-U',
        PostgresServer.user,
        '--pwfile',
        passwordFile,
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
        '--locale-provider=icu',
        '--icu-locale=en',
        '--no-sync',
      ],
      { stdio: 'pipe', ...identity },
    );
    const server = new PostgresServer(folder, await freePort(), bin, identity);
    await server.run();
    return server;
  }

  get connectionUrl(): string {
    return `jdbc:postgresql://127.0.0.1:${this.port}/postgres`;
  }

  /** Catalog properties for a postgresql catalog on this server. */
  catalogProperties(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'connection-url': this.connectionUrl,
      'connection-user': PostgresServer.user,
      'connection-password': PostgresServer.password,
      ...extra,
    };
  }

  /** Runs statements as the superuser; returns the last one's rows. */
  async sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, parameters: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({
      host: '127.0.0.1',
      port: this.port,
      user: PostgresServer.user,
      password: PostgresServer.password,
      database: 'postgres',
    });
    await client.connect();
    try {
      return (await client.query<R>(text, parameters)).rows;
    } finally {
      await client.end();
    }
  }

  /**
   * Starts the server (again, after `crash`) and waits until it takes connections. fsync is off for
   * speed; commits stay synchronous so that what a test created survives `crash` (an immediate
   * shutdown drops WAL not yet written).
   */
  async run(): Promise<void> {
    const child = spawn(
      path.join(this.bin, 'postgres'),
      [
        '-D',
        path.join(this.folder, 'data'),
        '-p',
        String(this.port),
        '-k',
        this.folder,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], ...this.identity },
    );
    let log = '';
    child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    this.process = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    for (let attempt = 0; ; attempt++) {
      if (child.exitCode !== null) throw new Error(`PostgreSQL exited at start: ${log}`);
      try {
        await this.sql('SELECT 1');
        return;
      } catch (e) {
        if (attempt > 300) throw new Error(`PostgreSQL did not start: ${(e as Error).message}\n${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Stops the server at once, as a crash would (immediate shutdown: every backend quits); `run` starts it again. */
  async crash(): Promise<void> {
    this.process?.kill('SIGQUIT');
    await this.exited;
  }

  async stop(): Promise<void> {
    this.process?.kill('SIGINT');
    await this.exited;
    rmSync(this.folder, { recursive: true, force: true });
  }
}
