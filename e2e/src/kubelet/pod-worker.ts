// One pod on the process kubelet's node: its sandbox (a loopback IP and a folder), volumes, init
// containers in order, then the app containers side by side; the status written back as things
// change; and deletion as the kubelet carries it out: every container stopped within the grace
// period (preStop, SIGTERM, SIGKILL), the terminal status written, then the object removed.
import fs from 'node:fs';
import path from 'node:path';
import { now } from '../apiserver/names.js';
import type { JsonObject, KubeObject } from '../apiserver/types.js';
import type { EventRecorder } from '../cluster/events.js';
import { kinds, type Objects } from '../cluster/objects.js';
import { ContainerRunner, type BackoffPolicy, type RunnerHost } from './container-runner.js';
import { CancellableSleep } from './deadline.js';
import { computePodStatus } from './pod-status.js';
import { podSpec } from './pod-spec.js';
import { PodVolumes, VolumeError } from './volumes.js';

export interface KubeletHost {
  objects: Objects;
  recorder: EventRecorder;
  nodeIp: string;
  podsDir: string;
  backoff: BackoffPolicy;
  allocatePodIp(): string;
  baseEnv(pod: KubeObject, podDir: string): Record<string, string>;
  /** The worker is done: its processes are gone and so is its object. */
  finished(worker: PodWorker): void;
}

export class PodWorker implements RunnerHost {
  private current: KubeObject;
  readonly uid: string;
  readonly podIp: string;
  readonly hostIp: string;
  readonly podDir: string;
  readonly volumes: PodVolumes;
  readonly baseEnv: Record<string, string>;
  private readonly init: ContainerRunner[];
  private readonly apps: ContainerRunner[];
  private startTime?: string;
  private sandboxReady = false;
  private terminating = false;
  private gone = false;
  private finishedOnce = false;
  private statusScheduled = false;
  private main: Promise<void> = Promise.resolve();
  private readonly sleeper = new CancellableSleep();

  constructor(
    private readonly kubelet: KubeletHost,
    pod: KubeObject,
  ) {
    this.current = pod;
    this.uid = pod.metadata.uid!;
    this.podIp = kubelet.allocatePodIp();
    this.hostIp = kubelet.nodeIp;
    this.podDir = path.join(kubelet.podsDir, this.uid);
    this.volumes = new PodVolumes(pod, this.podDir, kubelet.objects, { podIp: this.podIp, hostIp: this.hostIp });
    this.baseEnv = kubelet.baseEnv(pod, this.podDir);
    const spec = podSpec(pod);
    this.init = (spec.initContainers ?? []).map((c) => new ContainerRunner(c, true, this));
    this.apps = spec.containers.map((c) => new ContainerRunner(c, false, this));
  }

  get objects(): Objects {
    return this.kubelet.objects;
  }

  get recorder(): EventRecorder {
    return this.kubelet.recorder;
  }

  get backoff(): BackoffPolicy {
    return this.kubelet.backoff;
  }

  pod(): KubeObject {
    return this.current;
  }

  get namespace(): string {
    return this.current.metadata.namespace!;
  }

  get name(): string {
    return this.current.metadata.name!;
  }

  /** The app containers running now, with their process groups. */
  runningContainers(): { name: string; processGroup: number }[] {
    return this.apps.flatMap((r) => (r.processGroup === undefined ? [] : [{ name: r.name, processGroup: r.processGroup }]));
  }

  runner(name: string): ContainerRunner | undefined {
    return [...this.apps, ...this.init].find((r) => r.name === name);
  }

  start(): void {
    this.main = this.runPod().catch((err: unknown) => {
      this.recorder.record(this.current, 'Warning', 'FailedSync', `error running pod: ${err instanceof Error ? err.message : String(err)}`);
    });
    if (this.current.metadata.deletionTimestamp) void this.terminate(this.current.metadata.deletionGracePeriodSeconds ?? 0);
  }

