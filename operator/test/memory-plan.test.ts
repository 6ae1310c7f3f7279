import { expect } from 'chai';
import { ALLOCATOR_ENV, containerMemoryBytes, heapNeededFor } from 'engine/memory-budget';
import { mebibytes, parseQuantity } from '../src/api/quantity.js';
import { configMap } from '../src/resources/cluster-objects.js';
import { memoryPlan, memoryProblems } from '../src/resources/memory-plan.js';
import { workerTemplate } from '../src/resources/worker-pod.js';
import { engineCluster } from './support/cluster.js';

const MB = 2 ** 20;
const GB = 2 ** 30;

function workerContainer(spec: unknown) {
  return workerTemplate(engineCluster(spec), 'http://10.1.2.3:8080', 'c1').pod.spec!.containers[0];
}

function envOf(container: ReturnType<typeof workerContainer>): Record<string, string | undefined> {
  return Object.fromEntries(container.env!.filter((e) => e.value !== undefined).map((e) => [e.name, e.value]));
}

describe('the memory of engine containers', () => {
  it('reads Kubernetes quantities', () => {
    expect([
      parseQuantity('4Gi'),
      parseQuantity('512Mi'),
      parseQuantity('2G'),
      parseQuantity('1.5'),
      parseQuantity('500m'),
      parseQuantity('1e3'),
      parseQuantity(3),
    ]).to.deep.equal([4 * GB, 512 * MB, 2e9, 1.5, 0.5, 1000, 3]);
    expect(parseQuantity('four')).to.equal(undefined);
    expect(mebibytes(1.5 * MB)).to.equal('2Mi');
  });

  it('sizes a container from memory.nodeMemory: request and limit, the heap it needs, and worker threads from its CPU', () => {
    const c = workerContainer({ workers: { config: { memory: { nodeMemory: '2GB' } }, resources: { limits: { cpu: '3' } } } });
    const memory = mebibytes(containerMemoryBytes({ nodeMemoryBytes: 2 * GB, workerThreads: 3, tpch: true }));
    expect(c.resources).to.deep.equal({ requests: { memory }, limits: { cpu: '3', memory } });
    expect(envOf(c)).to.include({
      ...ALLOCATOR_ENV,
      NODE_OPTIONS: `--max-semi-space-size=16 --max-old-space-size=${Math.ceil(heapNeededFor(2 * GB) / MB)}`,
    });
    const cluster = engineCluster({ workers: { config: { memory: { nodeMemory: '2GB' } }, resources: { limits: { cpu: '3' } } } });
    expect(JSON.parse(configMap(cluster).data!['worker.json'])).to.deep.include({
      memory: { nodeMemory: '2GB' },
      task: { maxWorkerThreads: 3 },
    });
  });

  it('keeps configured worker threads, and sizes for them', () => {
    const spec = engineCluster({ workers: { config: { memory: { nodeMemory: 1073741824 }, task: { maxWorkerThreads: 8 } } } }).spec;
    const plan = memoryPlan(spec, 'worker');
    expect(plan.config).to.deep.equal({});
    expect(plan.resources!.limits!.memory).to.equal(mebibytes(containerMemoryBytes({ nodeMemoryBytes: GB, workerThreads: 8, tpch: true })));
  });

  it("counts the tpch catalog's text pool only where a tpch catalog is configured", () => {
    const withTpch = memoryPlan(engineCluster({ config: { memory: { nodeMemory: '1GB' } } }).spec, 'worker');
    const without = memoryPlan(
      engineCluster({ config: { memory: { nodeMemory: '1GB' } }, catalogs: { mem: { connector: 'memory' } } }).spec,
      'worker',
    );
    expect(parseQuantity(withTpch.resources!.limits!.memory!)! - parseQuantity(without.resources!.limits!.memory!)!).to.be.greaterThan(
      300 * MB,
    );
  });

  it('derives the largest node memory a memory limit holds, when only the limit is given', () => {
    const spec = engineCluster({ coordinator: { resources: { requests: { memory: '1Gi' }, limits: { memory: '4Gi' } } } }).spec;
    const plan = memoryPlan(spec, 'coordinator');
    const nodeMemory = parseInt(String((plan.config.memory as Record<string, string>).nodeMemory), 10) * MB;
    const settings = { workerThreads: 2, tpch: true };
    expect(containerMemoryBytes({ ...settings, nodeMemoryBytes: nodeMemory })).to.be.at.most(4 * GB);
    expect(containerMemoryBytes({ ...settings, nodeMemoryBytes: nodeMemory + MB })).to.be.greaterThan(4 * GB);
    expect(plan.config.task).to.deep.equal({ maxWorkerThreads: 2 });
    expect(plan.resources).to.deep.equal({ requests: { memory: '1Gi' }, limits: { memory: '4Gi' } });
    expect(plan.problems).to.deep.equal([]);
  });

  it('refuses a memory limit below what the node memory needs, naming both', () => {
    const spec = engineCluster({
      workers: { config: { memory: { nodeMemory: '3GB' } }, resources: { requests: { cpu: '2' }, limits: { memory: '4Gi' } } },
    }).spec;
    const needed = mebibytes(containerMemoryBytes({ nodeMemoryBytes: 3 * GB, workerThreads: 2, tpch: true }));
    expect(memoryProblems(spec)).to.deep.equal([
      `spec.workers.resources.limits.memory (4Gi) is below the ${needed} that memory.nodeMemory 3072MB needs (with 2 worker threads and the tpch catalog): raise the limit or lower memory.nodeMemory`,
    ]);
    expect(memoryProblems(engineCluster({ workers: { resources: { limits: { memory: '64Mi' } } } }).spec)[0]).to.match(
      /^spec\.workers\.resources\.limits\.memory \(64Mi\) is below the \d+Mi the engine needs for any node memory$/,
    );
  });

  it('sizes nothing without a node memory or a memory limit, but lets the allocator give memory back', () => {
    const c = workerContainer({ workers: { resources: { requests: { cpu: '1' } } } });
    expect(c.resources).to.deep.equal({ requests: { cpu: '1' } });
    expect(envOf(c)).to.include(ALLOCATOR_ENV);
    expect(envOf(c)).to.not.have.property('NODE_OPTIONS');
    expect(memoryPlan(engineCluster().spec, 'worker').config).to.deep.equal({});
  });
});
