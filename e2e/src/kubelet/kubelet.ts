// The process kubelet: registers its Node, runs the pods bound to it (one PodWorker each, fed by
// the store's pod events as an informer feeds the real one), keeps ConfigMap and Secret volumes
// current, and serves pods/log for the API server.
import { clusterDnsFile, clusterDnsVariable } from '../dns/cluster-dns.js';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { badRequest } from '../apiserver/status.js';
import type { KubeObject } from '../apiserver/types.js';
import { now } from '../apiserver/names.js';
import { EventRecorder } from '../cluster/events.js';
import { kinds, type Objects } from '../cluster/objects.js';
import type { ClusterNetwork } from '../net/network.js';
import { kubeletBackoff, type BackoffPolicy } from './container-runner.js';
import { followLog, readLog, type LogQuery } from './logs.js';
import { PodWorker, type KubeletHost } from './pod-worker.js';
import { podSpec } from './pod-spec.js';

export interface KubeletOptions {
  nodeName: string;
  network: ClusterNetwork;
  /** Where pods' folders (volumes, logs) live. */
  stateDir: string;
  /** The kubeconfig in-pod clients get through $KUBECONFIG (there is no in-cluster HTTPS endpoint). */
  kubeconfigPath: string;
  backoff?: Partial<BackoffPolicy>;
}

export interface RunningContainer {
  namespace: string;
  pod: string;
  podUid: string;
  container: string;
  processGroup: number;
}

export const kubeletVersion = 'v1.32.3';

export class Kubelet implements KubeletHost {
  readonly recorder: EventRecorder;
  readonly nodeIp: string;
  readonly podsDir: string;
  readonly backoff: BackoffPolicy;
  private readonly workers = new Map<string, PodWorker>();
  private readonly unsubscribe: (() => void)[] = [];
  private stopped = false;

  constructor(
    readonly objects: Objects,
    private readonly options: KubeletOptions,
  ) {
    this.recorder = new EventRecorder(objects, 'kubelet', options.nodeName);
    this.nodeIp = options.network.nodeIp;
    this.podsDir = path.join(options.stateDir, 'pods');
    this.backoff = { ...kubeletBackoff, ...options.backoff };
  }

  start(): void {
    fs.mkdirSync(this.podsDir, { recursive: true });
    this.registerNode();
    // Handled after the write that caused them, in order, as an informer delivers them.
    this.unsubscribe.push(this.objects.watch(kinds.pods, (e) => setImmediate(() => this.podEvent(e.type, e.object))));
    for (const [kind, key] of [
      [kinds.configMaps, 'configmap'],
      [kinds.secrets, 'secret'],
    ] as const)
      this.unsubscribe.push(
        this.objects.watch(kind, (e) =>
          setImmediate(() => {
            for (const w of this.workers.values())
              if (w.namespace === e.object.metadata.namespace) w.refreshVolumes(key, e.object.metadata.name!);
          }),
        ),
      );
    for (const pod of this.objects.list(kinds.pods)) this.podEvent('ADDED', pod);
  }

