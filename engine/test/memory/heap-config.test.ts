// The node's memory and V8's heap limit agree: a node memory that does not fit the heap is refused
// at startup with the flag to use; left unset, it is derived from the heap; and a query needing
// more than that fails with EXCEEDED_LOCAL_MEMORY_LIMIT while the server stays up.

import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { SEMI_SPACE_FLAG, maxNodeMemoryForHeap } from '../../src/config/memory-budget.js';
import { ENGINE_MAIN, ServerProcess } from '../support/server-process.js';
import { getJson, query, runStatement } from '../support/statement-http.js';

const MB = 1024 * 1024;

async function failedStart(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [ENGINE_MAIN, 'server', '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

describe('heap limit and node memory', function () {
  this.timeout(120_000);

  it('refuses a node memory that does not fit the heap, naming the heap flag that would fit it', async () => {
    const { code, stderr } = await failedStart(['--node-memory', '1GB'], { NODE_OPTIONS: '--max-old-space-size=256' });
    expect(code).to.equal(2);
    expect(stderr).to.contain('memory.nodeMemory (1024MB) does not fit the V8 heap limit of 256MB');
    expect(stderr).to.contain('NODE_OPTIONS=--max-old-space-size=1366');
  });

  describe('with a 96 MB heap and no node memory configured', () => {
    let server: ServerProcess;
    before(async () => {
      // With the semi-space the image pins (64 MB by default from Node 24: two of them would not leave a 96 MB heap room).
      server = await ServerProcess.start([], { NODE_OPTIONS: `--max-old-space-size=96 ${SEMI_SPACE_FLAG}` });
    });
    after(async () => {
      await server.stop();
    });

    it('derives the node memory from the heap', async () => {
      const status = await getJson<{ memoryInfo: { pools: { general: { maxBytes: number } } } }>(`${server.uri}/v1/status`);
      expect(status.body.memoryInfo.pools.general.maxBytes).to.equal(maxNodeMemoryForHeap(96 * MB));
    });

    it('fails a query needing more with EXCEEDED_LOCAL_MEMORY_LIMIT and stays up', async () => {
      const run = await runStatement(
        server.uri,
        `SELECT count(DISTINCT l_comment || l_shipinstruct || cast(l_orderkey AS varchar)) FROM tpch."sf0.1".lineitem`,
      );
      expect(run.final.error?.errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
      // The node's memory (32 MB) is what is full, not the query's own limit (2 GB): the message says so, with both figures.
      expect(run.final.error?.message).to.match(
        /^Query exceeded per-node memory limit: the node's memory of 32\.00MB is full, all queries together holding [\d.]+[kM]?B \[Allocated: [\d.]+[kM]?B, Delta: [\d.]+[kM]?B, Top Consumers: \{hashAggregation=/,
      );
      expect(server.running).to.equal(true);
      expect(await query(server.uri, 'SELECT count(*) FROM tpch.tiny.nation')).to.deep.equal([[25]]);
    });
  });
});
