// The interactive shell on a real pseudo terminal (util-linux `script`) against a real server:
// Ctrl-C discards the statement being typed, Up recalls a whole multi-line statement, history is
// saved as whole statements, and a query ends with Trino's summary.

import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_MAIN, ServerProcess } from '../support/server-process.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

class TerminalSession {
  output = '';
  private readonly exited: Promise<unknown>;

  constructor(private readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => child.once('exit', resolve));
  }

  static start(server: string, home: string): TerminalSession {
    const command = `'${process.execPath}' '${ENGINE_MAIN}' sql --server ${server}`;
    return new TerminalSession(spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, HOME: home, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] }));
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
});
