// Leader election on a coordination.k8s.io Lease, so that two operator replicas never act at once:
// a replica takes the Lease when it is free or its holder stopped renewing it for leaseDuration, then
// renews it; every write is conditional on the resourceVersion it read, so two candidates cannot both
// win. A leader that cannot renew for renewDeadline stops (the process exits and restarts as a
// candidate); one that stops on purpose gives the Lease up, so the next takes over at once.
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isConflict, isNotFound, apiMessage, type Kube } from './clients.js';

export interface LeaseOptions {
  namespace: string;
  name: string;
  identity: string;
  leaseDurationSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class LeaderElector {
  private renewing?: NodeJS.Timeout;
  private lastRenewed = 0;
  private stopped = false;

  constructor(
    private readonly kube: Kube,
    private readonly options: LeaseOptions,
    private readonly logger: Logger,
  ) {}

  private get retryMs(): number {
    return Math.max(500, (this.options.leaseDurationSeconds * 1000) / 5);
  }

  /** Resolves once this replica holds the Lease (or never, if stop() is called first). */
  async acquire(): Promise<void> {
    let waitingLogged = false;
    while (!this.stopped) {
      try {
        const holder = await this.tryAcquireOrRenew();
        if (holder === this.options.identity) {
          this.logger.info(
            { lease: `${this.options.namespace}/${this.options.name}`, identity: this.options.identity },
            'became the leader',
          );
          return;
        }
        if (!waitingLogged)
          this.logger.info(
            { lease: `${this.options.namespace}/${this.options.name}`, holder },
            'waiting for the lease held by another replica',
          );
        waitingLogged = true;
      } catch (err) {
        this.logger.warn({ error: apiMessage(err) }, 'could not read or take the lease');
      }
      await sleep(this.retryMs);
    }
    await new Promise(() => undefined);
  }

  /** Renews the Lease every third of its duration; calls `lost` if that fails for two thirds of it. */
  keepRenewing(lost: () => void): void {
    const durationMs = this.options.leaseDurationSeconds * 1000;
    this.lastRenewed = Date.now();
    this.renewing = setInterval(() => {
      void (async () => {
        try {
          const holder = await this.tryAcquireOrRenew();
          if (holder === this.options.identity) this.lastRenewed = Date.now();
          else {
            this.logger.error({ holder }, 'another replica took the lease');
            return this.lose(lost);
          }
        } catch (err) {
          this.logger.warn({ error: apiMessage(err) }, 'could not renew the lease');
        }
        if (Date.now() - this.lastRenewed > (durationMs * 2) / 3) {
          this.logger.error('the lease was not renewed in time');
          this.lose(lost);
        }
      })();
    }, durationMs / 3);
  }

  private lose(lost: () => void): void {
    if (this.renewing) clearInterval(this.renewing);
    this.renewing = undefined;
    lost();
  }

  /** Gives the Lease up (on shutdown), so another replica need not wait for it to expire. */
  async release(): Promise<void> {
    this.stopped = true;
    if (this.renewing) clearInterval(this.renewing);
    this.renewing = undefined;
    try {
      const lease = await this.read();
      if (lease?.spec?.holderIdentity !== this.options.identity) return;
      lease.spec.holderIdentity = undefined;
      lease.spec.renewTime = undefined;
      await this.kube.coordination.replaceNamespacedLease({ namespace: this.options.namespace, name: this.options.name, body: lease });
      this.logger.info('released the lease');
    } catch (err) {
      this.logger.warn({ error: apiMessage(err) }, 'could not release the lease');
    }
  }

  private async read(): Promise<k8s.V1Lease | undefined> {
    try {
      return await this.kube.coordination.readNamespacedLease({ namespace: this.options.namespace, name: this.options.name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** One attempt; answers who holds the Lease afterwards. */
  private async tryAcquireOrRenew(): Promise<string | undefined> {
    const { namespace, name, identity, leaseDurationSeconds } = this.options;
    const now = new Date();
    const lease = await this.read();
    if (!lease) {
      try {
        await this.kube.coordination.createNamespacedLease({
          namespace,
          body: {
            metadata: { name, namespace },
            spec: { holderIdentity: identity, leaseDurationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 },
          },
        });
        return identity;
      } catch (err) {
        if (isConflict(err)) return undefined;
        throw err;
      }
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity || undefined;
    const renewed = spec.renewTime ? new Date(spec.renewTime).getTime() : 0;
    const expired = renewed + (spec.leaseDurationSeconds ?? leaseDurationSeconds) * 1000 < now.getTime();
    if (holder && holder !== identity && !expired) return holder;
    const taking = holder !== identity;
    lease.spec = {
      ...spec,
      holderIdentity: identity,
      leaseDurationSeconds,
      renewTime: now,
      ...(taking ? { acquireTime: now, leaseTransitions: (spec.leaseTransitions ?? 0) + (holder ? 1 : 0) } : {}),
    };
    try {
      await this.kube.coordination.replaceNamespacedLease({ namespace, name, body: lease });
      return identity;
    } catch (err) {
      if (isConflict(err)) return holder;
      throw err;
    }
  }
}
