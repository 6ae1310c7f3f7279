// The interactive shell on a real pseudo terminal (util-linux `script`) against a real server:
// Ctrl-C discards the statement being typed, Up recalls a whole multi-line statement, history is
// saved as whole statements, each as it is entered (a killed shell keeps them), and a query ends
// with Trino's summary.

import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { procStat } from '../../src/cli/proc-stat.js';
import { ENGINE_MAIN, ServerProcess } from '../support/server-process.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

class TerminalSession {
  output = '';
  private readonly exited: Promise<unknown>;

  constructor(private readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => child.once('exit', resolve));
  }

  static start(server: string, home: string, options = ''): TerminalSession {
    const command = `'${process.execPath}' '${ENGINE_MAIN}' sql --server ${server} ${options}`;
    return new TerminalSession(
      spawn('script', ['-qfec', command, '/dev/null'], {
        env: { ...process.env, HOME: home, TERM: 'xterm' },
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
  }

  /** Kills the `engine sql` process itself (not `script`) with SIGKILL: nothing of its own runs after. */
  async kill(): Promise<void> {
    const shell = descendants(this.child.pid!).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(ENGINE_MAIN));
    expect(shell, 'the engine sql process').to.not.equal(undefined);
    process.kill(shell!, 'SIGKILL');
    const timer = setTimeout(() => this.child.kill(), 10_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** The output without terminal control sequences. */
  get text(): string {
    return this.output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  }

  async type(keys: string): Promise<void> {
    this.child.stdin!.write(keys);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  /** Waits (generously) until the output holds `text` `times` times. */
  async waitFor(text: string, times = 1): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (this.text.split(text).length - 1 >= times) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${JSON.stringify(text)} in ${JSON.stringify(this.text)}`);
  }

  async quit(): Promise<void> {
    await this.type('\x03quit\r');
    const timer = setTimeout(() => this.child.kill(), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The processes below `root`, found by their parent in /proc. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat !== undefined) parents.set(Number(entry), stat.ppid);
  }
  const below = (pid: number): number[] => [...parents].filter(([, ppid]) => ppid === pid).flatMap(([child]) => [child, ...below(child)]);
  return below(root);
}

describe('engine sql on a terminal', function () {
  let server: ServerProcess;

  before(async function () {
    if (!hasScript) this.skip();
    server = await ServerProcess.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('discards the typed line and the statement so far on Ctrl-C, recalls whole statements with Up, and saves them whole', async () => {
    const home = mkdtempSync(join(tmpdir(), 'engine-shell-'));
    const shell = TerminalSession.start(server.uri, home);
    await shell.waitFor('engine> ');
    await shell.type('SELECT 99\r');
    await shell.type('AS dropped');
    await shell.type('\x03');
    await shell.type('SELx');
    await shell.type('\x03');
    await shell.type('SELECT 7\r');
    await shell.type('AS seven;\r');
    await shell.waitFor('(1 row)');
    try {
      // Before the fix the discarded text stayed in readline's buffer: 'SELxSELECT 7' failed.
      expect(shell.text).not.to.include('SELxSELECT');
      expect(shell.text).not.to.include('failed');
      await shell.type('\x1b[A');
      await shell.type('\r');
      await shell.waitFor('(1 row)', 2);
    } finally {
      await shell.quit();
    }
    expect(shell.text.match(/ seven \r\n-------\r\n {5}7 \r\n\(1 row\)/g)).to.have.lengthOf(2);
    expect(readFileSync(join(home, '.engine_history'), 'utf8')).to.equal('SELECT 7\\nAS seven;\n');
  });

  it('prints the summary Trino prints after a query that ran splits', async () => {
    const shell = TerminalSession.start(server.uri, mkdtempSync(join(tmpdir(), 'engine-shell-')));
    await shell.waitFor('engine> ');
    await shell.type('SELECT count(*) AS n FROM tpch.tiny.nation;\r');
    await shell.waitFor(' rows/s, ');
    await shell.quit();
    expect(shell.text).to.match(
      /\(1 row\)\r\n\r\nQuery \d{8}_\d{6}_\d{5}_[a-z0-9]{5}, FINISHED, 1 node\r\nSplits: \d+ total, \d+ done \(100\.00%\)\r\n\d+\.\d\d \[25 rows, [\d.]+K?B\] \[[\d.]+K? rows\/s, [\d.]+K?B\/s\]\r\n/,
    );
  });

  it('writes each statement to the history file as it is entered, private to the user, so a killed shell keeps it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'engine-shell-'));
    const file = join(home, '.engine_history');
    // A history an older version wrote, readable by others.
    writeFileSync(file, 'SELECT 0;\n');
    chmodSync(file, 0o644);
    const shell = TerminalSession.start(server.uri, home);
    await shell.waitFor('engine> ');
    await shell.type('SELECT 1\r');
    await shell.type('AS one;\r');
    await shell.waitFor('(1 row)');
    await shell.type('SELECT 2 AS two;\r');
    await shell.waitFor('(1 row)', 2);
    // Before: the file was written when the shell exited, so it still held only 'SELECT 0;'.
    await shell.kill();
    expect(readFileSync(file, 'utf8')).to.equal('SELECT 0;\nSELECT 1\\nAS one;\nSELECT 2 AS two;\n');
    expect(statSync(file).mode & 0o777).to.equal(0o600);

    // The next shell recalls them, newest first.
    const next = TerminalSession.start(server.uri, home);
    await next.waitFor('engine> ');
    await next.type('\x1b[A\x1b[A\r');
    await next.waitFor(' one \r\n-----\r\n   1 \r\n(1 row)');
    await next.quit();
    expect(readFileSync(file, 'utf8')).to.equal('SELECT 0;\nSELECT 1\\nAS one;\nSELECT 2 AS two;\nSELECT 1\\nAS one;\n');
  });

  it('prints in --output-format-interactive, not in --output-format', async () => {
    const shell = TerminalSession.start(
      server.uri,
      mkdtempSync(join(tmpdir(), 'engine-shell-')),
      '--output-format CSV --output-format-interactive VERTICAL',
    );
    await shell.waitFor('engine> ');
    await shell.type("SELECT DOUBLE '1' AS d, 2 AS n;\r");
    await shell.waitFor('n | 2');
    await shell.quit();
    expect(shell.text).to.include('-[ RECORD 1 ]\r\nd | 1.0\r\nn | 2\r\n');
  });
});
