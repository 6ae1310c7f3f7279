// The shell's history file: entries appended one at a time, private to the user, read back newest
// first, multi-line statements whole, and the file cut back to the newest entries once it doubles.

import { expect } from 'chai';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_SIZE, HistoryFile } from '../../src/cli/shell-history.js';

describe('shell history file', () => {
  const file = () => join(mkdtempSync(join(tmpdir(), 'engine-history-')), '.engine_history');

  it('appends each entry, keeps a multi-line one whole, and reads them back newest first', () => {
    const history = new HistoryFile(file());
    history.append('SELECT 1;');
    history.append("SELECT 'a\\b'\nAS two;");
    expect(readFileSync(history.path, 'utf8')).to.equal("SELECT 1;\nSELECT 'a\\\\b'\\nAS two;\n");
    expect(statSync(history.path).mode & 0o777).to.equal(0o600);
    expect(history.load()).to.deep.equal(["SELECT 'a\\b'\nAS two;", 'SELECT 1;']);
    expect(new HistoryFile(join(tmpdir(), 'no-such-dir-engine', 'h')).load()).to.deep.equal([]);
  });

  it('keeps the newest entries, and cuts the file back to them once it holds twice as many', () => {
    const history = new HistoryFile(file());
    const entries = Array.from({ length: 2 * HISTORY_SIZE }, (_, i) => `SELECT ${i};`);
    writeFileSync(history.path, `${entries.join('\n')}\n`);
    const loaded = history.load();
    expect(loaded).to.have.length(HISTORY_SIZE);
    expect(loaded[0]).to.equal(`SELECT ${2 * HISTORY_SIZE - 1};`);
    expect(readFileSync(history.path, 'utf8')).to.equal(`${entries.slice(HISTORY_SIZE).join('\n')}\n`);
    expect(statSync(history.path).mode & 0o777).to.equal(0o600);
  });
});
