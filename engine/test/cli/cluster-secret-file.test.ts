// The secret file of a local `engine cluster`: `engine node` takes a secret from it only for a node it
// lists and only while the cluster's process runs.

import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findClusterSecret, removeClusterSecret, writeClusterSecret } from '../../src/cli/cluster-secret-file.js';

describe('cluster secret file', () => {
  const home = process.env.HOME;
  beforeEach(() => {
    process.env.HOME = mkdtempSync(join(tmpdir(), 'engine-secret-home-'));
  });
  afterEach(() => {
    process.env.HOME = home;
  });

  it("gives the secret of a running cluster for its nodes only, also by 'localhost'", () => {
    const path = writeClusterSecret(8080, {
      pid: process.pid,
      secret: 's3cret',
      nodes: ['http://127.0.0.1:8080', 'http://127.0.0.1:41001'],
    });
    expect(findClusterSecret('http://127.0.0.1:41001')).to.deep.equal({ secret: 's3cret', path });
    expect(findClusterSecret('http://localhost:8080')).to.deep.equal({ secret: 's3cret', path });
    expect(findClusterSecret('http://127.0.0.1:41002')).to.equal(undefined);
    expect(findClusterSecret('http://10.0.0.5:8080')).to.equal(undefined);
    removeClusterSecret(path);
    expect(findClusterSecret('http://127.0.0.1:41001')).to.equal(undefined);
  });

  it('ignores the file of a cluster whose process is gone', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    writeClusterSecret(8080, { pid: gone.pid!, secret: 'stale', nodes: ['http://127.0.0.1:8080'] });
    expect(findClusterSecret('http://127.0.0.1:8080')).to.equal(undefined);
  });
});
