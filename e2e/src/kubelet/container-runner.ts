// One container of a pod, from start to its last exit: image lookup, env and mounts, the process,
// its probes and hooks, restarts by the restart policy with the kubelet's backoff (CrashLoopBackOff),
// and stopping as the kubelet stops a container: preStop hook, SIGTERM to the main process, the rest
// of the grace period (never less than 2 s after the hook), then SIGKILL to the whole group.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { now } from '../apiserver/names.js';
import type { JsonObject, KubeObject } from '../apiserver/types.js';
import type { EventRecorder } from '../cluster/events.js';
import type { Objects } from '../cluster/objects.js';
import { runAction, type ActionContext, type ActionResult } from './actions.js';
import { CancellableSleep, Deadline } from './deadline.js';
import { ContainerConfigError, containerEnv, expand } from './env.js';
import { containerArgv, lookupImage, repoRoot, resolveExecutable, type Image } from './images.js';
import { LogWriter, readLog } from './logs.js';
import { ContainerProcess, StartError, runCommand, type ProcessExit } from './processes.js';
import { Prober, type ProbeKind } from './prober.js';
import { pathRewriter, type PodVolumes } from './volumes.js';
import { podSpec, type Container, type Handler, type Probe } from './pod-spec.js';

export interface BackoffPolicy {
  /** Wait before the second restart (the first is immediate); doubles up to maxMs. */
  initialMs: number;
  maxMs: number;
  /** A container that ran this long without failing starts over with no backoff. */
  resetAfterMs: number;
}

export const kubeletBackoff: BackoffPolicy = { initialMs: 10_000, maxMs: 300_000, resetAfterMs: 600_000 };

export interface RunnerHost {
  pod(): KubeObject;
  podIp: string;
  hostIp: string;
  podDir: string;
  objects: Objects;
  recorder: EventRecorder;
  backoff: BackoffPolicy;
  volumes: PodVolumes;
  /** What every container's environment starts from (PATH, HOME, HOSTNAME, KUBECONFIG). */
  baseEnv: Record<string, string>;
  /** Something in this container's status changed. */
  changed(): void;
}

type State = { waiting: { reason: string; message?: string } } | { running: { startedAt: string } } | { terminated: JsonObject };

/** How a container is started: argv, env and working directory, ready to spawn. */
interface Prepared {
  image: Image;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  rewrite: (text: string) => string;
}

function exitCodeOf(exit: ProcessExit): number {
  if (exit.code !== null) return exit.code;
  return 128 + (exit.signal ? (os.constants.signals[exit.signal] ?? 0) : 0);
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}

export class ContainerRunner {
  private state: State;
  private lastState: State | undefined;
  restartCount = 0;
  private ready = false;
  private started = false;
  private containerId?: string;
  private process?: ContainerProcess;
  private probers: Prober[] = [];
  private stopping = false;
  private restartRequested = false;
  private readonly sleeper = new CancellableSleep();
  private termination?: { deadline: Deadline; done: Promise<void> };
  private failures = 0;
  private prepared?: Prepared;
  private stopGraceSeconds = 0;
  private stopWindowMs = 2000;

  constructor(
    private spec: Container,
    readonly isInit: boolean,
    private readonly host: RunnerHost,
  ) {
    this.state = { waiting: { reason: isInit ? 'PodInitializing' : 'ContainerCreating' } };
  }

  get name(): string {
    return this.spec.name;
  }

  private get fieldPath(): string {
    return `spec.${this.isInit ? 'initContainers' : 'containers'}{${this.spec.name}}`;
  }

