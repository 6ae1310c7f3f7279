// The operator at work: the watches feed the work queue, the queue runs reconciles.
import type { Logger } from 'pino';
import { apiMessage, type Kube } from '../kube/clients.js';
import type { EventRecorder } from '../kube/events.js';
import { Watches } from '../kube/watches.js';
import { Autoscaler } from './autoscaler.js';
import { ClusterReconciler } from './reconciler.js';
import { WorkQueue } from './work-queue.js';

export interface ControllerOptions {
  watchNamespace: string | undefined;
  concurrency: number;
  autoscalePeriodMs: number;
}

export class Controller {
  private readonly queue: WorkQueue;
  private readonly watches: Watches;

  constructor(kube: Kube, events: EventRecorder, logger: Logger, options: ControllerOptions) {
    const reconciler = new ClusterReconciler(kube, events, logger, new Autoscaler(options.autoscalePeriodMs));
    this.queue = new WorkQueue((key) => reconciler.reconcile(key), {
      concurrency: options.concurrency,
      baseDelayMs: 250,
      maxDelayMs: 60_000,
      onError: (key, err, retryInMs) => logger.warn({ cluster: key, error: apiMessage(err), retryInMs }, 'reconcile failed; retrying'),
    });
    this.watches = new Watches(kube, options.watchNamespace, (key) => this.queue.add(key), logger);
  }

  async start(): Promise<void> {
    await this.watches.start();
  }

  async stop(): Promise<void> {
    await this.watches.stop();
    await this.queue.stop();
  }
}
