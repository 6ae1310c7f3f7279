// One probe of one container, run as the kubelet runs it: first after initialDelaySeconds, then
// every periodSeconds, each attempt bounded by timeoutSeconds; the result flips to success after
// successThreshold successes in a row and to failure after failureThreshold failures in a row.
// Readiness starts as failure, liveness as success, startup as unknown (not yet succeeded).
import type { Probe } from './pod-spec.js';
import type { ActionResult } from './actions.js';

export type ProbeKind = 'Readiness' | 'Liveness' | 'Startup';

export interface ProbeCallbacks {
  /** The result flipped (true: success). */
  changed: (ok: boolean) => void;
  /** One attempt failed (the kubelet's Unhealthy event). */
  failedAttempt: (message: string) => void;
}

export class Prober {
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private successes = 0;
  private failures = 0;
  result: boolean;

  constructor(
    readonly kind: ProbeKind,
    private readonly probe: Probe,
    private readonly attempt: (timeoutMs: number) => Promise<ActionResult>,
    private readonly callbacks: ProbeCallbacks,
  ) {
    this.result = kind === 'Liveness';
  }

  start(): void {
    this.schedule((this.probe.initialDelaySeconds ?? 0) * 1000);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.run(), delayMs);
  }

  private async run(): Promise<void> {
    const started = Date.now();
    const outcome = await this.attempt((this.probe.timeoutSeconds ?? 1) * 1000);
    if (this.stopped) return;
    if (outcome.ok) {
      this.failures = 0;
      this.successes++;
      if (!this.result && this.successes >= (this.probe.successThreshold ?? 1)) {
        this.result = true;
        this.callbacks.changed(true);
      }
    } else {
      this.successes = 0;
      this.failures++;
      this.callbacks.failedAttempt(`${this.kind} probe failed: ${outcome.message}`);
      if (this.stopped) return;
      if ((this.result || this.kind !== 'Readiness') && this.failures >= (this.probe.failureThreshold ?? 3)) {
        this.result = false;
        this.failures = 0;
        this.callbacks.changed(false);
      }
    }
    const period = (this.probe.periodSeconds ?? 10) * 1000;
    this.schedule(Math.max(0, period - (Date.now() - started)));
  }
}