  private event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.host.recorder.record(this.host.pod(), type, reason, message, this.fieldPath);
  }

  private setState(state: State): void {
    this.state = state;
    this.host.changed();
  }

  get terminated(): JsonObject | undefined {
    return 'terminated' in this.state ? this.state.terminated : undefined;
  }

  get isRunning(): boolean {
    return this.process !== undefined;
  }

  /** The running process's group (the container's cgroup, for its resource usage). */
  get processGroup(): number | undefined {
    return this.process?.pid;
  }

  logFile(previous: boolean): string {
    return path.join(this.host.podDir, 'logs', this.spec.name, `${this.restartCount - (previous ? 1 : 0)}.log`);
  }

  status(): JsonObject {
    const s: JsonObject = {
      name: this.spec.name,
      state: this.state as unknown as JsonObject,
      lastState: (this.lastState ?? {}) as unknown as JsonObject,
      ready: this.isInit ? this.terminated?.exitCode === 0 : this.ready,
      restartCount: this.restartCount,
      image: this.spec.image,
      imageID: this.prepared ? `process://${this.spec.image}` : '',
      started: this.isInit ? false : this.started,
    };
    if (this.containerId) s.containerID = this.containerId;
    return s;
  }

  private shouldRestart(exitCode: number): boolean {
    const policy = podSpec(this.host.pod()).restartPolicy ?? 'Always';
    if (this.isInit) return policy !== 'Never' && exitCode !== 0;
    return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
  }

  private backoffMs(): number {
    const b = this.host.backoff;
    return this.failures <= 1 ? 0 : Math.min(b.initialMs * 2 ** (this.failures - 2), b.maxMs);
  }

  /** Runs until the container exits for good or the pod stops it. */
  async run(): Promise<void> {
    while (!this.stopping) {
      const prepared = this.prepare();
      if ('error' in prepared) {
        this.failures++;
        const wait = prepared.reason === 'ErrImagePull' ? Math.max(this.backoffMs(), 1000) : 1000;
        if (prepared.reason === 'ErrImagePull' && this.failures > 1) {
          this.setState({
            waiting: {
              reason: 'ImagePullBackOff',
              message: `Back-off pulling image ${JSON.stringify(this.spec.image)}: ${prepared.error}`,
            },
          });
          this.event('Normal', 'BackOff', `Back-off pulling image ${JSON.stringify(this.spec.image)}`);
        } else {
          this.setState({ waiting: { reason: prepared.reason, message: prepared.error } });
          this.event(
            'Warning',
            'Failed',
            prepared.reason === 'ErrImagePull'
              ? `Failed to pull image ${JSON.stringify(this.spec.image)}: ${prepared.error}`
              : `Error: ${prepared.error}`,
          );
        }
        await this.sleeper.sleep(wait);
        continue;
      }
      if (this.failures > 0 && 'waiting' in this.state && this.state.waiting.reason !== 'CrashLoopBackOff') this.failures = 0;
      this.prepared = prepared;
      const startedAt = Date.now();
      const exit = await this.runOnce(prepared);
      if (Date.now() - startedAt > this.host.backoff.resetAfterMs) this.failures = 0;
      if (this.stopping) break;
      const code = exit.exitCode as number;
      if (!this.restartRequested && !this.shouldRestart(code)) break;
      this.restartRequested = false;
      this.failures++;
      const wait = this.backoffMs();
      this.lastState = this.state;
      if (wait > 0) {
        const pod = this.host.pod();
        this.setState({
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off ${formatDuration(wait)} restarting failed container=${this.spec.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
          },
        });
        this.event(
          'Warning',
          'BackOff',
          `Back-off restarting failed container ${this.spec.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        );
        await this.sleeper.sleep(wait);
        if (this.stopping) break;
      }
      this.restartCount++;
    }
  }

  private prepare(): Prepared | { reason: string; error: string } {
    const lookup = lookupImage(this.spec.image, repoRoot);
    if ('error' in lookup) return { reason: 'ErrImagePull', error: lookup.error };
    const image = lookup.image;
    let env: Record<string, string>;
    try {
      env = containerEnv(
        {
          pod: this.host.pod(),
          objects: this.host.objects,
          addresses: { podIp: this.host.podIp, hostIp: this.host.hostIp },
          base: { ...this.host.baseEnv, ...image.env(this.host.podIp) },
        },
        this.spec,
      );
    } catch (err) {
      if (err instanceof ContainerConfigError) return { reason: 'CreateContainerConfigError', error: err.message };
      throw err;
    }
    const rewrite = pathRewriter(this.host.volumes.mountsFor(this.spec));
    for (const k of Object.keys(env)) env[k] = rewrite(env[k]);
    const argv = containerArgv(image, this.spec.command, this.spec.args).map((word) => rewrite(expand(word, env)));
    const home = path.join(this.host.podDir, 'containers', this.spec.name);
    let cwd = home;
    if (this.spec.workingDir) {
      const mapped = rewrite(this.spec.workingDir);
      cwd = mapped !== this.spec.workingDir ? mapped : path.join(home, 'root', this.spec.workingDir);
    }
    fs.mkdirSync(cwd, { recursive: true });
    return { image, argv, env, cwd, rewrite };
  }

  /** One instance of the container: start, probes, wait for the exit. Returns the terminated state. */
  private async runOnce(p: Prepared): Promise<JsonObject> {
    const logDir = path.join(this.host.podDir, 'logs', this.spec.name);
    fs.mkdirSync(logDir, { recursive: true });
    fs.rmSync(path.join(logDir, `${this.restartCount - 2}.log`), { force: true });
    const log = new LogWriter(this.logFile(false));
    const startedAt = now();
    if (this.restartCount === 0)
      this.event('Normal', 'Pulled', `Container image ${JSON.stringify(this.spec.image)} already present on machine`);
    let proc: ContainerProcess;
    try {
      proc = await ContainerProcess.start(p.argv, { env: p.env, cwd: p.cwd }, log);
    } catch (err) {
      log.close();
      if (!(err instanceof StartError)) throw err;
      const terminated = {
        exitCode: 128,
        reason: 'StartError',
        message: err.message,
        startedAt: '1970-01-01T00:00:00Z',
        finishedAt: now(),
      };
      this.event('Warning', 'Failed', `Error: ${err.message}`);
      this.setState({ terminated });
      return terminated;
    }
    this.process = proc;
    if (this.stopping) void this.terminate(this.stopGraceSeconds, `Stopping container ${this.spec.name}`, this.stopWindowMs);
    this.containerId = `process://${proc.pid}`;
    this.event('Normal', 'Created', `Created container: ${this.spec.name}`);
    this.event('Normal', 'Started', `Started container ${this.spec.name}`);
    this.started = !this.spec.startupProbe;
    this.ready = false;
    this.setState({ running: { startedAt } });
    this.startProbes();
    if (this.spec.lifecycle?.postStart) void this.postStart(this.spec.lifecycle.postStart);
    const exit = await proc.exited;
    this.stopProbes();
    this.process = undefined;
    this.ready = false;
    this.started = false;
    const exitCode = exitCodeOf(exit);
    const terminated: JsonObject = {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      startedAt,
      finishedAt: now(),
      containerID: this.containerId,
    };
    if (exit.signal) terminated.signal = os.constants.signals[exit.signal] ?? 0;
    if (exitCode !== 0 && (this.spec as { terminationMessagePolicy?: string }).terminationMessagePolicy === 'FallbackToLogsOnError') {
      const tail = readLog(this.logFile(false), { tailLines: 80, timestamps: false }).text;
      if (tail) terminated.message = tail.slice(-2048);
    }
    this.setState({ terminated });
    return terminated;
  }

  /** Runs a command as the container would: its image's executables, env, mounts and folder; `ended` kills it with the container. */
  private actionContext(ended?: AbortSignal): ActionContext {
    const p = this.prepared!;
    return {
      podIp: this.host.podIp,
      ports: this.spec.ports ?? [],
      exec: (command, timeoutMs) =>
        runCommand(
          resolveExecutable(
            p.image,
            command.map((w) => p.rewrite(expand(w, p.env))),
          ),
          { env: p.env, cwd: p.cwd },
          timeoutMs,
          ended,
        ),
    };
  }

  private runHandler(handler: Handler, timeoutMs: number, ended?: AbortSignal): Promise<ActionResult> {
    return runAction(handler, this.actionContext(ended), timeoutMs);
  }

  private async postStart(handler: Handler): Promise<void> {
    const result = await this.runHandler(handler, 30_000);
    if (result.ok || !this.process) return;
    this.event('Warning', 'FailedPostStartHook', `PostStartHook failed: ${result.message}`);
    await this.terminate(this.graceSeconds(), `FailedPostStartHook`);
  }

  private graceSeconds(probe?: Probe): number {
    return probe?.terminationGracePeriodSeconds ?? podSpec(this.host.pod()).terminationGracePeriodSeconds ?? 30;
  }

  private startProbes(): void {
    const make = (kind: ProbeKind, probe: Probe | undefined) => {
      if (!probe) return undefined;
      const prober = new Prober(kind, probe, (timeoutMs) => this.runHandler(probe, timeoutMs), {
        failedAttempt: (message) => this.event('Warning', 'Unhealthy', message),
        changed: (ok) => this.probeChanged(kind, ok, probe),
      });
      this.probers.push(prober);
      return prober;
    };
    if (this.isInit) return;
    const startup = make('Startup', this.spec.startupProbe);
    if (startup) startup.start();
    else this.startMainProbes();
  }

  private startMainProbes(): void {
    for (const [kind, probe] of [
      ['Liveness', this.spec.livenessProbe],
      ['Readiness', this.spec.readinessProbe],
    ] as const) {
      if (!probe) continue;
      const prober = new Prober(kind, probe, (timeoutMs) => this.runHandler(probe, timeoutMs), {
        failedAttempt: (message) => this.event('Warning', 'Unhealthy', message),
        changed: (ok) => this.probeChanged(kind, ok, probe),
      });
      this.probers.push(prober);
      prober.start();
    }
    if (!this.spec.readinessProbe) {
      this.ready = true;
      this.host.changed();
    }
  }

  private probeChanged(kind: ProbeKind, ok: boolean, probe: Probe): void {
    if (!this.process) return;
    if (kind === 'Readiness') {
      this.ready = ok;
      this.host.changed();
    } else if (kind === 'Startup' && ok) {
      this.started = true;
      this.host.changed();
      this.startMainProbes();
    } else if (!ok) {
      const verb = kind === 'Startup' ? 'startup' : 'liveness';
      this.restartRequested = podSpec(this.host.pod()).restartPolicy !== 'Never';
      void this.terminate(this.graceSeconds(probe), `Container ${this.spec.name} failed ${verb} probe, will be restarted`);
    }
  }

  private stopProbes(): void {
    for (const p of this.probers) p.stop();
    this.probers = [];
  }

  /** A new image for the container (the only spec change a pod update may make): restart it. */
  updateSpec(spec: Container): void {
    const changed = spec.image !== this.spec.image;
    this.spec = spec;
    if (!changed || !this.process || this.stopping) return;
    this.restartRequested = true;
    void this.terminate(this.graceSeconds(), `Container ${spec.name} definition changed, will be restarted`);
  }

  /**
   * Stops the container for good (the pod is deleted): no more restarts. A second call with a
   * shorter grace period brings the SIGKILL forward. `minimumWindowMs` is the kubelet's 2 s.
   */
  async stop(graceSeconds: number, minimumWindowMs = 2000): Promise<void> {
    this.stopping = true;
    this.stopGraceSeconds = graceSeconds;
    this.stopWindowMs = minimumWindowMs;
    this.sleeper.cancel();
    if (!this.process) return;
    await this.terminate(graceSeconds, `Stopping container ${this.spec.name}`, minimumWindowMs);
  }

  private terminate(graceSeconds: number, message: string, minimumWindowMs = 2000): Promise<void> {
    if (this.termination) {
      this.termination.deadline.moveEarlier(Date.now() + graceSeconds * 1000);
      return this.termination.done;
    }
    const proc = this.process;
    if (!proc) return Promise.resolve();
    this.event('Normal', 'Killing', message);
    const deadline = new Deadline(Date.now() + graceSeconds * 1000);
    const exited = proc.exited.then(() => undefined);
    const preStop = this.spec.lifecycle?.preStop;
    // The hook runs inside the container: whatever of it still runs ends with the container.
    const containerEnded = new AbortController();
    const done = (async () => {
      if (preStop && graceSeconds > 0) {
        const hook = this.runHandler(preStop, graceSeconds * 1000, containerEnded.signal).then((result) => {
          if (!result.ok) this.event('Warning', 'FailedPreStopHook', `PreStopHook failed: ${result.message}`);
        });
        await Promise.race([hook, exited, deadline.passed()]);
      }
      deadline.extendTo(Date.now() + minimumWindowMs);
      proc.signal('SIGTERM');
      await Promise.race([exited, deadline.passed()]);
      proc.kill();
      await exited;
      containerEnded.abort();
    })().finally(() => {
      this.termination = undefined;
    });
    this.termination = { deadline, done };
    return done;
  }
}
