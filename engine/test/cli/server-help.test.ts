import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { SETTINGS } from '../../src/config/settings.js';
import { ENGINE_MAIN } from '../support/server-process.js';

describe('engine server --help', () => {
  it('lists every option as a table: the descriptions start in one column, apart from the option', () => {
    const run = spawnSync(process.execPath, [ENGINE_MAIN, 'server', '--help'], { encoding: 'utf8' });
    expect(run.status).to.equal(0);
    const rows = run.stdout.split('\n').filter((line) => line.startsWith('  --'));
    expect(rows.map((line) => line.trim().split(' ')[0])).to.deep.equal(['--config', ...SETTINGS.map((s) => `--${s.flag}`), '--help']);
    const columns = new Set(rows.map((line) => /^ {2}--\S+(?: [A-Z]+)? {2,}(?=\S)/.exec(line)?.[0].length));
    expect([...columns]).to.have.lengthOf(1);
    expect(columns.has(undefined)).to.equal(false);
    expect(run.stdout).to.match(
      /^ {2}--query-max-memory-per-node VALUE {2,}memory\.queryMaxMemoryPerNode \(ENGINE_MEMORY_QUERY_MAX_MEMORY_PER_NODE\)$/m,
    );
  });
});
