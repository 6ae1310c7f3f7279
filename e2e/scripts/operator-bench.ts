// The operator's figures on the test Kubernetes (make bench-operator): how long from a `replicas`
// edit to the removed pod gone, for an idle worker and for one busy with a query; how long from an
// edit to the operator's first write (its reconcile latency); and the operator process's memory with
// 20 EngineClusters. Figures, not assertions: they depend on the machine.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../src/kubelet/images.js';
import { TestCluster, eventually } from '../test/support/cluster.js';
import { PodHistory } from '../test/support/pod-history.js';
import { runQuery } from '../test/support/trino-queries.js';

const workerSelector = 'engine.io/cluster=engine,app.kubernetes.io/component=worker';
const clusters = Number(process.argv[2] ?? '20');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function rssMiB(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

async function main(): Promise<void> {
  const cluster = await TestCluster.startWithNode();
  try {
    await cluster.helm(['install', 'engine', path.join(repoRoot, 'charts', 'engine'), '--wait', '--timeout', '60s']);
    const pods = await PodHistory.start(cluster.kubeconfigPath, 'default', 'app.kubernetes.io/managed-by=engine-operator');
    const workers = async (): Promise<string[]> =>
      (await cluster.json(['get', 'pods', '-l', workerSelector])).items
        .filter((p: any) => !p.metadata.deletionTimestamp)
        .map((p: any) => p.metadata.name as string);
    const ready = async (n: number) =>
      eventually(async () => {
        const s = (await cluster.json(['get', 'enginecluster', 'engine'])).status;
        return s?.state === 'Available' && s.workers.ready === n && (await workers()).length === n;
      }, 60_000);
    await cluster.ok(['apply', '-f', path.join(repoRoot, 'examples', 'minimal.yaml')]);
    await ready(2);
    const svc = await cluster.json(['get', 'service', 'engine']);
    const server = `http://${svc.spec.clusterIP}:${svc.spec.ports[0].port}`;

    /** Scales 2 -> 1 and times it until the removed pod is gone; `busy` runs a long query meanwhile. */
    const scaleIn = async (busy: boolean): Promise<{ ms: number; query?: number }> => {
      const before = await workers();
      let query: Promise<number> | undefined;
      if (busy) {
        const started = Date.now();
        query = runQuery(server, 'SELECT count(*), sum(l_quantity) FROM tpch.sf1.lineitem').then(() => Date.now() - started);
        await new Promise((r) => setTimeout(r, 1500));
      }
      const edited = Date.now();
      await cluster.ok(['scale', 'enginecluster/engine', '--replicas=1']);
      await eventually(async () => before.some((p) => pods.deleted().includes(p)), 120_000);
      const gone = before.find((p) => pods.deleted().includes(p))!;
      const ms = pods.versions.get(gone)!.find((v) => v.type === 'DELETED')!.at - edited;
      const queryMs = await query;
      await ready(1);
      return { ms, query: queryMs };
    };
    /** Scales 1 -> 2 and times it until the operator made the new pod. */
    const scaleOut = async (): Promise<number> => {
      const known = new Set(pods.versions.keys());
      const edited = Date.now();
      await cluster.ok(['scale', 'enginecluster/engine', '--replicas=2']);
      await eventually(async () => [...pods.versions.keys()].some((p) => !known.has(p)), 30_000);
      const created = [...pods.versions].find(([p]) => !known.has(p))![1][0].at;
      await ready(2);
      return created - edited;
    };

    const idle: number[] = [];
    const busy: { ms: number; query?: number }[] = [];
    const latency: number[] = [];
    for (let i = 0; i < 3; i++) {
      idle.push((await scaleIn(false)).ms);
      latency.push(await scaleOut());
      busy.push(await scaleIn(true));
      latency.push(await scaleOut());
    }
    console.log(`replicas edit -> removed pod gone, idle worker: median ${median(idle)} ms (${idle.join(', ')})`);
    console.log(
      `replicas edit -> removed pod gone, worker busy with a query: median ${median(busy.map((b) => b.ms))} ms (${busy.map((b) => `${b.ms} ms, its query ran ${b.query} ms`).join('; ')})`,
    );
    console.log(`replicas edit -> the operator's new pod (reconcile latency): median ${median(latency)} ms (${latency.join(', ')})`);

    const [operator] = (await cluster.json(['get', 'pods', '-l', 'app.kubernetes.io/name=engine-operator'])).items;
    const pid = Number(/^process:\/\/(\d+)$/.exec(operator.status.containerStatuses[0].containerID)![1]);
    const rssBefore = rssMiB(pid);
    const manifests = Array.from(
      { length: clusters },
      (_, i) => `apiVersion: engine.io/v1alpha1\nkind: EngineCluster\nmetadata: {name: c${i}}\nspec:\n  workers: {replicas: 0}\n`,
    ).join('---\n');
    await cluster.ok(['apply', '-f', '-'], manifests);
    await eventually(
      async () =>
        (await cluster.json(['get', 'enginecluster'])).items.filter((c: any) => c.status?.state === 'Available').length === clusters + 1,
      300_000,
    );
    await new Promise((r) => setTimeout(r, 20_000));
    console.log(
      `operator memory (RSS): ${rssBefore} MiB with 1 cluster, ${rssMiB(pid)} MiB with ${clusters + 1} clusters Available (${clusters} of them without workers: each still has its coordinator)`,
    );
    pods.stop();
    const deleting = Date.now();
    await cluster.ok(['delete', 'enginecluster', '--all', '--timeout=120s']);
    await eventually(
      async () => (await cluster.json(['get', 'pods', '-l', 'app.kubernetes.io/managed-by=engine-operator'])).items.length === 0,
      120_000,
    );
    console.log(`kubectl delete enginecluster --all -> every pod gone: ${Date.now() - deleting} ms for ${clusters + 1} clusters`);
    await cluster.helm(['uninstall', 'engine', '--wait']);
  } finally {
    await cluster.stop();
  }
}

await main();