  private registerNode(): void {
    const name = this.options.nodeName;
    const memoryKi = `${Math.floor(os.totalmem() / 1024)}Ki`;
    const resources = { cpu: String(os.cpus().length), memory: memoryKi, pods: '110', 'ephemeral-storage': '100Gi' };
    const time = now();
    const condition = (type: string, status: string, reason: string, message: string) => ({
      type,
      status,
      lastHeartbeatTime: time,
      lastTransitionTime: time,
      reason,
      message,
    });
    const existing = this.objects.get(kinds.nodes, undefined, name);
    const node =
      existing ??
      this.objects.create(kinds.nodes, undefined, {
        metadata: {
          name,
          labels: {
            'kubernetes.io/hostname': name,
            'kubernetes.io/os': 'linux',
            'kubernetes.io/arch': process.arch === 'x64' ? 'amd64' : process.arch,
            'beta.kubernetes.io/os': 'linux',
          },
        },
        spec: {},
      });
    this.objects.updateStatus(kinds.nodes, undefined, node.metadata.name!, {
      capacity: resources,
      allocatable: resources,
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: this.nodeIp },
        { type: 'Hostname', address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: os.release(),
        osImage: `${os.type()} (process kubelet)`,
        containerRuntimeVersion: 'process://node-' + process.version,
        kubeletVersion,
        kubeProxyVersion: kubeletVersion,
        operatingSystem: 'linux',
        architecture: process.arch === 'x64' ? 'amd64' : process.arch,
      },
    });
  }

  private podEvent(type: string, pod: KubeObject): void {
    if (this.stopped || podSpec(pod)?.nodeName !== this.options.nodeName) return;
    const worker = this.workers.get(pod.metadata.uid!);
    if (type === 'DELETED') {
      void worker?.vanished();
      return;
    }
    if (worker) return worker.update(pod);
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const created = new PodWorker(this, pod);
    this.workers.set(created.uid, created);
    created.start();
  }

  allocatePodIp(): string {
    const inUse = new Set([...this.workers.values()].map((w) => w.podIp));
    const ip = this.options.network.pods.allocate((candidate) => inUse.has(candidate));
    if (!ip) throw new Error('the pod address range is exhausted');
    return ip;
  }

  baseEnv(pod: KubeObject, podDir: string): Record<string, string> {
    return {
      PATH: [path.dirname(process.execPath), process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(path.delimiter),
      HOME: podDir,
      HOSTNAME: podSpec(pod).hostname ?? pod.metadata.name!,
      KUBECONFIG: this.options.kubeconfigPath,
      [clusterDnsVariable]: clusterDnsFile(this.options.stateDir),
    };
  }

  /** Every running app container of this node's pods, as the kubelet's resource metrics list them. */
  runningContainers(): RunningContainer[] {
    return [...this.workers.values()].flatMap((w) =>
      w
        .runningContainers()
        .map((c) => ({ namespace: w.namespace, pod: w.name, podUid: w.uid, container: c.name, processGroup: c.processGroup })),
    );
  }

  get nodeName(): string {
    return this.options.nodeName;
  }

  finished(worker: PodWorker): void {
    if (this.workers.get(worker.uid) === worker) this.workers.delete(worker.uid);
  }

  /** GET pods/{name}/log: container, previous, tailLines, sinceSeconds, sinceTime, timestamps, limitBytes, follow. */
  async podLog(pod: KubeObject, q: URLSearchParams, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const worker = this.workers.get(pod.metadata.uid!);
    const name = q.get('container') ?? podSpec(pod).containers[0]?.name;
    const podName = pod.metadata.name!;
    const runner = worker?.runner(name);
    if (!worker || !runner) {
      if (!podSpec(pod).containers.some((c) => c.name === name) && !(podSpec(pod).initContainers ?? []).some((c) => c.name === name))
        throw badRequest(`container ${name} is not valid for pod ${podName}`);
      throw badRequest(`container "${name}" in pod "${podName}" is not available`);
    }
    const previous = q.get('previous') === 'true';
    if (previous && runner.restartCount === 0) throw badRequest(`previous terminated container "${name}" in pod "${podName}" not found`);
    const file = runner.logFile(previous);
    if (!fs.existsSync(file)) {
      const state = (runner.status().state as { waiting?: { reason?: string } }).waiting?.reason ?? 'ContainerCreating';
      throw badRequest(`container "${name}" in pod "${podName}" is waiting to start: ${state}`);
    }
    const number = (key: string) => {
      const v = q.get(key);
      if (v === null) return undefined;
      if (!/^\d+$/.test(v)) throw badRequest(`${key}: Invalid value: ${JSON.stringify(v)}`);
      return Number(v);
    };
    const sinceSeconds = number('sinceSeconds');
    const sinceTime = q.get('sinceTime');
    const query: LogQuery = {
      tailLines: number('tailLines'),
      timestamps: q.get('timestamps') === 'true',
      limitBytes: number('limitBytes'),
      sinceTime: sinceSeconds !== undefined ? Date.now() - sinceSeconds * 1000 : sinceTime ? Date.parse(sinceTime) : undefined,
    };
    const { text, offset } = readLog(file, query);
    let budget = query.limitBytes ?? Infinity;
    const write = (chunk: string): boolean => {
      if (budget <= 0) return false;
      const bytes = Buffer.from(chunk, 'utf8');
      res.write(bytes.subarray(0, Math.min(bytes.length, budget)));
      budget -= bytes.length;
      return budget > 0;
    };
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    const more = write(text);
    if (q.get('follow') === 'true' && more && !previous) {
      const abort = new AbortController();
      req.on('close', () => abort.abort());
      const instance = runner.restartCount;
      await followLog(
        file,
        offset,
        query,
        (chunk) => {
          if (!write(chunk)) abort.abort();
        },
        () => !runner.isRunning || runner.restartCount !== instance,
        abort.signal,
      );
    }
    res.end();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const u of this.unsubscribe) u();
    await Promise.all([...this.workers.values()].map((w) => w.shutdown()));
  }
}