  private async runPod(): Promise<void> {
    this.startTime = now();
    fs.mkdirSync(this.podDir, { recursive: true });
    this.changed();
    while (!this.terminating) {
      try {
        this.volumes.setUp();
        break;
      } catch (err) {
        if (!(err instanceof VolumeError)) throw err;
        this.recorder.record(this.current, 'Warning', 'FailedMount', err.message);
        await this.sleeper.sleep(1000);
      }
    }
    if (this.terminating) return;
    this.sandboxReady = true;
    this.changed();
    for (const runner of this.init) {
      await runner.run();
      if (this.terminating || runner.terminated?.exitCode !== 0) return;
    }
    await Promise.all(this.apps.map((r) => r.run()));
  }

  /** A new version of the object: deletion, a changed image, or conditions that readiness gates read. */
  update(pod: KubeObject): void {
    this.current = pod;
    if (pod.metadata.deletionTimestamp) {
      void this.terminate(pod.metadata.deletionGracePeriodSeconds ?? 0);
      return;
    }
    const spec = podSpec(pod);
    for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) this.runner(c.name)?.updateSpec(c);
    this.changed();
  }

  /** A ConfigMap or Secret changed: volumes fed by it are written again, as the kubelet syncs them. */
  refreshVolumes(kind: 'configmap' | 'secret', name: string): void {
    if (!this.sandboxReady || this.terminating || !this.volumes.uses(kind, name)) return;
    try {
      this.volumes.setUp();
    } catch (err) {
      if (err instanceof VolumeError) this.recorder.record(this.current, 'Warning', 'FailedMount', err.message);
      else throw err;
    }
  }

  /** Graceful deletion: every container stopped within the grace period, then the object removed. */
  async terminate(graceSeconds: number, minimumWindowMs?: number): Promise<void> {
    const runners = [...this.init, ...this.apps];
    if (this.terminating) {
      await Promise.all(runners.map((r) => r.stop(graceSeconds, minimumWindowMs)));
      return;
    }
    this.terminating = true;
    this.sleeper.cancel();
    await Promise.all(runners.map((r) => r.stop(graceSeconds, minimumWindowMs)));
    await this.main;
    if (!this.gone) {
      this.writeStatus(true);
      this.kubelet.objects.delete(kinds.pods, this.namespace, this.name, { gracePeriodSeconds: 0, preconditions: { uid: this.uid } });
    }
    this.finish();
  }

  /** The object is gone from the API (deleted at once, or force-deleted): stop whatever still runs. */
  async vanished(): Promise<void> {
    this.gone = true;
    await this.terminate(0);
  }

  /** Stops everything quickly (the kubelet shuts down). */
  async shutdown(): Promise<void> {
    this.gone = true;
    await this.terminate(0, 500);
  }

  private finish(): void {
    if (this.finishedOnce) return;
    this.finishedOnce = true;
    fs.rmSync(this.podDir, { recursive: true, force: true });
    this.kubelet.finished(this);
  }

  changed(): void {
    if (this.statusScheduled) return;
    this.statusScheduled = true;
    setImmediate(() => {
      this.statusScheduled = false;
      this.writeStatus(false);
    });
  }

  /** Writes the status if it differs from the stored one; `final` makes the phase terminal. */
  private writeStatus(final: boolean): void {
    if (this.gone) return;
    const stored = this.kubelet.objects.get(kinds.pods, this.namespace, this.name);
    if (!stored || stored.metadata.uid !== this.uid) return;
    const previous = (stored.status ?? {}) as JsonObject;
    const status = computePodStatus({
      previous,
      spec: podSpec(stored),
      init: this.init.map((r) => r.status()),
      containers: this.apps.map((r) => r.status()),
      podIp: this.podIp,
      hostIp: this.hostIp,
      startTime: this.startTime,
      sandboxReady: this.sandboxReady,
    });
    if (final && status.phase !== 'Succeeded' && status.phase !== 'Failed') {
      const allSucceeded = this.apps.every((r) => r.terminated?.exitCode === 0);
      status.phase = allSucceeded ? 'Succeeded' : 'Failed';
      for (const c of status.conditions as JsonObject[])
        if (c.type !== 'PodScheduled' && c.type !== 'Initialized' && c.status === 'True')
          Object.assign(c, { status: 'False', lastTransitionTime: now(), reason: 'PodCompleted' });
    }
    if (JSON.stringify(status) === JSON.stringify(previous)) return;
    this.kubelet.objects.updateStatus(kinds.pods, this.namespace, this.name, status);
  }
}
